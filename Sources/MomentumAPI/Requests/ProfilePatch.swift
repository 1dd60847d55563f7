import Foundation
import MomentumCore

/// A partial profile change, `PATCH /v1/profile`: the fields it leaves out keep their values.
public struct ProfilePatch: Sendable, Hashable {
    /// The name shown to the user and their friends.
    public var displayName: String?
    /// The IANA zone the user's days are counted in.
    public var timeZone: String?
    /// The hour (0–23) a day starts at, for people whose day ends after midnight.
    public var dayStartHour: Int?
    /// The rule pack: a bundled pack or several joined by `+` (`habits+ollie`). A request's
    /// `packs` list arrives here joined.
    public var pack: String?
    /// How big celebrations are.
    public var celebrationStyle: CelebrationStyle?
    /// Whether animations are replaced by still ones.
    public var reduceMotion: Bool?
    /// Whether celebrations wait until the app is opened.
    public var doNotDisturb: Bool?
    /// A change to some notification preferences.
    public var notifications: NotificationsPatch?
    /// The language (`en`, `pt-BR`): `.some(nil)` when the request sets it to null (follow
    /// the browser), `nil` when it leaves it out.
    public var language: String??

    /// Creates a change; every field left `nil` keeps its value.
    public init(
        displayName: String? = nil, timeZone: String? = nil, dayStartHour: Int? = nil, pack: String? = nil,
        celebrationStyle: CelebrationStyle? = nil, reduceMotion: Bool? = nil, doNotDisturb: Bool? = nil,
        notifications: NotificationsPatch? = nil, language: String?? = nil
    ) {
        self.displayName = displayName
        self.timeZone = timeZone
        self.dayStartHour = dayStartHour
        self.pack = pack
        self.celebrationStyle = celebrationStyle
        self.reduceMotion = reduceMotion
        self.doNotDisturb = doNotDisturb
        self.notifications = notifications
        self.language = language
    }
}

extension ProfilePatch: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case displayName, timeZone, dayStartHour, pack, packs, celebrationStyle, reduceMotion, doNotDisturb
        case notifications, language
    }

    /// Decodes a change, refusing a field a profile does not have (a misspelt `timezone`
    /// would otherwise change nothing, without a word).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName)
        timeZone = try c.decodeIfPresent(String.self, forKey: .timeZone)
        dayStartHour = try c.decodeIfPresent(Int.self, forKey: .dayStartHour)
        pack = try c.decodeIfPresent(String.self, forKey: .pack)
        if let packs = try c.decodeIfPresent([String].self, forKey: .packs) {
            guard pack == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .packs, in: c, debugDescription: "give pack or packs, not both")
            }
            guard !packs.isEmpty else {
                throw DecodingError.dataCorruptedError(
                    forKey: .packs, in: c, debugDescription: "must name at least one pack")
            }
            pack = packs.joined(separator: "+")
        }
        celebrationStyle = try c.decodeIfPresent(CelebrationStyle.self, forKey: .celebrationStyle)
        reduceMotion = try c.decodeIfPresent(Bool.self, forKey: .reduceMotion)
        doNotDisturb = try c.decodeIfPresent(Bool.self, forKey: .doNotDisturb)
        notifications = try c.decodeIfPresent(NotificationsPatch.self, forKey: .notifications)
        if c.contains(.language) { language = .some(try c.decodeIfPresent(String.self, forKey: .language)) }
        try UnknownFields.refuse(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    }

    /// Encodes the change's fields (the pack as one `pack` string, a language set back to
    /// following the browser as `null`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(displayName, forKey: .displayName)
        try c.encodeIfPresent(timeZone, forKey: .timeZone)
        try c.encodeIfPresent(dayStartHour, forKey: .dayStartHour)
        try c.encodeIfPresent(pack, forKey: .pack)
        try c.encodeIfPresent(celebrationStyle, forKey: .celebrationStyle)
        try c.encodeIfPresent(reduceMotion, forKey: .reduceMotion)
        try c.encodeIfPresent(doNotDisturb, forKey: .doNotDisturb)
        try c.encodeIfPresent(notifications, forKey: .notifications)
        if let language {
            if let tag = language { try c.encode(tag, forKey: .language) } else { try c.encodeNil(forKey: .language) }
        }
    }
}

