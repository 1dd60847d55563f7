/// When a habit is due.
///
/// A streak counts consecutive successful *periods*. For `daily`, `weekdays`, `monthly` and
/// `yearly` each due day is its own period and the other days are not due. For
/// `timesPerWeek` and `timesPerMonth` the period is the calendar week or month, and it
/// succeeds once the habit was completed on `count` different days in it. For `everyNDays`
/// the periods are consecutive blocks of `interval` days starting on the habit's first day,
/// each needing one completion.
///
/// A schedule can change from a day on (`habit.updated` with `schedule`): the days before
/// keep the old rule, the change day and after follow the new one, and the streak carries
/// over as it stands — it goes on counting successful periods, each judged by the schedule
/// in force when it began. A weekly or monthly quota (or an N-day block) under way at the
/// change is judged on the days it had before the change, its quota capped at those days;
/// the new schedule's first period starts on the change day (a week or month counts only
/// its days from then on).
///
/// JSON: `{"kind": "daily"}`, `{"kind": "weekdays", "days": ["monday", "thursday"]}`,
/// `{"kind": "timesPerWeek", "count": 3}`, `{"kind": "timesPerMonth", "count": 10}`,
/// `{"kind": "everyNDays", "interval": 3}`, `{"kind": "monthly", "day": 15}`,
/// `{"kind": "yearly", "month": 3, "day": 14}`.
public enum Schedule: Hashable, Sendable {
    /// Every day.
    case daily
    /// On the chosen days of the week.
    case weekdays(Set<Weekday>)
    /// On `count` different days of each calendar week (1–7).
    case timesPerWeek(Int)
    /// On `count` different days of each calendar month (1–31).
    case timesPerMonth(Int)
    /// Once in every block of `interval` days (1–366), counted from the habit's first day.
    case everyNDays(Int)
    /// On one day of every month (1–31); in shorter months, on the month's last day.
    case monthly(day: Int)
    /// On one day of every year; February 29 falls on February 28 in common years.
    case yearly(month: Int, day: Int)

    /// Whether a period spans several days (weekly, monthly quotas and every-N-days blocks).
    public var hasMultiDayPeriods: Bool {
        switch self {
        case .timesPerWeek, .timesPerMonth, .everyNDays: true
        default: false
        }
    }

    /// How many completed days a full period needs.
    public var quota: Int {
        switch self {
        case .timesPerWeek(let n), .timesPerMonth(let n): n
        default: 1
        }
    }

    /// Checks the schedule's numbers, returning the reason it is invalid, if it is.
    public var validationFailure: String? {
        switch self {
        case .daily: nil
        case .weekdays(let days): days.isEmpty ? "weekdays needs at least one day" : nil
        case .timesPerWeek(let n): (1...7).contains(n) ? nil : "timesPerWeek count must be 1…7, not \(n)"
        case .timesPerMonth(let n): (1...31).contains(n) ? nil : "timesPerMonth count must be 1…31, not \(n)"
        case .everyNDays(let n): (1...366).contains(n) ? nil : "everyNDays interval must be 1…366, not \(n)"
        case .monthly(let d): (1...31).contains(d) ? nil : "monthly day must be 1…31, not \(d)"
        case .yearly(let m, let d):
            (1...12).contains(m) && (1...LocalDay.daysIn(month: m, year: 2000)).contains(d)
                ? nil : "yearly month/day \(m)/\(d) is not a date"
        }
    }

    /// Whether a single-day schedule is due on a day. Multi-day schedules are "due" on
    /// every day of their periods.
    ///
    /// - Parameter day: The local day.
    public func isDue(on day: LocalDay) -> Bool {
        switch self {
        case .daily, .timesPerWeek, .timesPerMonth, .everyNDays: return true
        case .weekdays(let days): return days.contains(day.weekday)
        case .monthly(let dom):
            let (y, m, d) = day.civil
            return d == min(dom, LocalDay.daysIn(month: m, year: y))
        case .yearly(let month, let dom):
            let (y, m, d) = day.civil
            return m == month && d == min(dom, LocalDay.daysIn(month: m, year: y))
        }
    }

