import Foundation
import MomentumServices

extension ServeSettings {
    /// Android push: Firebase Cloud Messaging's service account.
    static let androidPush: [Setting] = [
        .optionalText(
            "fcmServiceAccountFile", \.fcmServiceAccountFile,
            help:
                "The Firebase service-account key file (JSON, from the Firebase console's Service accounts tab) that sends to Android devices through FCM."
        ),
        .text("fcmUrl", \.fcmUrl, help: "Where FCM messages are sent."),
    ]

    /// The FCM configuration the service-account key file makes; `nil` when none is named.
    ///
    /// - Throws: ``SettingsError`` naming `fcmServiceAccountFile` for a file that cannot be
    ///   read or is not a service-account key (never quoting the key).
    func fcmConfiguration() throws(SettingsError) -> FCMConfiguration? {
        guard let path = fcmServiceAccountFile else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw SettingsError("fcmServiceAccountFile: cannot read '\(path)': \(error.localizedDescription)")
        }
        do { return try FCMConfiguration(serviceAccountJSON: data, url: fcmUrl) } catch {
            throw SettingsError("fcmServiceAccountFile: '\(path)' \(error.description)")
        }
    }
}
