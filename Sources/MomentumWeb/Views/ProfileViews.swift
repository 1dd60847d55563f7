/// `/profile`: the account, preferences, notifications, devices and statistics.
struct ProfilePage: TemplateModel {
    static let template = "profile"

    /// The profile's settings as the forms show them.
    struct Settings: Codable {
        var displayName: String
        var reduceMotion: Bool
        var doNotDisturb: Bool
        var reminders: Bool
        var celebrations: Bool
        var weeklySummary: Bool
        var streakAtRisk: Bool
        var streakBroken: Bool
        var freezes: Bool
        /// The packs tracked, joined by "+".
        var packs: String
        var quiet: Bool
        var quietFrom: String
        var quietTo: String
        var dailyCap: String
        var languageValue: String
    }

    /// One option of a list, selected when it is the setting's value.
    struct Choice<Value: Codable>: Codable {
        var value: Value
        var label: String
        var selected: Bool
    }

    /// One hour of the day's start.
    struct Hour: Codable {
        var value: Int
        var selected: Bool
    }

    /// A device that receives push notifications.
    struct PushTarget: Codable {
        var id: String
        var label: String
        var channel: String
        var created: String
    }

    /// A signed-in device.
    struct Device: Codable {
        var id: String
        var name: String
        var current: Bool
        var created: String
        var lastSeen: String
    }

    /// The account's statistics.
    struct Stats: Codable {
        var habitsActive: Int
        var totalDays: Int
        var milestones: Int
        var consistency: Int
        var strength: Int
        var events: Int
    }

    /// `nil` for an account without an email (an app's backend's user, an identity provider's).
    var email: String?
    /// Whether the account signs in with a password: only then can it change one.
    var hasPassword: Bool
    var profile: Settings
    var languages: [Choice<String>]
    var pushTargets: [PushTarget]
    var hasPushTargets: Bool
    var reminderHours: [Choice<String>]
    var weeklyDays: [Choice<String>]
    var weeklyHours: [Choice<Int>]
    var styles: [Choice<String>]
    var devices: [Device]
    var zones: [ZoneOption]
    var packChoices: [PackChoice]
    var hours: [Hour]
    var stats: Stats
}
