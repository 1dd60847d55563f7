/// Which notifications a user wants, and when (seed 004 R11.5).
///
/// Each kind can be turned off; reminders come at a time the user picks per habit, else at
/// their default hour, else at the time the coaching suggests from recent check-ins; the
/// weekly progress comes on the weekday and hour they choose.
///
/// JSON: `{"reminders": true, "reminderHour": 8, "reminderTimes": {"read": "21:30"},
/// "streakAtRisk": true, "celebrations": true, "streakBroken": true, "weeklySummary": true,
/// "weeklyDay": "sunday", "weeklyHour": 18, "freezes": true, "quietHours": {"from": "22:00",
/// "to": "07:00"}, "dailyCap": 5, "channels": {"webPush": {"enabled": true, "kinds":
/// ["milestone"]}}}`; an absent field takes its standard value, so preferences saved before
/// a field existed keep working.
///
/// The kinds decide what reaches the inbox; ``channels`` narrow what each device channel
/// carries; ``quietHours`` and ``dailyCap`` hold back the channels that interrupt (Web Push,
/// APNs, webhooks), never the inbox.
public struct NotificationPreferences: Hashable, Sendable, Codable {
    /// Daily reminders for habits not yet done.
    public var reminders: Bool
    /// The local hour of reminders for habits without a time of their own (0–23), or `nil`
    /// for the time the coaching suggests (the median time of recent check-ins, 09:00
    /// without any).
    public var reminderHour: Int?
    /// Each habit's own reminder time, in minutes after local midnight (0–1439), by habit id.
    public var reminderTimes: [String: Int]
    /// The warning two hours before the day ends while a habit with a streak is still open.
    public var streakAtRisk: Bool
    /// Milestones and other celebrations, the moment they are reached.
    public var celebrations: Bool
    /// The encouraging message the day after a streak broke.
    public var streakBroken: Bool
    /// The weekly progress of long streaks.
    public var weeklySummary: Bool
    /// The weekday of the weekly progress.
    public var weeklyDay: Weekday
    /// The local hour of the weekly progress (0–23).
    public var weeklyHour: Int
    /// Freeze offers (with their deadline) and freezes used.
    public var freezes: Bool
    /// Friends' reactions and accepted invitations.
    public var social: Bool
    /// Friends' cheers when a streak is at risk.
    public var nudges: Bool
    /// The most nudges taken in one local day (1 to ``maximumNudgesPerDay``).
    public var nudgesPerDay: Int
    /// The hours in which no device is interrupted, or `nil` for none.
    public var quietHours: QuietHours?
    /// The most notifications sent to devices in one local day (1–100), or `nil` for no
    /// cap; the inbox has every one.
    public var dailyCap: Int?
    /// What each device channel carries; a channel not named carries every wanted kind.
    public var channels: [NotificationChannel: ChannelPreference]

    /// The most habits that may have a reminder time of their own.
    public static let maximumReminderTimes = 500

    /// Creates notification preferences.
    public init(
        reminders: Bool = true, reminderHour: Int? = nil, reminderTimes: [String: Int] = [:],
        streakAtRisk: Bool = true, celebrations: Bool = true, streakBroken: Bool = true,
        weeklySummary: Bool = false, weeklyDay: Weekday = .sunday, weeklyHour: Int = 18, freezes: Bool = true,
        quietHours: QuietHours? = nil, dailyCap: Int? = nil, channels: [NotificationChannel: ChannelPreference] = [:],
        social: Bool = true, nudges: Bool = true, nudgesPerDay: Int = 3
    ) {
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
        self.quietHours = quietHours
        self.dailyCap = dailyCap
        self.channels = channels
        self.social = social
        self.nudges = nudges
        self.nudgesPerDay = nudgesPerDay
    }

    /// Everything on except the weekly progress, which a user asks for.
    public static let standard = NotificationPreferences()

    /// Whether the user wants notifications of a kind.
    public func wants(_ kind: NotificationKind) -> Bool {
        switch kind {
        case .streakAtRisk: streakAtRisk
        case .reminder: reminders
        case .milestone: celebrations
        case .streakBroken: streakBroken
        case .weeklyProgress: weeklySummary
        case .freezeOffered, .freezeUsed: freezes
        case .reaction, .friend: social
        case .nudge: nudges
        }
    }

    /// Whether a notification of a kind goes to a channel: the user wants the kind and the
    /// channel carries it. The inbox carries every kind the user wants.
    public func wants(_ kind: NotificationKind, on channel: NotificationChannel) -> Bool {
        guard wants(kind) else { return false }
        guard channel != .inApp, let preference = channels[channel] else { return true }
        return preference.enabled && (preference.kinds?.contains(kind) ?? true)
    }

    /// The highest daily cap.
    public static let maximumDailyCap = 100

    /// The most nudges a person can choose to take in a day.
    public static let maximumNudgesPerDay = 10

