import Foundation
import MomentumAPI
import MomentumStore

/// `POST /v1/admin/server-keys`: a new key's name, scopes and app (the contract's type).
public typealias ServerKeyCreateRequest = Components.Schemas.ServerKeyCreateRequest

/// `POST /v1/server/users/{appUserId}/events`: one event or a batch, and the time zone of
/// a user the call creates.
public typealias BackendEventsRequest = Components.Schemas.BackendEventsRequest

/// `PUT /v1/server/users/{appUserId}`: an app's user's time zone, display name, language.
public typealias BackendUserRequest = Components.Schemas.BackendUserRequest

/// `POST /v1/server/users/{appUserId}/sessions`: the device's name, and the time zone of a
/// user the call creates.
public typealias BackendSessionRequest = Components.Schemas.BackendSessionRequest

/// A server key as the admin API lists it: never its secret nor the secret's hash.
public struct ServerKeyView: Codable, Sendable, Hashable {
    /// The key's id.
    public var id: String
    /// The operator's name for it.
    public var name: String
    /// The app whose users it reaches.
    public var app: String
    /// What it may do.
    public var scopes: [String]
    /// When it was created.
    public var createdAt: Date
    /// When it was last used (to the minute).
    public var lastUsedAt: Date?
    /// When it was revoked.
    public var revokedAt: Date?

    /// A stored key as listed.
    public init(_ key: ServerKey) {
        id = key.id
        name = key.name
        app = key.app
        scopes = key.scopes
        createdAt = key.createdAt
        lastUsedAt = key.lastUsedAt
        revokedAt = key.revokedAt
    }
}

/// The answer to creating a key: the key itself, shown this once, and its listing.
public struct CreatedServerKey: Codable, Sendable {
    /// The key (`msk_<id>_<secret>`): store it now, it is not shown again.
    public var key: String
    /// The key as listed.
    public var serverKey: ServerKeyView
}
