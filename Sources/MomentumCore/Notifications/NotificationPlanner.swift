import Foundation

/// Which notifications are due for one user, and when to look again (seed 004 R11).
///
/// Pure and deterministic: the user's situation, zone, day-start hour, preferences and the
/// instants are parameters. A scheduler calls ``run(_:after:now:)`` when the user's wake
/// time comes (or after the user's log, zone or preferences changed): it gets each
/// notification whose time fell in `(after, now]` and still makes sense, those that no
/// longer do (found after they expired, for instance after a downtime), and the next
/// instant anything may be due.
///
/// Times are the user's: the at-risk warning goes two real hours before the day ends (the
/// next day's start at the day-start hour, in the zone), so also on a day that daylight
/// saving makes 23 or 25 hours long; a reminder at 02:30 on the night the clocks skip that
/// hour goes at 03:30, unless that is past the end of its day (see ``wallClock(_:minute:)``).
public struct NotificationPlanner: Sendable {
    /// What the user wants.
    public var preferences: NotificationPreferences
    /// The user's zone.
    public var zone: ZoneOffsetTable
    /// The local hour at which the user's day begins.
    public var dayStartHour: Int
    /// The language of the titles and bodies (`notification.*` texts); English by default.
    public var translation: Translation

    /// The at-risk warning goes this long before the day ends.
    public static let atRiskLead: TimeInterval = 2 * 3600
    /// A run looks back at most this many days; anything older is forgotten, not counted.
    public static let lookBackDays = 7

    /// Creates a planner.
    ///
    /// - Parameters:
    ///   - preferences: What the user wants.
    ///   - zone: The user's zone.
    ///   - dayStartHour: The local hour at which the user's day begins, bounded to 0–23.
    ///   - translation: The language of the notifications; English by default.
    public init(
        preferences: NotificationPreferences, zone: ZoneOffsetTable, dayStartHour: Int,
        translation: Translation = .english
    ) {
        self.preferences = preferences
        self.zone = zone
        self.dayStartHour = min(max(dayStartHour, 0), 23)
        self.translation = translation
    }

    /// One habit as the planner sees it.
    public struct Habit: Hashable, Sendable {
        /// The habit's id.
        public var id: String
        /// Its name.
        public var name: String
        /// The unit its streak counts (`day`, `week`, `month`).
        public var unit: String
        /// The current streak.
        public var current: Int
        /// The best streak ever.
        public var best: Int
        /// Due today and not done yet.
        public var open: Bool
        /// Open, with a streak that ends if today stays undone (for a weekly or monthly
        /// quota: on the period's last day, with the quota not met).
        public var atRisk: Bool
        /// The state of each recent day (about the last week).
        public var days: [LocalDay: DayState]
        /// Coaching after a recent break, if any.
        public var recovery: RecoveryCoaching?
        /// The reminder time the coaching suggests, in minutes after local midnight.
        public var suggestedMinute: Int

        /// Creates a habit.
        public init(
            id: String, name: String, unit: String = "day", current: Int, best: Int, open: Bool, atRisk: Bool,
            days: [LocalDay: DayState] = [:], recovery: RecoveryCoaching? = nil, suggestedMinute: Int = 9 * 60
        ) {
            self.id = id
            self.name = name
            self.unit = unit
            self.current = current
            self.best = best
            self.open = open
            self.atRisk = atRisk
            self.days = days
            self.recovery = recovery
            self.suggestedMinute = suggestedMinute
        }
    }

    /// The user's situation now: their local day, active habits and open freeze offers.
    public struct Situation: Hashable, Sendable {
        /// The user's local day now.
        public var today: LocalDay
        /// The active habits.
        public var habits: [Habit]
        /// Missed days a freeze can still cover.
        public var offers: [OpenFreezeOffer]

        /// Creates a situation.
        public init(today: LocalDay, habits: [Habit], offers: [OpenFreezeOffer] = []) {
            self.today = today
            self.habits = habits
            self.offers = offers
        }

