import Foundation

/// A signed-in device. Only a hash of its token is stored, so a leaked database grants no
/// sessions.
public struct DeviceSession: Hashable, Sendable, Codable {
    /// The account.
    public var userID: String
    /// The SHA-256 (or similar) hash of the session token, as hex.
    public var tokenHash: String
    /// The device's name as reported at sign-in (`Ada's iPhone`).
    public var deviceName: String
    /// When the session was created.
    public var createdAt: Date
    /// When the session was last used.
    public var lastSeenAt: Date
    /// When it stops being valid, if ever.
    public var expiresAt: Date?

    /// Creates a session.
    public init(
        userID: String, tokenHash: String, deviceName: String, createdAt: Date, lastSeenAt: Date? = nil,
        expiresAt: Date? = nil
    ) {
        self.userID = userID
        self.tokenHash = tokenHash
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt ?? createdAt
        self.expiresAt = expiresAt
    }
}
