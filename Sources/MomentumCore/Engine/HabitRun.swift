/// One habit's running state inside the sweep. Plain data only: checkpoints copy it with
/// a memory copy. The habit's definition lives beside it in `RunState.definitions`.
struct HabitRun: Sendable {
    enum Due: UInt8, Sendable { case always, weekdays, monthly, yearly, week, month, blocks }

    let startDay: Int
    var archivedDay = Int.max
    /// The first day of the schedule in force: the start day, or the day of the latest
    /// schedule change (anchors every-N-days blocks; a period counts its days from here).
    var anchor: Int
    var due: Due
    /// Weekday bit mask (bit n for ISO weekday n), week start, day of month, month, or interval.
    var dueMask: UInt8
    var weekStart: Int
    var dueDay: Int
    var dueMonth: Int
    var interval: Int
    var quota: Int

    var comparison: Target.Comparison
    var amount: Double
    var grace: Int
    var resets: Bool
    var decrement: Int
    var freezeUse: StreakPolicy.FreezeUse

    var current = 0
    var best = 0
    var highest = 0
    /// Consecutive missed periods in the current gap (for grace).
    var gap = 0
    /// How many times the streak fell from a positive value to 0.
    var breaks = 0

    var periodStart = 0
    var periodEnd = 0
    var periodLength = 0
    var periodDone = 0
    var periodSkipped = 0
    var periodSucceeded = false

    var dayTotal = 0.0
    var dayLogged = false
    var dayCompleted = false
    var daySkipped = false

    init(definition: HabitDefinition, policy: StreakPolicy, startDay: Int) {
        self.startDay = startDay
        anchor = startDay
        (due, dueMask, dueDay, dueMonth, interval) = Self.due(of: definition.schedule)
        weekStart = definition.weekStart.rawValue
        quota = definition.schedule.quota
        comparison = definition.target.comparison
        amount = definition.target.amount
        grace = 0
        resets = true
        decrement = 0
        freezeUse = .never
        apply(policy)
        if multiDay { startPeriod(containing: startDay) }
    }

    /// A schedule's due rule in the run's plain fields.
    static func due(of schedule: Schedule) -> (Due, mask: UInt8, day: Int, month: Int, interval: Int) {
        switch schedule {
        case .daily: (.always, 0, 0, 0, 1)
        case .weekdays(let days): (.weekdays, days.reduce(0) { $0 | UInt8(1 << $1.rawValue) }, 0, 0, 1)
        case .monthly(let day): (.monthly, 0, day, 0, 1)
        case .yearly(let month, let day): (.yearly, 0, day, month, 1)
        case .timesPerWeek: (.week, 0, 0, 0, 1)
        case .timesPerMonth: (.month, 0, 0, 0, 1)
        case .everyNDays(let n): (.blocks, 0, 0, 0, n)
        }
    }

    /// Follows a new schedule from the start of `day` (the old one's period, if any, was
    /// judged by the caller): its first period starts on `day`.
    mutating func reschedule(_ schedule: Schedule, from day: Int) {
        (due, dueMask, dueDay, dueMonth, interval) = Self.due(of: schedule)
        quota = schedule.quota
        anchor = day
        periodDone = 0
        periodSkipped = 0
        periodSucceeded = false
        if multiDay {
            startPeriod(containing: day)
        } else {
            periodStart = day
            periodEnd = day
            periodLength = 1
        }
    }

    mutating func apply(_ policy: StreakPolicy) {
        grace = policy.grace
        freezeUse = policy.freezes
        switch policy.penalty {
        case .reset:
            resets = true
            decrement = 0
        case .decrement(let n):
            resets = false
            decrement = n
        }
    }

    var multiDay: Bool { due.rawValue >= Due.week.rawValue }

    func isDue(_ day: Int) -> Bool {
        switch due {
        case .always, .week, .month, .blocks: return true
        case .weekdays: return dueMask & UInt8(1 << LocalDay(number: day).weekday.rawValue) != 0
        case .monthly:
            let (y, m, d) = LocalDay.civil(fromDayNumber: day)
            return d == min(dueDay, LocalDay.daysIn(month: m, year: y))
        case .yearly:
            let (y, m, d) = LocalDay.civil(fromDayNumber: day)
            return m == dueMonth && d == min(dueDay, LocalDay.daysIn(month: m, year: y))
        }
    }

    func isActive(on day: Int) -> Bool { day >= startDay && day < archivedDay }

    /// Completed days a period needs, given the days it has left after rest days.
    var periodRequired: Int { min(quota, periodLength - periodSkipped) }

    mutating func startPeriod(containing day: Int) {
        switch due {
        case .week:
            let weekday = ((day + 3) % 7 + 7) % 7 + 1
            periodStart = day - (weekday - weekStart + 7) % 7
            periodEnd = periodStart + 6
        case .month:
            let (y, m, d) = LocalDay.civil(fromDayNumber: day)
            periodStart = day - (d - 1)
            periodEnd = periodStart + LocalDay.daysIn(month: m, year: y) - 1
        case .blocks:
            let offset = day - anchor
            periodStart = anchor + (offset >= 0 ? offset / interval : (offset - interval + 1) / interval) * interval
            periodEnd = periodStart + interval - 1
        default:
            periodStart = day
            periodEnd = day
        }
        periodLength = periodEnd - max(periodStart, anchor) + 1
        periodDone = 0
        periodSkipped = 0
        periodSucceeded = false
    }

    mutating func resetDay() {
        dayTotal = 0
        dayLogged = false
        dayCompleted = false
        daySkipped = false
    }

    /// Whether the day's total meets the target as soon as it is logged (`atMost` waits for
    /// the day to end).
    var targetMetNow: Bool {
        switch comparison {
        case .check: dayLogged
        case .atLeast: dayTotal >= amount
        case .atMost: false
        }
    }

    /// Whether an `atMost` day that has ended was kept.
    var atMostKept: Bool { comparison == .atMost && dayLogged && dayTotal <= amount }
}

/// One closed day of a habit: its state and the streak value after it, packed in 8 bytes.
struct DayRecord: Sendable {
    var streak: Int32
    var state: DayState
}

/// One habit's closed days, from its first day.
struct HabitHistory: Sendable {
    var days: [DayRecord] = []

    mutating func truncate(to count: Int) {
        let keep = max(0, count)
        if days.count > keep { days.removeLast(days.count - keep) }
    }
}

/// A movement of the wallet as the sweep records it: plain data; ``LedgerEntry`` with its
/// sentence is built only when a state is produced.
struct LedgerRecord: Sendable {
    var day: Int
    var at: Double?
    var source: LedgerEntry.Source
    var diamonds: Int
    var freezes: Int
    var diamondBalance: Int
    var freezeBalance: Int
    var habit: Int32
    var streak: Int
    var event: Int32
}