        /// The situation from the engine: the state now and each habit's series
        /// (``UserEngine/series(at:zone:)``), for its recent days, coaching and check-in times.
        ///
        /// - Parameters:
        ///   - state: The engine's state now.
        ///   - series: Each habit's series.
        ///   - translation: The language of the recovery coaching the streak-broken
        ///     notification quotes; English by default (use the planner's).
        public init(state: UserState, series: [HabitSeries], translation: Translation = .english) {
            let byID = Dictionary(series.map { ($0.definition.id, $0) }, uniquingKeysWith: { first, _ in first })
            today = state.today
            offers = state.freezeOffers
            habits = state.habits.compactMap { habit -> Habit? in
                guard habit.archivedDay == nil else { return nil }
                let id = habit.definition.id
                let line = byID[id]
                var days: [LocalDay: DayState] = [:]
                if let line {
                    let count = line.states.count
                    for index in max(0, count - 9)..<count {
                        days[LocalDay(number: line.firstDay.number + index)] = line.states[index]
                    }
                }
                let open = habit.today.due && habit.today.state == .pending
                let periodEnds = habit.today.period.map { $0.end == state.today && !$0.fulfilled } ?? true
                return Habit(
                    id: id, name: habit.definition.name, unit: habit.streakUnit, current: habit.current,
                    best: habit.best, open: open, atRisk: open && habit.current > 0 && periodEnds, days: days,
                    recovery: line.flatMap { Coaching.recovery($0, translation: translation) },
                    suggestedMinute: NotificationPreferences.minute(
                        of: Coaching.reminderTime(line?.completionMinutes ?? [])) ?? 9 * 60)
            }
        }
    }

    /// What a run found.
    public struct Run: Hashable, Sendable {
        /// Notifications to deliver now, oldest first.
        public var due: [PlannedNotification]
        /// Notifications whose time passed while nothing looked and that no longer make sense.
        public var dropped: [PlannedNotification]
        /// When to look again: the earliest instant after `now` anything may be due; `nil`
        /// when nothing ever will be until the user's log or preferences change.
        public var nextWake: Date?
    }

    /// The notifications due in `(after, now]`, those dropped, and the next wake.
    ///
    /// - Parameters:
    ///   - situation: The user's situation at `now`.
    ///   - after: The end of the previous run (at most ``lookBackDays`` are looked at).
    ///   - now: The current instant.
    public func run(_ situation: Situation, after: Date, now: Date) -> Run {
        let clock = DayClock(dayStartHour: dayStartHour)
        let today = situation.today
        let earliest = max(after, now.addingTimeInterval(-Double(Self.lookBackDays) * 86_400))
        let firstDay = clock.localDay(of: earliest, in: zone)
        var due: [PlannedNotification] = []
        var dropped: [PlannedNotification] = []
        var next: Date?
        func consider(at: Date, holds: Bool, _ make: () -> PlannedNotification) {
            if at > now {
                next = min(next ?? at, at)
            } else if at > earliest, holds {
                let candidate = make()
                if now < candidate.expires { due.append(candidate) } else { dropped.append(candidate) }
            }
        }
        if !situation.habits.isEmpty {
            var day = firstDay
            while day <= today.advanced(by: 1) {
                for candidate in candidates(on: day, situation) {
                    consider(at: candidate.at, holds: candidate.holds, candidate.make)
                }
                day = day.advanced(by: 1)
            }
            // A day's close can bring a break, a freeze used or offered: look then.
            let close = seconds(clock.start(of: today.advanced(by: 1), in: zone))
            if close > now { next = min(next ?? close, close) }
        }
        if preferences.freezes {
            for offer in situation.offers {
                let notification = freezeOffered(offer, situation)
                consider(at: notification.at, holds: true) { notification }
            }
        }
        return Run(
            due: due.sorted { ($0.at, $0.key) < ($1.at, $1.key) },
            dropped: dropped.sorted { ($0.at, $0.key) < ($1.at, $1.key) }, nextWake: next)
    }

