import Foundation

/// One habit's day-by-day history, the input of every analytic.
///
/// ``UserEngine/analytics(at:zone:translation:)`` builds series straight from the engine's compact
/// history; ``init(_:today:zone:)`` builds one from a ``HabitState`` whose calendar holds the
/// habit's whole history (a shorter calendar limits every analytic to its window).
public struct HabitSeries: Hashable, Sendable {
    /// The habit's definition.
    public var definition: HabitDefinition
    /// The habit's first day (anchors every-N-days blocks).
    public var startDay: LocalDay
    /// The first day of ``states``: ``startDay``, or later when the history is a window.
    public var firstDay: LocalDay
    /// The user's current local day.
    public var today: LocalDay
    /// The state of each day from ``firstDay``; the last element is today while the habit is
    /// active, or the day before it was archived.
    public var states: [DayState]
    /// The streak value after each day of ``states``.
    public var streaks: [Int]
    /// The amount logged on each day of ``states`` (1 per check-in for check targets).
    public var totals: [Double]
    /// Local minutes after midnight of the latest completions (at most the last 60), oldest
    /// first; used to suggest a reminder time.
    public var completionMinutes: [Int]
    /// The current streak.
    public var current: Int
    /// The best streak ever.
    public var best: Int
    /// How many times the streak fell to 0 from a positive value.
    public var breaks: Int
    /// The schedules the habit followed, each from the day it came into force (one, the
    /// definition's, unless the schedule changed): each day is judged by its own.
    public var schedules: [ScheduleSegment]

    /// Creates a series.
    public init(
        definition: HabitDefinition, startDay: LocalDay, firstDay: LocalDay, today: LocalDay, states: [DayState],
        streaks: [Int],
        totals: [Double], completionMinutes: [Int] = [], current: Int, best: Int, breaks: Int,
        schedules: [ScheduleSegment]? = nil
    ) {
        precondition(states.count == streaks.count && states.count == totals.count, "series arrays differ in length")
        self.definition = definition
        self.startDay = startDay
        self.firstDay = firstDay
        self.today = today
        self.states = states
        self.streaks = streaks
        self.totals = totals
        self.completionMinutes = completionMinutes
        self.current = current
        self.best = best
        self.breaks = breaks
        self.schedules = schedules ?? [ScheduleSegment(from: startDay, schedule: definition.schedule)]
    }

    /// The schedules as ranges of day numbers from ``firstDay`` through today (or the last
    /// day of ``states``): each segment with its first and last day, in order.
    var scheduleRanges: [(first: Int, last: Int, segment: ScheduleSegment)] {
        let first = firstDay.number
        let last = first + states.count - 1
        var ranges: [(first: Int, last: Int, segment: ScheduleSegment)] = []
        for (index, segment) in schedules.enumerated() {
            let start = max(first, segment.from.number)
            let end = min(last, index + 1 < schedules.count ? schedules[index + 1].from.number - 1 : last)
            if start <= end { ranges.append((start, end, segment)) }
        }
        return ranges
    }

    /// Builds a series from a habit's state.
    ///
    /// - Parameters:
    ///   - state: The habit, ideally evaluated with its whole calendar (`calendarDays: nil`).
    ///   - today: The user's current day (``UserState/today``).
    ///   - zone: The user's zone, for the local time of completions.
    public init(_ state: HabitState, today: LocalDay, zone: String) {
        let table = ZoneOffsetTable.named(zone) ?? ZoneOffsetTable.named("UTC")!
        var minutes: [Int] = []
        for day in state.calendar.suffix(60) {
            for completion in day.completions {
                let seconds = Int64(completion.at.timeIntervalSince1970.rounded(.down))
                let local = seconds + Int64(table.offset(atSecond: seconds))
                minutes.append(Int(((local % 86_400) + 86_400) % 86_400 / 60))
            }
        }
        self.init(
            definition: state.definition, startDay: state.startDay,
            firstDay: state.calendar.first?.day ?? state.startDay, today: today,
            states: state.calendar.map(\.state), streaks: state.calendar.map(\.streak),
            totals: state.calendar.map { $0.completions.reduce(0) { $0 + $1.value } },
            completionMinutes: Array(minutes.suffix(60)), current: state.current, best: state.best,
            breaks: state.breaks)
    }

