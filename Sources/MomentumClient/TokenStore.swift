import Foundation

/// Where the client keeps its secrets: the session token and the sign-in device key.
///
/// Neither is kept in the client's SQLite file, which iOS backs up with the app's data
/// (and which a support request may attach). ``MomentumClient`` picks a store per
/// platform: `KeychainTokenStore` where the Security framework exists (Apple platforms),
/// ``FileTokenStore`` elsewhere. An app may pass its own (an app group's Keychain access
/// group, a test double).
///
/// Every method is synchronous and may be called from any thread.
public protocol TokenStore: Sendable {
    /// The secret kept for `key`, or `nil` when there is none.
    ///
    /// - Throws: When the store cannot be read (a locked device, a damaged file).
    func read(_ key: TokenKey) throws -> String?

    /// Keeps `secret` for `key`, replacing any earlier one.
    ///
    /// - Throws: When the store cannot be written.
    func save(_ secret: String, for key: TokenKey) throws

    /// Forgets the secret kept for `key`; forgetting a missing one is no error.
    ///
    /// - Throws: When the store cannot be written.
    func delete(_ key: TokenKey) throws
}

/// What a secret is and whose: one per kind, server and account.
public struct TokenKey: Hashable, Sendable, CustomStringConvertible {
    /// A kind of secret.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        /// The kind's name, part of ``TokenKey/account``.
        public var rawValue: String
        /// Creates a kind.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The device's session: `Authorization: Bearer …`. Forgotten at sign-out.
        public static let session = Kind(rawValue: "session")
        /// The sign-in device key (`Momentum-Device-Key`). Kept after sign-out: it is about
        /// the device, not the session.
        public static let deviceKey = Kind(rawValue: "device-key")
    }

    /// The kind of secret.
    public var kind: Kind
    /// The server's base URL, as given to the client.
    public var server: String
    /// The account's email, trimmed and lowercased.
    public var email: String

    /// Creates a key.
    public init(_ kind: Kind, server: String, email: String) {
        self.kind = kind
        self.server = server
        self.email = email
    }

    /// The Keychain item's service: the server.
    public var service: String { server }
    /// The Keychain item's account: the kind and the email (`session:sam@example.com`).
    public var account: String { "\(kind.rawValue):\(email)" }

    /// The service and the account.
    public var description: String { "\(service) \(account)" }
}
