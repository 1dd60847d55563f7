import Foundation

/// A key an app's backend authenticates with (`Authorization: Bearer msk_…`): what it may
/// do, for which app, and when it was used.
///
/// The store keeps the SHA-256 of the key's secret, never the secret: the key is shown once,
/// when it is created.
public struct ServerKey: Hashable, Sendable {
    /// The key's public id (the `<id>` of `msk_<id>_<secret>`).
    public var id: String
    /// The app whose users the key reaches (`default` unless the operator names one).
    public var app: String
    /// The operator's name for the key.
    public var name: String
    /// What the key may do: `events:write`, `state:read`, `users:manage`.
    public var scopes: [String]
    /// The SHA-256 of the key's secret, in lower-case hex.
    public var secretHash: String
    /// When the key was created.
    public var createdAt: Date
    /// When the key was last used (written at most about once a minute).
    public var lastUsedAt: Date?
    /// When the key was revoked; a revoked key authenticates nothing.
    public var revokedAt: Date?

    /// Creates a key's record.
    public init(
        id: String, app: String, name: String, scopes: [String], secretHash: String, createdAt: Date,
        lastUsedAt: Date? = nil, revokedAt: Date? = nil
    ) {
        self.id = id
        self.app = app
        self.name = name
        self.scopes = scopes
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

/// A user of an app's backend, by the app's own id, and the Momentum user it maps to.
public struct AppUser: Hashable, Sendable {
    /// The app (a server key's ``ServerKey/app``).
    public var app: String
    /// The app's own id for the user.
    public var appUserID: String
    /// The Momentum user id.
    public var userID: String

    /// Creates a mapping.
    public init(app: String, appUserID: String, userID: String) {
        self.app = app
        self.appUserID = appUserID
        self.userID = userID
    }
}