    /// The last day of ``states``.
    public var lastDay: LocalDay { firstDay.advanced(by: states.count - 1) }

    /// The state of a day, or `nil` outside the series.
    public func state(on day: LocalDay) -> DayState? {
        let index = firstDay.distance(to: day)
        return states.indices.contains(index) ? states[index] : nil
    }

    /// The completion rate over a range of days; a unit is a due day, or a quota period judged on its last day (see ``CompletionRate``).
    ///
    /// - Parameters:
    ///   - first: The range's first day.
    ///   - last: The range's last day.
    public func completionRate(from first: LocalDay, to last: LocalDay) -> CompletionRate {
        Opportunities(self).rate(from: first.number, to: last.number)
    }
}

/// A completion rate: how much of what was due got done.
///
/// What counts as a unit:
/// - Day schedules (daily, weekdays, monthly, yearly): every day the schedule was due whose
///   state is `completed`, `missed`, `grace` or `frozen` is one unit, done when completed.
///   Rest days, travel-skipped dates, unscheduled days and days before the habit started
///   are not units. Today counts only once it is completed: an open day is never held
///   against the user. A completion on an unscheduled day is not a unit (it still counts
///   in the total of days completed).
/// - Quotas (N per week or month, every N days): each period is judged on its last day, with
///   as many units as it required (the quota, fewer when rest days left too few days) and
///   done units equal to its completed days, capped at the quota. The running period counts
///   only once fulfilled, on today.
public struct CompletionRate: Hashable, Sendable, Codable {
    /// Units done (days for day schedules; completed days, capped at the quota, for quotas).
    public var done: Int
    /// Units due.
    public var due: Int

    /// Creates a rate.
    public init(done: Int, due: Int) {
        self.done = done
        self.due = due
    }

    /// `done / due`, or `nil` when nothing was due.
    public var rate: Double? { due > 0 ? Double(done) / Double(due) : nil }

    /// The rate as a whole percentage, or `nil` when nothing was due.
    public var percent: Int? { rate.map { Int(($0 * 100).rounded()) } }

    private enum CodingKeys: String, CodingKey { case done, due, rate, percent }

    /// Decodes the value from its JSON form (`done` and `due`; the rest is derived).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(done: try c.decode(Int.self, forKey: .done), due: try c.decode(Int.self, forKey: .due))
    }

    /// Encodes `done`, `due`, `rate` and `percent`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(done, forKey: .done)
        try c.encode(due, forKey: .due)
        try c.encodeIfPresent(rate, forKey: .rate)
        try c.encodeIfPresent(percent, forKey: .percent)
    }
}

/// `Schedule.isDue(on:)` without touching the schedule's payload in a loop.
struct DueCheck {
    private let always: Bool
    private let mask: UInt8
    private let schedule: Schedule?

    init(_ schedule: Schedule) {
        switch schedule {
        case .daily, .timesPerWeek, .timesPerMonth, .everyNDays:
            always = true
            mask = 0
            self.schedule = nil
        case .weekdays(let days):
            always = false
            mask = days.reduce(0) { $0 | UInt8(1 << $1.rawValue) }
            self.schedule = nil
        case .monthly, .yearly:
            always = false
            mask = 0
            self.schedule = schedule
        }
    }

    /// Whether the schedule is due on a day whose ISO weekday (1…7) is `weekday`.
    @inline(__always)
    func isDue(_ day: Int, weekday: Int) -> Bool {
        if always { return true }
        if let schedule { return schedule.isDue(on: LocalDay(number: day)) }
        return mask & UInt8(1 << weekday) != 0
    }
}

/// The ISO weekday (1 = Monday … 7 = Sunday) of a day number.
@inline(__always)
func isoWeekday(_ day: Int) -> Int { ((day + 3) % 7 + 7) % 7 + 1 }