/// A change to some notification preferences: the fields it leaves out keep their values,
/// `"reminderHour": null` goes back to the suggested time, and in `reminderTimes` a habit
/// given `null` goes back to the default (`{"read": "21:30", "walk": null}`).
public struct NotificationsPatch: Sendable, Hashable {
    /// Whether reminders are sent.
    public var reminders: Bool?
    /// The hour reminders are sent at: `.some(nil)` when the request sets it to null (the
    /// suggested time), `nil` when it leaves it out.
    public var reminderHour: Int??
    /// Habits' own reminder times, in minutes after midnight; `nil` for a habit removes its
    /// time.
    public var reminderTimes: [String: Int?]?
    /// Whether the at-risk warning is sent.
    public var streakAtRisk: Bool?
    /// Whether celebrations are sent.
    public var celebrations: Bool?
    /// Whether the restart after a broken streak is sent.
    public var streakBroken: Bool?
    /// Whether the weekly progress is sent.
    public var weeklySummary: Bool?
    /// The weekday of the weekly progress.
    public var weeklyDay: Weekday?
    /// The hour of the weekly progress.
    public var weeklyHour: Int?
    /// Whether freeze offers and freezes used are told.
    public var freezes: Bool?
    /// The quiet hours: `.some(nil)` when the request sets them to null (none).
    public var quietHours: QuietHours??
    /// The daily cap: `.some(nil)` when the request sets it to null (no cap).
    public var dailyCap: Int??
    /// What device channels carry; each channel named replaces its preference.
    public var channels: [NotificationChannel: ChannelPreference]?
    /// Whether friends' reactions and accepted invitations are told.
    public var social: Bool?
    /// Whether friends' nudges are taken.
    public var nudges: Bool?
    /// The most nudges taken in a day.
    public var nudgesPerDay: Int?

    /// Creates a change; every field left `nil` keeps its value.
    public init(
        reminders: Bool? = nil, reminderHour: Int?? = nil, reminderTimes: [String: Int?]? = nil,
        streakAtRisk: Bool? = nil, celebrations: Bool? = nil, streakBroken: Bool? = nil, weeklySummary: Bool? = nil,
        weeklyDay: Weekday? = nil, weeklyHour: Int? = nil, freezes: Bool? = nil, quietHours: QuietHours?? = nil,
        dailyCap: Int?? = nil, channels: [NotificationChannel: ChannelPreference]? = nil, social: Bool? = nil,
        nudges: Bool? = nil, nudgesPerDay: Int? = nil
    ) {
        self.social = social
        self.nudges = nudges
        self.nudgesPerDay = nudgesPerDay
        self.quietHours = quietHours
        self.dailyCap = dailyCap
        self.channels = channels
        self.reminders = reminders
        self.reminderHour = reminderHour
        self.reminderTimes = reminderTimes
        self.streakAtRisk = streakAtRisk
        self.celebrations = celebrations
        self.streakBroken = streakBroken
        self.weeklySummary = weeklySummary
        self.weeklyDay = weeklyDay
        self.weeklyHour = weeklyHour
        self.freezes = freezes
    }

    /// The preferences with this change made.
    public func applied(to preferences: NotificationPreferences) -> NotificationPreferences {
        var changed = preferences
        if let reminders { changed.reminders = reminders }
        if let reminderHour { changed.reminderHour = reminderHour }
        for (habit, minute) in reminderTimes ?? [:] { changed.reminderTimes[habit] = minute }
        if let streakAtRisk { changed.streakAtRisk = streakAtRisk }
        if let celebrations { changed.celebrations = celebrations }
        if let streakBroken { changed.streakBroken = streakBroken }
        if let weeklySummary { changed.weeklySummary = weeklySummary }
        if let weeklyDay { changed.weeklyDay = weeklyDay }
        if let weeklyHour { changed.weeklyHour = weeklyHour }
        if let freezes { changed.freezes = freezes }
        if let quietHours { changed.quietHours = quietHours }
        if let dailyCap { changed.dailyCap = dailyCap }
        for (channel, preference) in channels ?? [:] { changed.channels[channel] = preference }
        if let social { changed.social = social }
        if let nudges { changed.nudges = nudges }
        if let nudgesPerDay { changed.nudgesPerDay = nudgesPerDay }
        return changed
    }
}

