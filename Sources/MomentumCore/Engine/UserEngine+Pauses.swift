/// Pauses (vacations): the days the live `pause` events name, cut short by the `resume`
/// events that end them. Paused days are a function of the live log, not of the sweep's
/// position, so they are kept beside the run (like travel's skipped dates) and a checkpoint
/// replays against the current ones.
extension UserEngine {
    /// Recomputes the paused days from the live `pause` and `resume` events.
    mutating func recomputePauses() {
        pausedAll = []
        pausedByHabit = [:]
        for period in livePauses() where period.lastDay >= period.pause.from.number {
            let days = period.pause.from.number...period.lastDay
            if let habit = period.pause.habit {
                pausedByHabit[habit, default: []].formUnion(days)
            } else {
                pausedAll.formUnion(days)
            }
        }
    }

    /// Recomputes the paused days; returns the earliest day that became or stopped being
    /// paused, if any.
    mutating func recomputePauseChanges() -> Int? {
        let (all, byHabit) = (pausedAll, pausedByHabit)
        recomputePauses()
        var earliest = all.symmetricDifference(pausedAll).min()
        for habit in Set(byHabit.keys).union(pausedByHabit.keys) {
            guard let day = (byHabit[habit] ?? []).symmetricDifference(pausedByHabit[habit] ?? []).min() else {
                continue
            }
            earliest = min(earliest ?? day, day)
        }
        return earliest
    }

    /// Whether a habit's day is paused.
    @inline(__always)
    func isPaused(_ h: Int, _ day: Int) -> Bool {
        if !pausedAll.isEmpty, pausedAll.contains(day) { return true }
        guard !pausedByHabit.isEmpty else { return false }
        return pausedByHabit[run.definitions[h].id]?.contains(day) ?? false
    }

    /// The live pauses in application order, each with its id and its last paused day
    /// (the day before the first `resume` that ends it, if one comes before `until`).
    func livePauses() -> [(id: String, pause: Pause, lastDay: Int)] {
        var resumed: [String: Int] = [:]
        for entry in entries where entry.operation == .resume {
            if case .resume(let target) = log[Int(entry.event)].payload {
                resumed[target] = min(resumed[target] ?? entry.day, entry.day)
            }
        }
        return entries.compactMap { entry in
            guard entry.operation == .pause, case .pause(let pause) = log[Int(entry.event)].payload else { return nil }
            let id = log[Int(entry.event)].id
            let last = min(pause.until.number, (resumed[id] ?? Int.max).subtractingReportingOverflow(1).partialValue)
            return (id, pause, last)
        }
    }

    /// The pauses as the state shows them: every live pause with at least one day left
    /// after any `resume`, in the order they were made.
    var pausePeriods: [PausePeriod] {
        livePauses().compactMap { period in
            guard period.lastDay >= period.pause.from.number else { return nil }
            return PausePeriod(
                id: period.id, habit: period.pause.habit, from: period.pause.from,
                until: LocalDay(number: period.lastDay), note: period.pause.note,
                resumed: period.lastDay < period.pause.until.number)
        }
    }
}

/// A pause as the state shows it: a habit (or every habit) on vacation.
public struct PausePeriod: Hashable, Sendable, Codable {
    /// The `pause` event's id (a `resume` names it to end the pause early).
    public var id: String
    /// The habit paused, or `nil` for every habit.
    public var habit: String?
    /// The first paused day.
    public var from: LocalDay
    /// The last paused day, after any `resume`.
    public var until: LocalDay
    /// The user's note.
    public var note: String?
    /// Whether a `resume` ended it before the day it was planned to end.
    public var resumed: Bool

    /// Creates a pause period.
    public init(id: String, habit: String?, from: LocalDay, until: LocalDay, note: String?, resumed: Bool) {
        self.id = id
        self.habit = habit
        self.from = from
        self.until = until
        self.note = note
        self.resumed = resumed
    }
}
