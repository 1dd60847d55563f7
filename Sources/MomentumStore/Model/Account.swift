import Foundation

/// A Momentum account: who may sign in, and how.
///
/// Not every account signs in with an email and a password: a user that an app's backend
/// records events for (with a server key), or one that signs in with the app's identity
/// provider, may have neither. `nil` says so; the store never invents one.
public struct Account: Hashable, Sendable, Codable {
    /// The user id, chosen by the server; every per-user row is keyed by it.
    public var id: String
    /// The email address, stored lower-cased; unique across accounts. `nil` for an account
    /// without one.
    public var email: String?
    /// The password hash (bcrypt on the server); never the password. `nil` for an account
    /// that cannot sign in with a password.
    public var passwordHash: String?
    /// When the account was created.
    public var createdAt: Date

    /// Creates an account; the email is lower-cased and trimmed, and an empty email or
    /// password hash is none.
    public init(id: String, email: String?, passwordHash: String?, createdAt: Date) {
        self.id = id
        self.email = email.map(Account.normalize(email:)).flatMap { $0.isEmpty ? nil : $0 }
        self.passwordHash = passwordHash.flatMap { $0.isEmpty ? nil : $0 }
        self.createdAt = createdAt
    }

    /// An email address as stored: trimmed and lower-cased.
    public static func normalize(email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