/// The units a habit was due, each judged on one day: what completion rates count.
///
/// - Day schedules (daily, weekdays, monthly, yearly): every day the schedule was due whose
///   state is `completed`, `missed`, `grace` or `frozen` is one unit, done when completed.
///   Rest days, travel-skipped dates, unscheduled days and days before the habit started
///   are not units. Today counts only once it is completed: an open day is never held
///   against the user. A completion on an unscheduled day is not a unit (it still counts
///   in the total of days completed).
/// - Quotas (N per week or month, every N days): each period is judged on its last day, with
///   as many units as it required (the quota, fewer when rest days left too few days) and
///   done units equal to its completed days, capped at the quota. The running period counts
///   only once fulfilled, on today.
struct Opportunities {
    /// The day each unit was judged on, ascending.
    var days: [Int] = []
    /// Units due, per judged day.
    var due: [Int] = []
    /// Units done, per judged day.
    var done: [Int] = []
    /// Prefix sums of `due` and `done` (one longer than `days`).
    var dueSums: [Int] = [0]
    var doneSums: [Int] = [0]

    init(_ series: HabitSeries) {
        let first = series.firstDay.number
        let count = series.states.count
        let capacity = series.definition.schedule.hasMultiDayPeriods ? count / 7 + 2 : count
        days.reserveCapacity(capacity)
        due.reserveCapacity(capacity)
        done.reserveCapacity(capacity)
        dueSums.reserveCapacity(capacity + 1)
        doneSums.reserveCapacity(capacity + 1)
        // Each schedule judges its own days (a period under way at a change is judged on the
        // days it had before it, as the engine does).
        for range in series.scheduleRanges {
            add(series, range.segment, from: range.first - first, through: range.last - first)
        }
    }

    private mutating func add(_ series: HabitSeries, _ segment: ScheduleSegment, from low: Int, through high: Int) {
        let first = series.firstDay.number
        let today = series.today.number
        let schedule = segment.schedule
        if schedule.hasMultiDayPeriods {
            let quota = schedule.quota
            let segmentStart = first + low
            // Every-N-days blocks count from the habit's first day, or from the change.
            let anchor = segment.from
            var period = schedule.period(
                containing: LocalDay(number: segmentStart), anchor: anchor, weekStart: series.definition.weekStart)
            var completed = 0
            var skipped = 0
            // Periods that end before the first completion have not started counting.
            var started = series.states[..<low].contains(.completed)
            func required(_ range: ClosedRange<LocalDay>, end: Int) -> Int {
                min(quota, end - max(range.lowerBound.number, segmentStart) + 1 - skipped)
            }
            for index in low...high {
                let day = first + index
                let state = series.states[index]
                if state == .completed {
                    completed += 1
                    started = true
                } else if state.isRest {
                    skipped += 1
                }
                let end = min(period.upperBound.number, first + high)
                if day == end || index == high {
                    let need = required(period, end: end)
                    if need > 0, started, day == end && day < today || day == today && completed >= need {
                        append(day, due: need, done: min(completed, need))
                    }
                    if day == end {
                        period = schedule.period(
                            containing: LocalDay(number: day + 1), anchor: anchor,
                            weekStart: series.definition.weekStart)
                        completed = 0
                        skipped = 0
                    }
                }
            }
        } else {
            let due = DueCheck(schedule)
            var weekday = isoWeekday(first + low)
            for index in low...high {
                let day = first + index
                let state = series.states[index]
                let counted: Bool
                switch state {
                case .completed: counted = true
                case .missed, .grace, .frozen: counted = day < today
                default: counted = false
                }
                let thisWeekday = weekday
                weekday = weekday == 7 ? 1 : weekday + 1
                guard counted, due.isDue(day, weekday: thisWeekday) else { continue }
                append(day, due: 1, done: state == .completed ? 1 : 0)
            }
        }
    }

    private mutating func append(_ day: Int, due units: Int, done achieved: Int) {
        days.append(day)
        due.append(units)
        done.append(achieved)
        dueSums.append(dueSums[dueSums.count - 1] + units)
        doneSums.append(doneSums[doneSums.count - 1] + achieved)
    }

    /// The index of the first unit judged on or after `day`.
    func lowerBound(_ day: Int) -> Int {
        var low = 0
        var high = days.count
        while low < high {
            let mid = (low + high) / 2
            if days[mid] < day { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The rate over the units judged from `first` to `last`, inclusive.
    func rate(from first: Int, to last: Int) -> CompletionRate {
        guard first <= last else { return CompletionRate(done: 0, due: 0) }
        let a = lowerBound(first)
        let b = lowerBound(last + 1)
        return CompletionRate(done: doneSums[b] - doneSums[a], due: dueSums[b] - dueSums[a])
    }
}
