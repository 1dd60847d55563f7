import Foundation

/// Everything derived from a user's log at one instant: what the apps show.
public struct UserState: Hashable, Sendable, Codable {
    /// The instant the state was evaluated at.
    public var now: Date
    /// The user's current local day.
    public var today: LocalDay
    /// The zone `today` was computed in.
    public var timeZone: String
    /// The hour the user's day starts.
    public var dayStartHour: Int
    /// The rule pack's name.
    public var pack: String
    /// Diamonds and the shared freeze pool.
    public var wallet: Wallet
    /// Each habit, in creation order.
    public var habits: [HabitState]
    /// Freeze offers still waiting for an answer.
    public var freezeOffers: [OpenFreezeOffer]
    /// Dates the user never lived through: crossed while travelling east, or jumped over by
    /// their zone (Samoa's 2011-12-30).
    public var skippedDays: [LocalDay]
    /// The pauses (vacations), in the order they were made, each until its last paused day.
    public var pauses: [PausePeriod]
    /// The amnesties (outages an operator declared) not lifted, in the order they were
    /// declared: the days they cover show ``DayState/covered``, with their reason.
    public var amnesties: [AmnestyPeriod]
    /// Every habit's id in the order the user shows them (the latest `order` event's, then
    /// the habits it does not name in creation order).
    public var order: [String]
    /// Every movement of diamonds and freezes, oldest first.
    public var ledger: [LedgerEntry]
    /// Events in the log that the state refused (they changed nothing).
    public var rejected: [Rejection]
}

/// A freeze offer for a missed day, open until the end of ``expires``.
public struct OpenFreezeOffer: Hashable, Sendable, Codable {
    /// The habit whose streak the freeze protects.
    public var habit: String
    /// The missed day.
    public var day: LocalDay
    /// The last local day on which the offer can be answered; unanswered, it is accepted.
    public var expires: LocalDay

    /// Creates an open offer.
    public init(habit: String, day: LocalDay, expires: LocalDay) {
        self.habit = habit
        self.day = day
        self.expires = expires
    }
}

/// One habit as the apps show it.
public struct HabitState: Hashable, Sendable, Codable {
    /// The habit's definition as it stands now.
    public var definition: HabitDefinition
    /// What the streak counts: `day`, `week` (a times-per-week habit), `month`, `year` or
    /// `period` (every N days), so that "3" reads "3 weeks" where it means weeks.
    public var streakUnit: String { Coaching.unit(definition.schedule) }
    /// The streak policy in force (the pack default when the habit names none).
    public var policy: StreakPolicy
    /// The first day the habit was tracked.
    public var startDay: LocalDay
    /// The day the habit was archived, if it was.
    public var archivedDay: LocalDay?
    /// The current streak, in periods.
    public var current: Int
    /// The best streak ever.
    public var best: Int
    /// The highest streak rewards were paid for (seed 003's `highestStreakAchieved`).
    public var highestStreakAchieved: Int
    /// How many times the streak fell to 0 from a positive value.
    public var breaks: Int
    /// The border colour for the current streak.
    public var border: BorderTier
    /// Whether a freeze from the shared pool stands ready to protect the current streak.
    public var shieldActive: Bool
    /// The first day of the current streak, for highlighting it on the calendar.
    public var currentStreakStart: LocalDay?
    /// Today: what is done and what is still needed.
    public var today: TodayStatus
    /// Calendar days, oldest first, ending today.
    public var calendar: [CalendarDay]
}

/// What today looks like for a habit.
public struct TodayStatus: Hashable, Sendable, Codable {
    /// `completed`, `pending`, `skipped` or `notDue` (`beforeStart` once archived).
    public var state: DayState
    /// Whether the habit is due today (always true inside a weekly, monthly or N-day period).
    public var due: Bool
    /// The total logged today.
    public var logged: Double
    /// How much more today needs to count (`atLeast` and check targets); `nil` for `atMost`
    /// targets, which are judged when the day ends, and once today is done.
    public var remaining: Double?
    /// The running period, for weekly, monthly and N-day schedules.
    public var period: PeriodProgress?
}

/// Progress through a multi-day period.
public struct PeriodProgress: Hashable, Sendable, Codable {
    /// The period's first day.
    public var start: LocalDay
    /// The period's last day.
    public var end: LocalDay
    /// Days completed so far.
    public var completedDays: Int
    /// Days the period needs (fewer if rest days leave too few).
    public var requiredDays: Int
    /// Whether the period is already fulfilled.
    public var fulfilled: Bool

    /// Creates a progress report.
    public init(start: LocalDay, end: LocalDay, completedDays: Int, requiredDays: Int, fulfilled: Bool) {
        self.start = start
        self.end = end
        self.completedDays = completedDays
        self.requiredDays = requiredDays
        self.fulfilled = fulfilled
    }
}

/// One day of a habit's calendar.
public struct CalendarDay: Hashable, Sendable, Codable {
    /// The day.
    public var day: LocalDay
    /// What the day shows.
    public var state: DayState
    /// The streak value after the day.
    public var streak: Int
    /// The border colour for that streak value.
    public var border: BorderTier
    /// The completions logged for the day, with their time and note.
    public var completions: [CompletionDetail]
}

/// A completion as a calendar day shows it when tapped.
public struct CompletionDetail: Hashable, Sendable, Codable {
    /// The event's id.
    public var event: String
    /// When it was logged.
    public var at: Date
    /// The value it added.
    public var value: Double
    /// The user's note.
    public var note: String?
    /// Whether it was logged on a later day for this one.
    public var backfilled: Bool
}
