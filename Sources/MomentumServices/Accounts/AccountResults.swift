import Foundation
import MomentumCore
import MomentumStore

/// The answer to registering or signing in: the new device's bearer token.
public struct SessionResponse: Codable, Sendable {
    /// The user id.
    public var userID: String
    /// The email; `nil` for an account without one (an identity provider's user may have none).
    public var email: String?
    /// The token.
    public var token: String
    /// The device.
    public var device: DeviceView
    /// The profile.
    public var profile: ProfileView
}

/// A device's session as listed to its owner.
public struct DeviceView: Codable, Sendable {
    /// The id.
    public var id: String
    /// The name.
    public var name: String
    /// The created at.
    public var createdAt: Date
    /// The last seen at.
    public var lastSeenAt: Date
    /// The expires at.
    public var expiresAt: Date?
    /// The current.
    public var current: Bool

    /// A device session as its owner sees it; `current` is the hash of the asking device's token.
    public init(_ session: DeviceSession, current: String?) {
        id = Tokens.deviceID(session.tokenHash)
        name = session.deviceName
        createdAt = session.createdAt
        lastSeenAt = session.lastSeenAt
        expiresAt = session.expiresAt
        self.current = session.tokenHash == current
    }
}

/// A profile as the API answers it.
public struct ProfileView: Codable, Sendable {
    /// The display name.
    public var displayName: String
    /// The time zone.
    public var timeZone: String
    /// The day start hour.
    public var dayStartHour: Int
    /// The pack.
    public var pack: String
    /// The packs.
    public var packs: [String]
    /// The celebration style.
    public var celebrationStyle: CelebrationStyle
    /// The reduce motion.
    public var reduceMotion: Bool
    /// The do not disturb.
    public var doNotDisturb: Bool
    /// The notifications.
    public var notifications: NotificationPreferences
    /// The language.
    public var language: String?
    /// Whether the account's email address is verified; `nil` for an account without one
    /// (or where the answer does not say).
    public var emailVerified: Bool?
    /// The updated at.
    public var updatedAt: Date

    /// A profile as the API answers it.
    public init(_ profile: Profile) {
        displayName = profile.displayName
        timeZone = profile.timeZone
        dayStartHour = profile.dayStartHour
        pack = profile.pack
        packs = profile.packs
        celebrationStyle = profile.preferences.style
        reduceMotion = profile.preferences.accessibility.reduceMotion
        doNotDisturb = profile.preferences.doNotDisturb
        notifications = profile.notifications
        language = profile.language
        updatedAt = profile.updatedAt
    }
}
