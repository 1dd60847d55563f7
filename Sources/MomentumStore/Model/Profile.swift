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
    /// The bundled rule pack in force (`habits`, `ollie`, `savings`, `growth`), or a
    /// combination of them (`habits+ollie+savings`) for an account that tracks several.
    public var pack: String
    /// Celebration style, accessibility and Do Not Disturb.
    public var preferences: CelebrationPreferences
    /// Which notifications the user wants.
    public var notifications: NotificationPreferences
    /// The language of the app's words (`en`, `pt-BR`), one of
    /// `Translation.availableLanguages`; `nil` follows the browser, and the engine's own
    /// texts (celebrations, notifications) are English then.
    public var language: String?
    /// When the profile last changed.
    public var updatedAt: Date

    /// Creates a profile.
    public init(
        displayName: String, timeZone: String = "UTC", dayStartHour: Int = 0, pack: String = "habits",
        preferences: CelebrationPreferences = .standard, notifications: NotificationPreferences = .standard,
        language: String? = nil, updatedAt: Date
    ) {
        self.displayName = displayName
        self.timeZone = timeZone
        self.dayStartHour = dayStartHour
        self.pack = pack
        self.preferences = preferences
        self.notifications = notifications
        self.language = language
        self.updatedAt = updatedAt
    }

    private enum CodingKeys: String, CodingKey {
        case displayName, timeZone, dayStartHour, pack, preferences, notifications, language, updatedAt
    }

    /// Decodes a profile; archives written before notification preferences existed get
    /// the standard ones, and those written before languages follow the browser.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try c.decode(String.self, forKey: .displayName)
        timeZone = try c.decode(String.self, forKey: .timeZone)
        dayStartHour = try c.decode(Int.self, forKey: .dayStartHour)
        pack = try c.decode(String.self, forKey: .pack)
        preferences = try c.decode(CelebrationPreferences.self, forKey: .preferences)
        notifications = try c.decodeIfPresent(NotificationPreferences.self, forKey: .notifications) ?? .standard
        language = try c.decodeIfPresent(String.self, forKey: .language)
        updatedAt = try c.decode(Date.self, forKey: .updatedAt)
    }

    /// The engine's texts in the profile's language (English when it follows the browser).
    public var translation: Translation {
        language.flatMap(Translation.named) ?? .english
    }

    /// The rule pack named by ``pack`` among the bundled packs alone (a combination for
    /// several names), its titles and labels in the profile's language; a server reads
    /// ``rulePack(in:)`` with its store's library.
    ///
    /// - Throws: ``StoreError/Code/unknownPack`` when Momentum bundles no pack of that name.
    public func rulePack() throws(StoreError) -> RulePack {
        try rulePack(in: .bundled)
    }

    /// The rule pack named by ``pack`` in `library` (a combination for several names: the
    /// active uploaded versions over the bundled packs), its titles and labels in the
    /// profile's language, with the uploads' own translations.
    ///
    /// - Parameter library: The packs in force.
    /// - Throws: ``StoreError/Code/unknownPack`` when `library` has no pack of that name.
    public func rulePack(in library: PackLibrary) throws(StoreError) -> RulePack {
        guard let pack = library.named(pack)?.translated(library.translation(translation)) else {
            throw StoreError(
                .unknownPack,
                "unknown rule pack '\(pack)'; packs: \(library.names.joined(separator: ", ")), or several joined by '+'"
            )
        }
        return pack
    }

    /// A pack name with its parts in canonical order (`ollie+habits` → `habits+ollie`,
    /// `puppy+habits` → `habits+puppy`: the bundled order, then other names sorted);
    /// unchanged when it is empty or repeats a name (``validate(in:)`` refuses it then).
    public static func canonicalPack(_ name: String) -> String {
        PackLibrary.canonicalOrder(name)?.joined(separator: "+") ?? name
    }

    /// The names of the packs in force, in canonical order (`["habits", "ollie"]`).
    public var packs: [String] { PackLibrary.canonicalOrder(pack) ?? [pack] }

    /// Checks every field, the pack among the bundled packs alone.
    ///
    /// - Throws: ``StoreError`` naming the first bad field.
    public func validate() throws(StoreError) {
        try validate(in: .bundled)
    }

    /// Checks every field, the pack among `library`'s.
    ///
    /// - Parameter library: The packs in force.
    /// - Throws: ``StoreError`` naming the first bad field.
    public func validate(in library: PackLibrary) throws(StoreError) {
        if displayName.trimmingCharacters(in: .whitespaces).isEmpty || displayName.count > 100 {
            throw StoreError(.invalidInput, "display name must have 1 to 100 characters")
        }
        if TextRules.hasControlCharacter(displayName) {
            throw StoreError(.invalidInput, TextRules.controlCharacterMessage("display name"))
        }
        guard ZoneOffsetTable.named(timeZone) != nil else {
            throw StoreError(.invalidInput, "time zone '\(timeZone)' is not an IANA time zone")
        }
        guard (0...23).contains(dayStartHour) else {
            throw StoreError(.invalidInput, "day start hour must be 0 to 23, not \(dayStartHour)")
        }
        if let language, Translation.named(language)?.language != language {
            throw StoreError(
                .invalidInput,
                "language '\(language)' is not one Momentum speaks: \(Translation.availableLanguages.joined(separator: ", "))"
            )
        }
        if let problem = notifications.problem {
            throw StoreError(.invalidInput, problem)
        }
        _ = try rulePack(in: library)
    }
}
