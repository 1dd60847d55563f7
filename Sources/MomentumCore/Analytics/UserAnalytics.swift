import Foundation

/// Every analytic of a user: per habit, across habits, and for the profile.
public struct UserAnalytics: Hashable, Sendable, Codable {
    /// The day the analytics were computed for.
    public var today: LocalDay
    /// Each habit, in creation order.
    public var habits: [HabitAnalytics]
    /// The consistency score across all active habits.
    public var consistency: ConsistencyScore
    /// Active habits ranked by their normalized, difficulty-adjusted score.
    public var comparison: [HabitComparison]
    /// Profile statistics.
    public var profile: ProfileStatistics

    /// Computes the analytics of a user's habits.
    ///
    /// - Parameters:
    ///   - series: Each habit's history, in creation order.
    ///   - archived: The ids of archived habits.
    ///   - milestones: The streak values that earn a badge (the pack's ``RulePack/streakMilestones``).
    ///   - today: The user's current day.
    ///   - translation: The language of the coaching sentences; English by default.
    public init(
        series: [HabitSeries], archived: Set<String> = [], milestones: [Int], today: LocalDay,
        translation: Translation = .english
    ) {
        let habits = series.map {
            HabitAnalytics(
                $0, milestones: milestones, archived: archived.contains($0.definition.id), translation: translation)
        }
        self.init(habits: habits, today: today)
    }

    /// Combines habit analytics into the user's.
    public init(habits: [HabitAnalytics], today: LocalDay) {
        self.today = today
        self.habits = habits
        let active = habits.filter(\.active)
        consistency = ConsistencyScore(active)
        comparison = active.sorted {
            $0.score.normalized != $1.score.normalized ? $0.score.normalized > $1.score.normalized : $0.habit < $1.habit
        }.enumerated().map { rank, habit in
            HabitComparison(
                habit: habit.habit, name: habit.name, difficulty: habit.difficulty, rank: rank + 1,
                raw: habit.score.raw, adjusted: habit.score.adjusted, normalized: habit.score.normalized)
        }
        profile = ProfileStatistics(habits)
    }
}

/// How consistently a user keeps all their habits, 0–100.
///
/// Definition: over the 30 days ending today, the units done divided by the units due
/// (see ``HabitSeries/completionRate(from:to:)``), summed over every active habit with each
/// habit weighted by its difficulty (easy 1, medium 1.5, hard 2), as a rounded percentage.
/// A user who keeps every habit scores 100; letting a hard habit slip costs twice as much
/// as an easy one. `nil` when nothing was due.
public struct ConsistencyScore: Hashable, Sendable, Codable {
    /// The score, 0–100, or `nil` when nothing was due in the last 30 days.
    public var score: Int?
    /// Weighted units done.
    public var done: Double
    /// Weighted units due.
    public var due: Double

    init(_ habits: [HabitAnalytics]) {
        var done = 0.0
        var due = 0.0
        for habit in habits {
            done += Double(habit.rates.last30Days.done) * habit.difficulty.weight
            due += Double(habit.rates.last30Days.due) * habit.difficulty.weight
        }
        self.done = done
        self.due = due
        score = due > 0 ? Int((done / due * 100).rounded()) : nil
    }
}

/// One habit in the cross-habit comparison.
public struct HabitComparison: Hashable, Sendable, Codable {
    /// The habit's id.
    public var habit: String
    /// Its name.
    public var name: String
    /// Its difficulty.
    public var difficulty: Difficulty
    /// 1 for the highest normalized score.
    public var rank: Int
    /// Habit strength, 0–100.
    public var raw: Double
    /// Strength times the difficulty weight, 0–200.
    public var adjusted: Double
    /// On one 0–100 scale across difficulties.
    public var normalized: Double
}

/// Statistics for the user's profile (seed 004, requirements 3.5 and 6).
public struct ProfileStatistics: Hashable, Sendable, Codable {
    /// Streak milestones reached across all habits.
    public var totalMilestones: Int
    /// Habits still tracked.
    public var habitsActive: Int
    /// Habits archived.
    public var habitsArchived: Int
    /// Days completed across all habits.
    public var totalDaysCompleted: Int
    /// Each habit's best streak, highest first.
    public var bestStreaks: [BestStreak]
    /// The average strength of active habits, 0–100; `nil` without active habits.
    public var averageStrength: Int?

    init(_ habits: [HabitAnalytics]) {
        totalMilestones = habits.reduce(0) { $0 + $1.milestones.count }
        habitsActive = habits.count { $0.active }
        habitsArchived = habits.count - habitsActive
        totalDaysCompleted = habits.reduce(0) { $0 + $1.totalDaysCompleted }
        bestStreaks = habits.map {
            BestStreak(habit: $0.habit, name: $0.name, best: $0.score.best, adjustedBest: $0.score.adjustedBest)
        }.sorted { $0.best != $1.best ? $0.best > $1.best : $0.habit < $1.habit }
        let active = habits.filter(\.active)
        averageStrength =
            active.isEmpty
            ? nil : Int((active.reduce(0) { $0 + $1.strength.value } / Double(active.count) * 100).rounded())
    }
}

/// A habit's best streak.
public struct BestStreak: Hashable, Sendable, Codable {
    /// The habit's id.
    public var habit: String
    /// Its name.
    public var name: String
    /// The best streak.
    public var best: Int
    /// The best streak times the difficulty weight.
    public var adjustedBest: Double
}
