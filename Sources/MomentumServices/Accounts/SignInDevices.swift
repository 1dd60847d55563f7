import Crypto
import Foundation
import MomentumStore
import Synchronization

/// Device keys: what a browser or an app that signed in to an account shows when it signs
/// in to it again, so that guesses at the account's password from elsewhere never keep it
/// out (``SignInThrottle``).
///
/// A key is `<id>.<issued>.<tag>`: 16 random bytes (base64url), the second it was issued
/// (decimal), and an HMAC-SHA256 (base64url) over the account's email, the id, the issue
/// time and a digest of the account's password hash. The HMAC's secret is made on the first
/// instance's first start and kept in the store, so every instance and every restart knows
/// the keys; nothing per key is stored, a key is checked by computing its tag again. A key
/// is for one email and one password: one made for another account, altered, older than
/// ``lifetime``, or made before the password last changed is no key at all, so whoever
/// once knew a password (and collected keys with it) loses every key when it changes. The
/// server hands a key out with every successful sign-in or sign-up (the web app's
/// `momentum_device` cookie, the API's `Momentum-Device-Key` header) and takes it back on
/// the next sign-in.
public final class SignInDevices: Sendable {
    /// The setting that holds the secret (base64url, 32 bytes).
    public static let setting = "signin.device-key.secret"

    /// How long a key is good for (400 days, the longest a browser keeps a cookie).
    public static let lifetime: TimeInterval = 400 * 86_400

    /// How old a key shown at a sign-in may be before that sign-in hands out a new one.
    public static let renewal: TimeInterval = 30 * 86_400

    /// A key that checked out: the device it stands for and when it was issued.
    public struct Device: Equatable, Sendable {
        /// The key's id: the device, to the sign-in throttle.
        public var id: String
        /// When the key was issued, in whole seconds since 1970.
        public var issued: Int64
    }

    private let store: any DeliveryQueue
    private let secret = Mutex<SymmetricKey?>(nil)

    init(store: any DeliveryQueue) {
        self.store = store
    }

    /// A new key for a client that just signed in to the account of `email`.
    ///
    /// - Parameters:
    ///   - passwordHash: The account's password hash now: the key dies when it changes.
    ///   - email: The account's email, normalized.
    ///   - now: The time of issue.
    /// - Throws: A store error when the secret cannot be read or made.
    public func issue(for email: String, passwordHash: String, now: Date) async throws -> String {
        let id = Tokens.base64URL((0..<16).map { _ in UInt8.random(in: 0...255) })
        let issued = Self.seconds(now)
        let tag = Self.tag(id: id, issued: issued, email: email, passwordHash: passwordHash, secret: try await key())
        return "\(id).\(issued).\(Tokens.base64URL(tag))"
    }

    /// The device a key stands for when it is a live key for `email` and its password;
    /// `nil` for anything else (no key, a key for another email or an earlier password, an
    /// expired, forged or altered one, or a secret the store cannot give now).
    public func device(showing key: String?, for email: String, passwordHash: String, now: Date) async -> Device? {
        guard let key, key.utf8.count <= 128 else { return nil }
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 22, parts[1].utf8.count <= 12,
            parts[1].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let issued = Int64(parts[1]),
            let tag = WebPushCrypto.bytes(base64URL: String(parts[2]))
        else { return nil }
        let age = Double(Self.seconds(now) - issued)
        guard age >= -86_400, age <= Self.lifetime, let secret = try? await self.key() else { return nil }
        let id = String(parts[0])
        let message = Self.message(id: id, issued: issued, email: email, passwordHash: passwordHash)
        return HMAC<SHA256>.isValidAuthenticationCode(tag, authenticating: message, using: secret)
            ? Device(id: id, issued: issued) : nil
    }

    /// The secret, loaded or made once.
    private func key() async throws -> SymmetricKey {
        if let key = secret.withLock({ $0 }) { return key }
        let fresh = Tokens.base64URL((0..<32).map { _ in UInt8.random(in: 0...255) })
        let stored = try await store.serverSetting(Self.setting, orInsert: fresh)
        guard let bytes = WebPushCrypto.bytes(base64URL: stored), bytes.count == 32 else {
            throw StoreError(.corrupt, "the stored sign-in device secret is not 32 bytes")
        }
        let key = SymmetricKey(data: bytes)
        secret.withLock { $0 = key }
        return key
    }

    /// Whole seconds since 1970, bounded so that no clock can make the conversion trap.
    public static func seconds(_ date: Date) -> Int64 {
        Int64(min(max(date.timeIntervalSince1970, 0), 1e15).rounded(.down))
    }

    private static func message(id: String, issued: Int64, email: String, passwordHash: String) -> [UInt8] {
        // The password hash enters as a digest: the HMAC never carries the hash itself.
        let password = SHA256.hash(data: Array(passwordHash.utf8)).map { $0 }
        return Array("\(email)\n\(id)\n\(issued)\n".utf8) + password
    }

    private static func tag(
        id: String, issued: Int64, email: String, passwordHash: String, secret: SymmetricKey
    )
        -> [UInt8]
    {
        let message = message(id: id, issued: issued, email: email, passwordHash: passwordHash)
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: secret))
    }
}
