import Crypto
import Foundation
import MomentumStore
import Synchronization

/// Device keys: what a browser or an app that signed in to an account shows when it signs
/// in to it again, so that guesses at the account's password from elsewhere never keep it
/// out (``SignInThrottle``).
///
/// A key is `<id>.<tag>`: 16 random bytes and an HMAC-SHA256 over the account's email and
/// the id, both base64url. The HMAC's secret is made on the first instance's first start
/// and kept in the store, so every instance and every restart knows the keys; nothing per
/// key is stored, a key is checked by computing its tag again. A key is for one email: one
/// made for another account, or altered, is no key at all. The server hands a key out with
/// every successful sign-in or sign-up (the web app's `momentum_device` cookie, the API's
/// `Momentum-Device-Key` header) and takes it back on the next sign-in.
final class SignInDevices: Sendable {
    /// The setting that holds the secret (base64url, 32 bytes).
    static let setting = "signin.device-key.secret"

    private let store: any MomentumStore
    private let secret = Mutex<SymmetricKey?>(nil)

    init(store: any MomentumStore) {
        self.store = store
    }

    /// A new key for a client that just signed in to the account of `email`.
    ///
    /// - Throws: A store error when the secret cannot be read or made.
    func issue(for email: String) async throws -> String {
        let id = Tokens.base64URL((0..<16).map { _ in UInt8.random(in: 0...255) })
        return id + "." + Tokens.base64URL(Self.tag(id: id, email: email, secret: try await key()))
    }

    /// The id of the device a key stands for when it is a key for `email`; `nil` for
    /// anything else (no key, a key for another email, a forged or altered one, or a secret
    /// the store cannot give now).
    func device(showing key: String?, for email: String) async -> String? {
        guard let key, key.utf8.count <= 128, let dot = key.firstIndex(of: ".") else { return nil }
        let id = String(key[..<dot])
        guard id.utf8.count == 22, let tag = WebPushCrypto.bytes(base64URL: String(key[key.index(after: dot)...])),
            let secret = try? await self.key()
        else { return nil }
        let message = Array("\(email)\n\(id)".utf8)
        return HMAC<SHA256>.isValidAuthenticationCode(tag, authenticating: message, using: secret) ? id : nil
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

    private static func tag(id: String, email: String, secret: SymmetricKey) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array("\(email)\n\(id)".utf8), using: secret))
    }
}
