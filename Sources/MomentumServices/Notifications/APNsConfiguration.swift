import Crypto
import Foundation

/// How the server reaches Apple's push notification service: the token-based provider API
/// over HTTP/2, with an ES256 signing key from the developer account.
public struct APNsConfiguration: Sendable {
    /// The `.p8` signing key, PEM.
    public var keyPEM: String
    /// The key's id (10 characters, from the developer account).
    public var keyID: String
    /// The team id (10 characters).
    public var teamID: String
    /// The app's bundle id (`apns-topic`).
    public var topic: String
    /// Where production device tokens are sent.
    public var productionURL: String
    /// Where development builds' tokens (`sandbox`) are sent.
    public var sandboxURL: String

    /// Creates an APNs configuration.
    public init(
        keyPEM: String, keyID: String, teamID: String, topic: String,
        productionURL: String = "https://api.push.apple.com", sandboxURL: String = "https://api.sandbox.push.apple.com"
    ) {
        self.keyPEM = keyPEM
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
    }

    /// What is wrong with the configuration, in a sentence; `nil` when nothing is.
    public var problem: String? {
        if (try? P256.Signing.PrivateKey(pemRepresentation: keyPEM)) == nil {
            return "the APNs key is not a PEM P-256 private key (.p8)"
        }
        if keyID.isEmpty || teamID.isEmpty { return "the APNs key id and team id are required" }
        if topic.isEmpty { return "the APNs topic (the app's bundle id) is required" }
        for url in [productionURL, sandboxURL] where URL(string: url)?.host == nil {
            return "'\(url)' is not an APNs URL"
        }
        return nil
    }
}
