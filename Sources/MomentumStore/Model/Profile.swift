import Foundation
import MomentumCore

/// A user's profile and preferences: the settings that shape how their log is evaluated
/// and how celebrations are shown.
public struct Profile: Hashable, Sendable, Codable {
    /// The name shown in the app.
    public var displayName: String
    /// The user's home IANA time zone (events carry their own; this is the default).
    public var timeZone: String
    /// The local hour at which the user's day begins (0–23).
    public var dayStartHour: Int
    /// The bundled rule pack in force (`habits`, `ollie`, `savings`, `growth`).
    public var pack: String
    /// Celebration style, accessibility and Do Not Disturb.
    public var preferences: CelebrationPreferences
    /// When the profile last changed.
    public var updatedAt: Date

    /// Creates a profile.
    public init(
        displayName: String, timeZone: String = "UTC", dayStartHour: Int = 0, pack: String = "habits",
        preferences: CelebrationPreferences = .standard, updatedAt: Date
    ) {
        self.displayName = displayName
        self.timeZone = timeZone
        self.dayStartHour = dayStartHour
        self.pack = pack
        self.preferences = preferences
        self.updatedAt = updatedAt
    }

    /// The rule pack named by ``pack``.
    ///
    /// - Throws: ``StoreError/Code/unknownPack`` when Momentum bundles no pack of that name.
    public func rulePack() throws(StoreError) -> RulePack {
        guard let pack = RulePack.bundled[pack] else {
            throw StoreError(
                .unknownPack,
                "unknown rule pack '\(pack)'; bundled packs: \(RulePack.bundled.keys.sorted().joined(separator: ", "))")
        }
        return pack
    }

    /// Checks every field.
    ///
    /// - Throws: ``StoreError`` naming the first bad field.
    public func validate() throws(StoreError) {
        if displayName.trimmingCharacters(in: .whitespaces).isEmpty || displayName.count > 100 {
            throw StoreError(.invalidInput, "display name must have 1 to 100 characters")
        }
        guard ZoneOffsetTable.named(timeZone) != nil else {
            throw StoreError(.invalidInput, "time zone '\(timeZone)' is not an IANA time zone")
        }
        guard (0...23).contains(dayStartHour) else {
            throw StoreError(.invalidInput, "day start hour must be 0 to 23, not \(dayStartHour)")
        }
        _ = try rulePack()
    }
}