    /// The notification of a milestone reached, to go at once: its title and celebration
    /// message; a retroactive one (found in history sent later) says when it was reached.
    public func milestone(_ unlock: Unlock, title: String, message: String, now: Date) -> PlannedNotification {
        let body =
            unlock.retroactive
            ? translation.text(
                NotificationText.milestoneRetroactive,
                ["message": message, "day": translation.readable(unlock.achievedDay)])
            : message
        return PlannedNotification(
            key: "milestone:\(unlock.id)", kind: .milestone, title: title, body: body,
            url: unlock.habit.map { "/habits/\(Self.pathComponent($0))" } ?? "/journey", day: unlock.achievedDay,
            habit: unlock.habit, at: now, expires: now.addingTimeInterval(7 * 86_400))
    }

    // MARK: Time

    /// The instant a local wall-clock time of a user's day happens, always within that day.
    ///
    /// The user's day begins at the day-start hour, so a time before that hour is on the
    /// next calendar date (a 01:00 reminder of a day that starts at 04:00 comes in its last
    /// hours). A time that happens twice is the first. A time the clocks skip is moved
    /// forward by the gap (02:30 goes at 03:30), unless that would carry it to or past the
    /// day's end, which happens when the day ends inside the gap: then it is moved back by
    /// the gap. With a 02:00 day start in London, 01:30 on the night the clocks skip from
    /// 01:00 to 02:00 goes at 00:30 GMT, half an hour before the day ends, as on any night.
    /// Only on a date the zone skipped entirely by crossing the date line is there no such
    /// instant; the day's start, which is also its end, is returned.
    ///
    /// - Parameters:
    ///   - day: The user's local day.
    ///   - minute: Minutes after local midnight, bounded to 0–1439.
    /// - Returns: The instant, within `day` for this user.
    public func wallClock(_ day: LocalDay, minute: Int) -> Date {
        let clock = DayClock(dayStartHour: dayStartHour)
        return seconds(
            wallClock(
                day, minute: minute, start: clock.start(of: day, in: zone),
                end: clock.start(of: day.advanced(by: 1), in: zone)))
    }

    /// ``wallClock(_:minute:)`` for a day whose start and end (seconds since 1970) are known.
    func wallClock(_ day: LocalDay, minute: Int, start: Int64, end: Int64) -> Int64 {
        let minute = min(max(minute, 0), 1439)
        let date = minute < dayStartHour * 60 ? day.advanced(by: 1) : day
        let local = Int64(date.number) * 86_400 + Int64(minute) * 60
        let (earlier, later) = zone.instants(reading: local)
        // A time that exists is read within its day; only a skipped one can leave it.
        return later < end ? later : max(earlier, start)
    }

    func seconds(_ value: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(value)) }

    /// The first minute of a local hour, the hour bounded to 0–23 (preferences are checked
    /// where they are saved; a planner made from unchecked ones must not overflow).
    static func minute(ofHour hour: Int) -> Int { min(max(hour, 0), 23) * 60 }

    /// How long a streak must be to earn the weekly progress: a week of days, a month of
    /// weeks, a quarter of months.
    static func longStreak(_ unit: String) -> Int {
        switch unit {
        case "week": 4
        case "month": 3
        default: 7
        }
    }

    /// A habit id as one path segment of a URL.
    static func pathComponent(_ id: String) -> String {
        // Most ids are plain ASCII words: nothing to escape, and no character set to build.
        if id.utf8.allSatisfy({
            ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95
        }) {
            return id
        }
        return id.addingPercentEncoding(withAllowedCharacters: pathAllowed) ?? id
    }

    /// What a path segment may hold unescaped.
    private static let pathAllowed = CharacterSet.urlPathAllowed.subtracting(["/"])
}