    /// The period containing a day.
    ///
    /// - Parameters:
    ///   - day: Any day on or after `anchor`.
    ///   - anchor: The habit's first day (anchors `everyNDays` blocks).
    ///   - weekStart: The first day of a calendar week.
    /// - Returns: The first and last day of the period; a single day for single-day schedules.
    public func period(containing day: LocalDay, anchor: LocalDay, weekStart: Weekday) -> ClosedRange<LocalDay> {
        switch self {
        case .timesPerWeek:
            let back = (day.weekday.rawValue - weekStart.rawValue + 7) % 7
            let start = day.advanced(by: -back)
            return start...start.advanced(by: 6)
        case .timesPerMonth:
            let (y, m, d) = day.civil
            let start = day.advanced(by: -(d - 1))
            return start...start.advanced(by: LocalDay.daysIn(month: m, year: y) - 1)
        case .everyNDays(let n):
            let offset = anchor.distance(to: day)
            let blocks = offset >= 0 ? offset / n : (offset - n + 1) / n
            let start = anchor.advanced(by: blocks * n)
            return start...start.advanced(by: n - 1)
        default:
            return day...day
        }
    }
}

extension Schedule: Codable {
    private enum CodingKeys: String, CodingKey { case kind, days, count, interval, day, month }

    /// Decodes the value from its JSON form, described in the type's documentation.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "daily": self = .daily
        case "weekdays": self = .weekdays(try c.decode(Set<Weekday>.self, forKey: .days))
        case "timesPerWeek": self = .timesPerWeek(try c.decode(Int.self, forKey: .count))
        case "timesPerMonth": self = .timesPerMonth(try c.decode(Int.self, forKey: .count))
        case "everyNDays": self = .everyNDays(try c.decode(Int.self, forKey: .interval))
        case "monthly": self = .monthly(day: try c.decode(Int.self, forKey: .day))
        case "yearly":
            self = .yearly(month: try c.decode(Int.self, forKey: .month), day: try c.decode(Int.self, forKey: .day))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription:
                    "unknown schedule kind '\(kind)' (daily, weekdays, timesPerWeek, timesPerMonth, everyNDays, monthly, yearly)"
            )
        }
        let fields: [CodingKeys] =
            switch self {
            case .daily: []
            case .weekdays: [.days]
            case .timesPerWeek, .timesPerMonth: [.count]
            case .everyNDays: [.interval]
            case .monthly: [.day]
            case .yearly: [.month, .day]
            }
        try UnknownFields.refuse(in: decoder, known: ([.kind] + fields).map(\.rawValue))
        if let failure = validationFailure {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: failure)
        }
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .daily: try c.encode("daily", forKey: .kind)
        case .weekdays(let days):
            try c.encode("weekdays", forKey: .kind)
            try c.encode(days.sorted(), forKey: .days)
        case .timesPerWeek(let n):
            try c.encode("timesPerWeek", forKey: .kind)
            try c.encode(n, forKey: .count)
        case .timesPerMonth(let n):
            try c.encode("timesPerMonth", forKey: .kind)
            try c.encode(n, forKey: .count)
        case .everyNDays(let n):
            try c.encode("everyNDays", forKey: .kind)
            try c.encode(n, forKey: .interval)
        case .monthly(let d):
            try c.encode("monthly", forKey: .kind)
            try c.encode(d, forKey: .day)
        case .yearly(let m, let d):
            try c.encode("yearly", forKey: .kind)
            try c.encode(m, forKey: .month)
            try c.encode(d, forKey: .day)
        }
    }
}

/// A schedule and the day it came into force (a habit's first day, or a change).
public struct ScheduleSegment: Hashable, Sendable, Codable {
    /// The first day the schedule held.
    public var from: LocalDay
    /// The schedule.
    public var schedule: Schedule

    /// Creates a segment.
    public init(from: LocalDay, schedule: Schedule) {
        self.from = from
        self.schedule = schedule
    }
}
