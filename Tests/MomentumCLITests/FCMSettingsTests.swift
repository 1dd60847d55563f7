import Foundation
import Testing

/// `momentum serve --fcm-service-account-file`: a file that is not a Firebase
/// service-account key is refused at start, naming the setting and never quoting the key.
@Suite(.serialized)
struct FCMSettingsTests {
    let settings = ServeSettingsTests()

    /// A service-account key file, as the Firebase console hands it out, with `changes`
    /// made to its fields (`nil` removes one).
    func keyFile(_ changes: [String: String?] = [:]) throws -> URL {
        var fields: [String: String] = [
            "type": "service_account", "project_id": "momentum-demo", "private_key_id": "0123456789abcdef",
            "private_key": "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----\n",
            "client_email": "push@momentum-demo.iam.gserviceaccount.com",
            "token_uri": "https://oauth2.googleapis.com/token",
        ]
        for (name, value) in changes { fields[name] = value }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        return try settings.temporaryFile("service-account.json", json)
    }

    @Test func aBadServiceAccountFileIsRefusedNamingTheSettingWithoutTheKey() throws {
        let cases: [(URL, String)] = [
            (URL(fileURLWithPath: "/nonexistent/service-account.json"), "fcmServiceAccountFile: cannot read"),
            (try settings.temporaryFile("key.json", "not json"), "is not a JSON object"),
            (try keyFile(["private_key_id": nil]), "has no private_key_id"),
            (try keyFile(["project_id": nil]), "has no project_id"),
            (try keyFile(["type": "authorized_user"]), "is a 'authorized_user' key, not a service_account key"),
            (try keyFile(["token_uri": "http://oauth2.example/token"]), "token_uri must be an https URL"),
            (try keyFile(), "the FCM service account's private_key is not an RSA private key"),
        ]
        for (file, message) in cases {
            let refused = try settings.momentum(["serve", "--fcm-service-account-file", file.path])
            #expect(refused.status == 78, "\(file.lastPathComponent): \(refused.stderr)")
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
            #expect(!refused.stderr.contains("c2VjcmV0LWtleS1tYXRlcmlhbA"), "the key is quoted: \(refused.stderr)")
        }
        let environment = try settings.momentum(
            ["serve"], environment: ["MOMENTUM_FCM_SERVICE_ACCOUNT_FILE": try keyFile(["client_email": nil]).path])
        #expect(environment.status == 78 && environment.stderr.contains("has no client_email"), "\(environment.stderr)")
    }
}
