/// What a calendar day shows for a habit.
public enum DayState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Before the habit's first day.
    case beforeStart
    /// Between the habit's first day and its first completion: streak counting begins on
    /// the first completion (seed 003), so such a day is neither done nor missed (seed 004
    /// R2.3: grey).
    case notStarted
    /// Done.
    case completed
    /// Missed, forgiven by the policy's grace (seed 003's icy cube).
    case grace
    /// Missed, protected by a freeze from the shared pool (seed 003's snowy glass).
    case frozen
    /// Missed, unprotected.
    case missed
    /// A rest day, or a date the user never lived through while travelling east.
    case skipped
    /// Paused (a vacation): neither done nor missed, and no freeze spent.
    case paused
    /// Not completed during an outage an operator declared (an ``Amnesty``): the streak
    /// stands across it as across a frozen day, but no freeze is spent and the streak does
    /// not grow (seed 003: a freeze protects a missed day; seed 004: a freeze is the user's
    /// to spend, so an outage that was not theirs costs them none). Like a paused day it
    /// counts neither as done nor as due, and in a weekly or monthly period it lowers the
    /// quota as a rest day does. The calendar shows it with the amnesty's reason
    /// (``UserState/amnesties``).
    case covered
    /// Archived, before the habit was taken out of the archive: not tracked.
    case archived
    /// The habit was not due (an unscheduled weekday, or a day of a weekly or monthly
    /// quota that is not needed).
    case notDue
    /// Today, still open.
    case pending
    /// After today.
    case future
}

extension DayState {
    /// Whether the day is a rest the streak steps over: skipped, paused or covered. Such a
    /// day counts neither as done nor as due in rates, strength and period quotas.
    public var isRest: Bool { self == .skipped || self == .paused || self == .covered }
}

/// The border colour of a calendar day, from the streak value after it (seed 003).
public enum BorderTier: String, Hashable, Sendable, Codable {
    /// Streak 0: broken or reset.
    case red
    /// Streak 1–4: building momentum.
    case yellow
    /// Streak 5 or more: consistent.
    case green
    /// Not counting yet: before the first completion, or a week or month under way whose
    /// quota may still be met.
    case neutral

    /// The tier for a streak value.
    public init(streak: Int) {
        self = streak <= 0 ? .red : streak < 5 ? .yellow : .green
    }
}
