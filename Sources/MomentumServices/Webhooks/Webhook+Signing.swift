import Crypto
import Foundation
import MomentumStore

extension Webhook {
    /// A message id for what happened: `msg_` and the hex of a hash of `fact` (a fact names
    /// the type, user and what identifies the happening), the same every time it is derived.
    public static func messageID(for fact: String) -> String {
        "msg_" + SHA256.hash(data: Array(fact.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// A fresh Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes.
    public static func newSecret() -> String {
        "whsec_" + Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64EncodedString()
    }

    /// The HMAC key of a secret: the bytes the base64 after `whsec_` stands for; for a
    /// legacy secret (or one that is not such base64), the secret's UTF-8 bytes.
    public static func key(of secret: String, legacy: Bool) -> [UInt8] {
        if !legacy, secret.hasPrefix("whsec_"), let key = Data(base64Encoded: String(secret.dropFirst(6))),
            !key.isEmpty
        {
            return Array(key)
        }
        return Array(secret.utf8)
    }

    /// The secret in Standard Webhooks form, whatever its kind: `whsec_` and the base64 of
    /// its HMAC key (for a legacy secret, of its UTF-8 bytes).
    public var standardSecret: String {
        "whsec_" + Data(Self.key(of: secret, legacy: legacySecret)).base64EncodedString()
    }

    /// The secrets that sign at an instant, each with whether it is legacy: the current
    /// one, then the previous one while its overlap lasts.
    public func signingSecrets(at now: Date) -> [(secret: String, legacy: Bool)] {
        var secrets = [(secret, legacySecret)]
        if let previous = previousSecret, let until = previousSecretExpiresAt, now < until {
            secrets.append((previous, previousSecretIsLegacy))
        }
        return secrets
    }

    /// The Standard Webhooks keys that sign at an instant (`signingSecrets(at:)`).
    public func signingKeys(at now: Date) -> [[UInt8]] {
        signingSecrets(at: now).map { Self.key(of: $0.secret, legacy: $0.legacy) }
    }

    /// The keys of the deprecated `Momentum-Signature` at an instant: each signing secret's
    /// UTF-8 bytes, as that header has always used.
    public func legacySigningKeys(at now: Date) -> [[UInt8]] {
        signingSecrets(at: now).map { Array($0.secret.utf8) }
    }
}
