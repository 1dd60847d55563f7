import Foundation

/// A Momentum account: who may sign in, and how.
public struct Account: Hashable, Sendable, Codable {
    /// The user id, chosen by the server; every per-user row is keyed by it.
    public var id: String
    /// The email address, stored lower-cased; unique across accounts.
    public var email: String
    /// The password hash (bcrypt on the server); never the password.
    public var passwordHash: String
    /// When the account was created.
    public var createdAt: Date

    /// Creates an account; the email is lower-cased and trimmed.
    public init(id: String, email: String, passwordHash: String, createdAt: Date) {
        self.id = id
        self.email = Account.normalize(email: email)
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }

    /// An email address as stored: trimmed and lower-cased.
    public static func normalize(email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
