/// `/journey`: progressions, achievements by month, statistics, the habits compared, and
/// the user's own milestones.
struct JourneyPage: TemplateModel {
    static let template = "journey"

    /// One method's progression.
    struct Timeline: Codable {
        /// One advance (or regression) of the method.
        struct Item: Codable {
            var stage: String
            var stageOf: String
            var kind: String
            var day: String
            var note: String
        }

        var method: String
        var items: [Item]
    }

    /// A month's achievements.
    struct Month: Codable {
        /// A card or a full-screen milestone of the month.
        struct Unlock: Codable {
            var badge: String
            var title: String
            var day: String
            var tier: Int
            var unlock: String
            var postLabel: String
        }

        var month: String
        var unlocks: [Unlock]
        /// The month's small steps in one line, when it has some.
        var smallSteps: String?
    }

    /// A habit's best streak.
    struct BestStreak: Codable {
        var name: String
        var best: Int
    }

    /// A habit ranked on one scale, weighted by difficulty (seed 004 R9.3).
    struct Ranked: Codable {
        var rank: Int
        var name: String
        var difficulty: String
        var raw: Int
        var adjusted: Int
        var normalized: Int
    }

    var timelines: [Timeline]
    var noProgression: Bool
    var methodsPracticed: Int
    var totalAdvances: Int
    var regressions: Int
    var months: [Month]
    var achievements: Int
    var consistency: Int
    var totalDays: Int
    var totalMilestones: Int
    var bestStreaks: [BestStreak]
    var hasBestStreaks: Bool
    var comparison: [Ranked]
    var hasComparison: Bool
    var milestones: [MilestoneSection.Item]
    var hasMilestones: Bool
    var milestoneHabits: [MilestoneSection.Habit]
    var milestoneKinds: [MilestoneSection.Kind]
    var hasMilestoneHabits: Bool
    var hasMilestoneKinds: Bool
    var milestoneLimit: Int
}

/// The Journey page's "Your milestones" card.
struct MilestoneSection {
    /// One of the user's milestones and where it stands.
    struct Item: Codable {
        var id: String
        var title: String
        var badge: String
        var rule: String
        var definition: String
        var message: String?
        /// When reached: the day in words, the unlock, and the label of posting it.
        var reached: String?
        var unlock: String?
        var postLabel: String?
        /// When under way: the progress and the target, and both in words.
        var progress: Int?
        var target: Int?
        var progressText: String?
        /// Neither reached nor measured yet.
        var waiting: Bool?
    }

    /// A habit a milestone may count.
    struct Habit: Codable {
        var id: String
        var name: String
    }

    /// A kind of log a milestone may count.
    struct Kind: Codable {
        var kind: String
        var title: String
    }

    var items: [Item]
    var habits: [Habit]
    var kinds: [Kind]
}
