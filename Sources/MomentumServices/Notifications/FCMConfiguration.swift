import Foundation

/// How the server reaches Firebase Cloud Messaging (HTTP v1): a Firebase project's service
/// account, whose RSA key signs the JWT exchanged for an OAuth2 access token.
///
/// The service-account key is the JSON file the Firebase console downloads (Project
/// settings, Service accounts, Generate new private key); ``init(serviceAccountJSON:url:)``
/// reads the fields the server needs from it.
public struct FCMConfiguration: Sendable {
    /// The Firebase project's id (`project_id`): messages go to
    /// `/v1/projects/{projectID}/messages:send`.
    public var projectID: String
    /// The service account's email (`client_email`): the JWT's issuer and subject.
    public var clientEmail: String
    /// The service account's RSA private key, PEM (`private_key`).
    public var privateKeyPEM: String
    /// The key's id (`private_key_id`): the JWT header's `kid`.
    public var privateKeyID: String
    /// Where the JWT is exchanged for an access token (`token_uri`).
    public var tokenURI: String
    /// Where messages are sent: `https://fcm.googleapis.com` (tests give a local receiver).
    public var url: String

    /// The scope the access token is asked for.
    public static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    /// Creates an FCM configuration from its parts.
    public init(
        projectID: String, clientEmail: String, privateKeyPEM: String, privateKeyID: String,
        tokenURI: String = "https://oauth2.googleapis.com/token", url: String = "https://fcm.googleapis.com"
    ) {
        self.projectID = projectID
        self.clientEmail = clientEmail
        self.privateKeyPEM = privateKeyPEM
        self.privateKeyID = privateKeyID
        self.tokenURI = tokenURI
        self.url = url
    }

    /// Reads a Firebase service-account key file.
    ///
    /// - Parameters:
    ///   - serviceAccountJSON: The file's bytes.
    ///   - url: Where messages are sent.
    /// - Throws: ``KeyFileProblem`` naming what the file lacks; it never quotes the file.
    public init(serviceAccountJSON: Data, url: String = "https://fcm.googleapis.com") throws(KeyFileProblem) {
        guard let object = try? JSONSerialization.jsonObject(with: serviceAccountJSON) as? [String: Any] else {
            throw KeyFileProblem("is not a JSON object (a Firebase service-account key file)")
        }
        if let type = object["type"] as? String, type != "service_account" {
            throw KeyFileProblem("is a '\(type.prefix(40))' key, not a service_account key")
        }
        func field(_ name: String) throws(KeyFileProblem) -> String {
            guard let value = object[name] as? String, !value.isEmpty else {
                throw KeyFileProblem("has no \(name)")
            }
            return value
        }
        self.init(
            projectID: try field("project_id"), clientEmail: try field("client_email"),
            privateKeyPEM: try field("private_key"), privateKeyID: try field("private_key_id"),
            tokenURI: try field("token_uri"), url: url)
    }

    /// What a service-account key file lacks, in words that never quote the key.
    public struct KeyFileProblem: Error, Equatable, CustomStringConvertible {
        /// What is wrong, a phrase after the file's name ("has no project_id").
        public var description: String

        init(_ description: String) { self.description = description }
    }

    /// What is wrong with the configuration (but its key, which the server checks), in a
    /// sentence; `nil` when nothing is.
    public var problem: String? {
        if !privateKeyPEM.contains("PRIVATE KEY-----") {
            return "the FCM service account's private_key is not a PEM private key"
        }
        if !projectID.utf8.allSatisfy({
            $0 == 45 || $0 == 46 || $0 == 58 || ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 122)
        }) {
            return "the FCM project_id must be lowercase letters, digits, '-', '.' or ':'"
        }
        if !clientEmail.contains("@") { return "the FCM service account's client_email is not an email" }
        guard let token = URL(string: tokenURI), token.scheme == "https", token.host != nil else {
            return "the FCM service account's token_uri must be an https URL"
        }
        guard let base = URL(string: url), ["https", "http"].contains(base.scheme ?? ""), base.host != nil else {
            return "'\(url)' is not an FCM URL"
        }
        return nil
    }
}
