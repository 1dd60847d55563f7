/// One habit's running state inside the sweep: small, copied into checkpoints.
struct HabitRun: Sendable {
    /// When a single-day schedule is due, pre-digested for the per-day loop.
    enum DueRule: Sendable {
        case always
        case weekdays(UInt8)
        case monthly(Int)
        case yearly(Int, Int)
        case period
    }

    var definition: HabitDefinition
    var policy: StreakPolicy
    let startDay: Int
    let multiDay: Bool
    let due: DueRule
    var archivedDay: Int?

    var current = 0
    var best = 0
    var highest = 0
    /// Consecutive missed periods in the current gap (for grace).
    var gap = 0
    /// How many times the streak fell from a positive value (analytics, recovery coaching).
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
        self.definition = definition
        self.policy = policy
        self.startDay = startDay
        self.multiDay = definition.schedule.hasMultiDayPeriods
        switch definition.schedule {
        case .daily: due = .always
        case .weekdays(let days): due = .weekdays(days.reduce(0) { $0 | UInt8(1 << $1.rawValue) })
        case .monthly(let day): due = .monthly(day)
        case .yearly(let month, let day): due = .yearly(month, day)
        case .timesPerWeek, .timesPerMonth, .everyNDays: due = .period
        }
        if multiDay { startPeriod(containing: startDay) }
    }

    func isDue(_ day: Int) -> Bool {
        switch due {
        case .always, .period: return true
        case .weekdays(let mask): return mask & UInt8(1 << LocalDay(number: day).weekday.rawValue) != 0
        case .monthly, .yearly: return definition.schedule.isDue(on: LocalDay(number: day))
        }
    }

    func isActive(on day: Int) -> Bool {
        day >= startDay && (archivedDay.map { day < $0 } ?? true)
    }

    /// Completed days a period needs, given the days it has left after rest days.
    var periodRequired: Int {
        min(definition.schedule.quota, periodLength - periodSkipped)
    }

    mutating func startPeriod(containing day: Int) {
        let range = definition.schedule.period(
            containing: LocalDay(number: day), anchor: LocalDay(number: startDay), weekStart: definition.weekStart)
        periodStart = range.lowerBound.number
        periodEnd = range.upperBound.number
        periodLength = periodEnd - max(periodStart, startDay) + 1
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
        switch definition.target.comparison {
        case .check: dayLogged
        case .atLeast: dayTotal >= definition.target.amount
        case .atMost: false
        }
    }

    /// Whether an `atMost` day that has ended was kept.
    var atMostKept: Bool {
        definition.target.comparison == .atMost && dayLogged && dayTotal <= definition.target.amount
    }
}

/// One habit's closed days: the state and the streak value after each, from its first day.
struct HabitHistory: Sendable {
    var states: [DayState] = []
    var streaks: [Int32] = []

    mutating func truncate(to count: Int) {
        let keep = max(0, count)
        if states.count > keep {
            states.removeLast(states.count - keep)
            streaks.removeLast(streaks.count - keep)
        }
    }
}