extension NotificationsPatch: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case reminders, reminderHour, reminderTimes, streakAtRisk, celebrations, streakBroken, weeklySummary
        case weeklyDay, weeklyHour, freezes, quietHours, dailyCap, channels, social, nudges, nudgesPerDay
    }

    /// Decodes a change, telling a null `reminderHour` from an absent one, reading reminder
    /// times as `HH:MM`, and refusing a field the preferences do not have.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        reminders = try c.decodeIfPresent(Bool.self, forKey: .reminders)
        if c.contains(.reminderHour) { reminderHour = .some(try c.decodeIfPresent(Int.self, forKey: .reminderHour)) }
        if let times = try c.decodeIfPresent([String: String?].self, forKey: .reminderTimes) {
            var minutes: [String: Int?] = [:]
            for (habit, clock) in times {
                guard let clock else {
                    minutes[habit] = .some(nil)
                    continue
                }
                guard let minute = NotificationPreferences.minute(of: clock) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .reminderTimes, in: c,
                        debugDescription:
                            "the reminder time of '\(habit)' must be HH:MM (00:00 to 23:59), not '\(clock)'")
                }
                minutes[habit] = minute
            }
            reminderTimes = minutes
        }
        streakAtRisk = try c.decodeIfPresent(Bool.self, forKey: .streakAtRisk)
        celebrations = try c.decodeIfPresent(Bool.self, forKey: .celebrations)
        streakBroken = try c.decodeIfPresent(Bool.self, forKey: .streakBroken)
        weeklySummary = try c.decodeIfPresent(Bool.self, forKey: .weeklySummary)
        weeklyDay = try c.decodeIfPresent(Weekday.self, forKey: .weeklyDay)
        weeklyHour = try c.decodeIfPresent(Int.self, forKey: .weeklyHour)
        freezes = try c.decodeIfPresent(Bool.self, forKey: .freezes)
        if c.contains(.quietHours) { quietHours = .some(try c.decodeIfPresent(QuietHours.self, forKey: .quietHours)) }
        if c.contains(.dailyCap) { dailyCap = .some(try c.decodeIfPresent(Int.self, forKey: .dailyCap)) }
        if let named = try c.decodeIfPresent([String: ChannelPreference].self, forKey: .channels) {
            var channels: [NotificationChannel: ChannelPreference] = [:]
            for (name, preference) in named {
                guard let channel = NotificationChannel(rawValue: name), channel != .inApp else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .channels, in: c,
                        debugDescription: "'\(name)' is not a channel: webPush, apns, fcm or webhook")
                }
                channels[channel] = preference
            }
            self.channels = channels
        }
        social = try c.decodeIfPresent(Bool.self, forKey: .social)
        nudges = try c.decodeIfPresent(Bool.self, forKey: .nudges)
        nudgesPerDay = try c.decodeIfPresent(Int.self, forKey: .nudgesPerDay)
        try UnknownFields.refuse(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    }

    /// Encodes the change, writing `null` for a `reminderHour` (or a habit's reminder time)
    /// set back to the default.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(reminders, forKey: .reminders)
        if let reminderHour {
            if let hour = reminderHour {
                try c.encode(hour, forKey: .reminderHour)
            } else {
                try c.encodeNil(forKey: .reminderHour)
            }
        }
        if let reminderTimes {
            try c.encode(reminderTimes.mapValues { $0.map(NotificationPreferences.clock) }, forKey: .reminderTimes)
        }
        try c.encodeIfPresent(streakAtRisk, forKey: .streakAtRisk)
        try c.encodeIfPresent(celebrations, forKey: .celebrations)
        try c.encodeIfPresent(streakBroken, forKey: .streakBroken)
        try c.encodeIfPresent(weeklySummary, forKey: .weeklySummary)
        try c.encodeIfPresent(weeklyDay, forKey: .weeklyDay)
        try c.encodeIfPresent(weeklyHour, forKey: .weeklyHour)
        try c.encodeIfPresent(freezes, forKey: .freezes)
        if let quietHours {
            if let hours = quietHours {
                try c.encode(hours, forKey: .quietHours)
            } else {
                try c.encodeNil(forKey: .quietHours)
            }
        }
        if let dailyCap {
            if let cap = dailyCap { try c.encode(cap, forKey: .dailyCap) } else { try c.encodeNil(forKey: .dailyCap) }
        }
        if let channels {
            try c.encode(
                Dictionary(uniqueKeysWithValues: channels.map { ($0.key.rawValue, $0.value) }), forKey: .channels)
        }
        try c.encodeIfPresent(social, forKey: .social)
        try c.encodeIfPresent(nudges, forKey: .nudges)
        try c.encodeIfPresent(nudgesPerDay, forKey: .nudgesPerDay)
    }
}