    /// What is wrong with these preferences, in a sentence; `nil` when nothing is.
    public var problem: String? {
        if let hour = reminderHour, !(0...23).contains(hour) { return "reminder hour must be 0 to 23, not \(hour)" }
        if !(0...23).contains(weeklyHour) { return "weekly hour must be 0 to 23, not \(weeklyHour)" }
        if reminderTimes.count > Self.maximumReminderTimes {
            return "at most \(Self.maximumReminderTimes) habits may have a reminder time"
        }
        if let problem = quietHours?.problem { return problem }
        if let cap = dailyCap, !(1...Self.maximumDailyCap).contains(cap) {
            return "the daily cap must be 1 to \(Self.maximumDailyCap), not \(cap)"
        }
        if !(1...Self.maximumNudgesPerDay).contains(nudgesPerDay) {
            return "nudges per day must be 1 to \(Self.maximumNudgesPerDay), not \(nudgesPerDay)"
        }
        if channels[.inApp] != nil { return "the inbox has every notification: it is not a channel to set" }
        for (habit, minute) in reminderTimes.sorted(by: { $0.key < $1.key }) {
            if habit.isEmpty || habit.utf8.count > 128 { return "a reminder time's habit id is 1…128 bytes" }
            if !(0..<1440).contains(minute) { return "the reminder time of '\(habit)' is not a time of day" }
        }
        return nil
    }

    /// A time of day as `HH:MM`, from minutes after midnight.
    public static func clock(_ minute: Int) -> String {
        let hour = minute / 60
        let rest = minute % 60
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (rest < 10 ? "0" : "") + String(rest)
    }

    /// Minutes after midnight from a time of day written `HH:MM` (00:00–23:59); `nil` for
    /// anything else.
    public static func minute(of clock: String) -> Int? {
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { ("0"..."9").contains($0) } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    private enum CodingKeys: String, CodingKey {
        case reminders, reminderHour, reminderTimes, streakAtRisk, celebrations, streakBroken, weeklySummary
        case weeklyDay, weeklyHour, freezes, quietHours, dailyCap, channels, social, nudges, nudgesPerDay
    }

    /// Decodes preferences; absent fields take the standard values, and reminder times are
    /// read as `HH:MM`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let standard = Self.standard
        reminders = try c.decodeIfPresent(Bool.self, forKey: .reminders) ?? standard.reminders
        reminderHour = try c.decodeIfPresent(Int.self, forKey: .reminderHour)
        var times: [String: Int] = [:]
        for (habit, clock) in try c.decodeIfPresent([String: String].self, forKey: .reminderTimes) ?? [:] {
            guard let minute = Self.minute(of: clock) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .reminderTimes, in: c,
                    debugDescription: "the reminder time of '\(habit)' must be HH:MM (00:00 to 23:59), not '\(clock)'")
            }
            times[habit] = minute
        }
        reminderTimes = times
        streakAtRisk = try c.decodeIfPresent(Bool.self, forKey: .streakAtRisk) ?? standard.streakAtRisk
        celebrations = try c.decodeIfPresent(Bool.self, forKey: .celebrations) ?? standard.celebrations
        streakBroken = try c.decodeIfPresent(Bool.self, forKey: .streakBroken) ?? standard.streakBroken
        weeklySummary = try c.decodeIfPresent(Bool.self, forKey: .weeklySummary) ?? standard.weeklySummary
        weeklyDay = try c.decodeIfPresent(Weekday.self, forKey: .weeklyDay) ?? standard.weeklyDay
        weeklyHour = try c.decodeIfPresent(Int.self, forKey: .weeklyHour) ?? standard.weeklyHour
        freezes = try c.decodeIfPresent(Bool.self, forKey: .freezes) ?? standard.freezes
        quietHours = try c.decodeIfPresent(QuietHours.self, forKey: .quietHours)
        dailyCap = try c.decodeIfPresent(Int.self, forKey: .dailyCap)
        var channels: [NotificationChannel: ChannelPreference] = [:]
        for (name, preference) in try c.decodeIfPresent([String: ChannelPreference].self, forKey: .channels) ?? [:] {
            guard let channel = NotificationChannel(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .channels, in: c,
                    debugDescription: "'\(name)' is not a channel: webPush, apns, fcm or webhook")
            }
            channels[channel] = preference
        }
        self.channels = channels
        social = try c.decodeIfPresent(Bool.self, forKey: .social) ?? standard.social
        nudges = try c.decodeIfPresent(Bool.self, forKey: .nudges) ?? standard.nudges
        nudgesPerDay = try c.decodeIfPresent(Int.self, forKey: .nudgesPerDay) ?? standard.nudgesPerDay
    }

    /// Encodes the preferences, reminder times as `HH:MM`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(reminders, forKey: .reminders)
        try c.encodeIfPresent(reminderHour, forKey: .reminderHour)
        try c.encode(reminderTimes.mapValues(Self.clock), forKey: .reminderTimes)
        try c.encode(streakAtRisk, forKey: .streakAtRisk)
        try c.encode(celebrations, forKey: .celebrations)
        try c.encode(streakBroken, forKey: .streakBroken)
        try c.encode(weeklySummary, forKey: .weeklySummary)
        try c.encode(weeklyDay, forKey: .weeklyDay)
        try c.encode(weeklyHour, forKey: .weeklyHour)
        try c.encode(freezes, forKey: .freezes)
        try c.encodeIfPresent(quietHours, forKey: .quietHours)
        try c.encodeIfPresent(dailyCap, forKey: .dailyCap)
        try c.encode(
            Dictionary(uniqueKeysWithValues: channels.map { ($0.key.rawValue, $0.value) }), forKey: .channels)
        try c.encode(social, forKey: .social)
        try c.encode(nudges, forKey: .nudges)
        try c.encode(nudgesPerDay, forKey: .nudgesPerDay)
    }
}
