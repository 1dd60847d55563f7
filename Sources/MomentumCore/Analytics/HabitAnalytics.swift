import Foundation

/// Every analytic of one habit (seed 004, requirements 5, 6, 7 and 9).
public struct HabitAnalytics: Hashable, Sendable, Codable {
    /// The habit's id.
    public var habit: String
    /// The habit's name.
    public var name: String
    /// Its difficulty.
    public var difficulty: Difficulty
    /// Whether the habit is still tracked (not archived).
    public var active: Bool
    /// Days whose state is `completed`, scheduled or not.
    public var totalDaysCompleted: Int
    /// Completion rates for the usual periods.
    public var rates: CompletionRates
    /// History by calendar week (starting on the habit's week start), oldest first.
    public var weeks: [PeriodSummary]
    /// History by calendar month, oldest first.
    public var months: [PeriodSummary]
    /// The last 30 days, ending today.
    public var last30Days: [DailyPoint]
    /// How the last 15 days compare with the 15 before.
    public var trend: Trend
    /// The completion rate on each weekday, Monday first.
    public var weekdays: [WeekdayRate]
    /// The weekday with the best completion rate (ties: more units due, then the earlier
    /// weekday); `nil` until some weekday has been due at least twice.
    public var mostConsistentWeekday: Weekday?
    /// Streak runs: how many, their average and longest length.
    public var streaks: StreakStatistics
    /// Loop Habit Tracker's habit strength.
    public var strength: StrengthSummary
    /// Raw and difficulty-adjusted scores.
    public var score: DifficultyScore
    /// Streak milestones reached, with the day each was first reached.
    public var milestones: [MilestoneBadge]
    /// Encouragement and recovery coaching.
    public var coaching: Coaching
}

/// Completion rates of a habit.
public struct CompletionRates: Hashable, Sendable, Codable {
    /// The calendar week holding today (starting on the habit's week start).
    public var thisWeek: CompletionRate
    /// The calendar month holding today.
    public var thisMonth: CompletionRate
    /// The 30 days ending today.
    public var last30Days: CompletionRate
    /// Since the habit started.
    public var allTime: CompletionRate
}

/// A week or a month of a habit's history.
public struct PeriodSummary: Hashable, Sendable, Codable {
    /// The first day.
    public var start: LocalDay
    /// The last day.
    public var end: LocalDay
    /// Days completed in it.
    public var completedDays: Int
    /// The completion rate of the units judged in it.
    public var rate: CompletionRate
}

/// One day of the 30-day series.
public struct DailyPoint: Hashable, Sendable, Codable {
    /// The day.
    public var day: LocalDay
    /// Its state.
    public var state: DayState
    /// Whether it was completed.
    public var completed: Bool
    /// The completion rate of the 7 days ending on it (the trend line); `nil` when nothing
    /// was due in them.
    public var rate7Days: Double?
}

/// The direction of a habit's completion rate.
///
/// Definition: the rate of the 15 days ending today is compared with the rate of the 15
/// days before them. A change of 10 percentage points or more is `improving` or
/// `declining`; less is `steady`. When either half has fewer than 3 units due, there is
/// too little data to tell.
public struct Trend: Hashable, Sendable, Codable {
    /// Which way the rate moves.
    public enum Direction: String, Hashable, Sendable, Codable {
        /// Up by at least 10 points.
        case improving
        /// Within 10 points.
        case steady
        /// Down by at least 10 points.
        case declining
        /// Too few units due to tell.
        case insufficientData
    }

    /// The direction.
    public var direction: Direction
    /// The rate of the last 15 days.
    public var recent: CompletionRate
    /// The rate of the 15 days before.
    public var earlier: CompletionRate
    /// `recent − earlier`, in percentage points; `nil` when either rate is undefined.
    public var change: Double?
}

/// A weekday's completion rate.
public struct WeekdayRate: Hashable, Sendable, Codable {
    /// The weekday.
    public var weekday: Weekday
    /// Days completed on it, of the days it counted (due days for day schedules; every
    /// closed day that was neither skipped nor before the start for quotas).
    public var rate: CompletionRate
}

/// Statistics of a habit's streak runs.
///
/// A run starts when the streak leaves 0 and ends when it returns to 0; its length is the
/// highest value it reached. The running streak is a run too.
public struct StreakStatistics: Hashable, Sendable, Codable {
    /// How many runs there were.
    public var runs: Int
    /// Their average length, in periods; 0 without runs.
    public var average: Double
    /// The longest.
    public var longest: Int

    /// Creates statistics.
    public init(runs: Int, average: Double, longest: Int) {
        self.runs = runs
        self.average = average
        self.longest = longest
    }
}

/// Habit strength now and a month ago.
public struct StrengthSummary: Hashable, Sendable, Codable {
    /// Loop's score after today, 0…1.
    public var value: Double
    /// The score as a whole percentage.
    public var percent: Int
    /// The score 30 days ago (0 before the habit existed).
    public var thirtyDaysAgo: Double
}

/// A habit's scores, raw and weighted by difficulty (seed 004, requirement 9).
///
/// The raw score is habit strength as a percentage (0–100). The adjusted score multiplies
/// it by the difficulty weight (easy 1×, medium 1.5×, hard 2×), so it runs from 0 to 200;
/// the normalized score divides that by the heaviest weight, putting every habit on one
/// 0–100 scale where only a hard habit at full strength reaches 100.
public struct DifficultyScore: Hashable, Sendable, Codable {
    /// The difficulty weight.
    public var weight: Double
    /// The current streak.
    public var streak: Int
    /// The current streak times the weight.
    public var adjustedStreak: Double
    /// The best streak.
    public var best: Int
    /// The best streak times the weight.
    public var adjustedBest: Double
    /// Habit strength, 0–100.
    public var raw: Double
    /// `raw × weight`, 0–200.
    public var adjusted: Double
    /// `adjusted / 2`, 0–100, comparable across habits.
    public var normalized: Double

    /// Scores for a streak, a best and a strength (0…1) at a difficulty.
    public init(difficulty: Difficulty, streak: Int, best: Int, strength: Double) {
        weight = difficulty.weight
        self.streak = streak
        adjustedStreak = Double(streak) * weight
        self.best = best
        adjustedBest = Double(best) * weight
        raw = (strength * 1000).rounded() / 10
        adjusted = (raw * weight * 10).rounded() / 10
        normalized = (adjusted / Difficulty.hard.weight * 10).rounded() / 10
    }
}

/// A streak milestone a habit reached.
public struct MilestoneBadge: Hashable, Sendable, Codable {
    /// The streak value (7, 30, 60, 100, 365 in the `habits` pack).
    public var streak: Int
    /// The day the streak first reached it.
    public var day: LocalDay

    /// Creates a badge.
    public init(streak: Int, day: LocalDay) {
        self.streak = streak
        self.day = day
    }
}
