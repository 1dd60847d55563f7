import Foundation
import MomentumCore

/// A deliberately straightforward second implementation of the streak rules, used as an
/// independent oracle for `UserEngine` and as the baseline of the benchmarks.
///
/// Every local-day computation goes through Foundation's gregorian `Calendar` in the event's
/// time zone, days are identified by ISO 8601 strings (`"2026-03-14"`), and completions are
/// kept in dictionaries keyed by those strings. Nothing here shares code with the engine's
/// sweep.
///
/// It supports the subset of the log that ``LogGenerator`` produces: `habit.created` with
/// `daily` or `weekdays` schedules and check targets, `completion` (optionally backdated
/// with `day`), `skip`, `pause`, `resume` and `purchase`. Freeze offers count as accepted, since the subset
/// has no answers to them. Any other event or schedule stops the program with a
/// precondition failure rather than giving a wrong answer.
public struct NaiveEvaluator: Sendable {
    /// The rule pack: default policy, rewards, earned freezes and store prices.
    public let pack: RulePack
    /// The local hour at which a day begins (0–23).
    public let dayStartHour: Int

    /// Creates an evaluator.
    ///
    /// - Parameters:
    ///   - pack: The rule pack.
    ///   - dayStartHour: The local hour at which the user's day begins; an instant before
    ///     that hour belongs to the previous day.
    public init(pack: RulePack = .habits, dayStartHour: Int = 0) {
        self.pack = pack
        self.dayStartHour = dayStartHour
    }

    /// Evaluates a log at an instant.
    ///
    /// - Parameters:
    ///   - events: The log, in any order.
    ///   - now: The current instant; its local day (in the zone of the latest event) is
    ///     today, which stays open.
    /// - Returns: The wallet, each habit's streaks and closed days, the ledger, and the
    ///   purchases refused for too few diamonds.
    public func evaluate(_ events: [Event], now: Date) -> NaiveResult {
        var run = NaiveRun(pack: pack, dayStartHour: dayStartHour)
        return run.evaluate(events, now: now)
    }
}

/// What ``NaiveEvaluator`` derives from a log.
public struct NaiveResult: Equatable, Sendable {
    /// Diamonds in the wallet.
    public var diamonds: Int
    /// Freezes in the shared pool.
    public var freezes: Int
    /// Each habit, in creation order.
    public var habits: [NaiveHabitResult]
    /// Every movement of diamonds and freezes, in the order they happened.
    public var ledger: [NaiveLedgerLine]
    /// The ids of purchases refused for too few diamonds, in the order they were refused.
    public var rejectedEventIDs: [String]

    /// Creates a result.
    public init(
        diamonds: Int, freezes: Int, habits: [NaiveHabitResult], ledger: [NaiveLedgerLine],
        rejectedEventIDs: [String]
    ) {
        self.diamonds = diamonds
        self.freezes = freezes
        self.habits = habits
        self.ledger = ledger
        self.rejectedEventIDs = rejectedEventIDs
    }
}

/// One habit as ``NaiveEvaluator`` sees it.
public struct NaiveHabitResult: Equatable, Sendable {
    /// The habit's id.
    public var id: String
    /// The current streak.
    public var current: Int
    /// The best streak ever.
    public var best: Int
    /// The highest streak rewards were paid for.
    public var highest: Int
    /// The state of each closed day, from the habit's start day up to (not including) today.
    public var states: [DayState]
    /// The streak value after each of those days.
    public var streaks: [Int]

    /// Creates a habit result.
    public init(id: String, current: Int, best: Int, highest: Int, states: [DayState], streaks: [Int]) {
        self.id = id
        self.current = current
        self.best = best
        self.highest = highest
        self.states = states
        self.streaks = streaks
    }
}

/// One movement of diamonds or freezes, as ``NaiveEvaluator`` records it.
public struct NaiveLedgerLine: Equatable, Sendable {
    /// The local day the movement belongs to.
    public var day: LocalDay
    /// Where it came from.
    public var source: LedgerEntry.Source
    /// Change in diamonds.
    public var diamonds: Int
    /// Change in freezes.
    public var freezes: Int

    /// Creates a ledger line.
    public init(day: LocalDay, source: LedgerEntry.Source, diamonds: Int, freezes: Int) {
        self.day = day
        self.source = source
        self.diamonds = diamonds
        self.freezes = freezes
    }
}
