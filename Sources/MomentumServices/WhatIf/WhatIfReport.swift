import Foundation
import MomentumCore

/// What a candidate pack version would change over the users a what-if replayed, added up
/// user by user so that a run holds one report and one user at a time.
///
/// Example users are ids only, at most ``exampleLimit`` per change.
public struct WhatIfReport: Hashable, Sendable, Codable {
    /// The most example users a change names.
    public static let exampleLimit = 5

    /// Users replayed.
    public var users = 0
    /// Users something would change for.
    public var changed = 0
    /// Users whose log could not be replayed (an unknown pack), left unchanged.
    public var skipped = 0
    /// Per rule, the users who would gain or lose its unlocks, by rule id.
    public var rules: [String: RuleChange] = [:]
    /// Celebrations the gains would create.
    public var celebrations = Total()
    /// Diamonds held that would move (the sum of the changes, and the users).
    public var diamonds = Total()
    /// Freezes held that would move.
    public var freezes = Total()
    /// The users the candidate would take a reward from, and how the server keeps them.
    public var kept = Kept()

    /// Creates an empty report.
    public init() {}

    /// A sum over users, with how many users it came from and a few of them.
    public struct Total: Hashable, Sendable, Codable {
        /// The sum of the changes.
        public var sum = 0
        /// Users with a change.
        public var users = 0
        /// A few users with a change, and what changes for them.
        public var examples: [Example] = []

        /// Creates an empty total.
        public init() {}

        mutating func add(_ amount: Int, _ example: Example) {
            guard amount != 0 else { return }
            sum += amount
            users += 1
            if examples.count < WhatIfReport.exampleLimit { examples.append(example) }
        }
    }

    /// What one rule's unlocks would do.
    public struct RuleChange: Hashable, Sendable, Codable {
        /// The rule's title (the latest unlock's).
        public var title: String
        /// Users who would gain an unlock of the rule.
        public var gaining = 0
        /// Users who would lose one.
        public var losing = 0
        /// A few users who would gain one.
        public var gainingExamples: [Example] = []
        /// A few users who would lose one.
        public var losingExamples: [Example] = []
    }

    /// The rewards the server keeps for users the candidate would take them from: before
    /// the version becomes active it appends one `rewards.kept` event to each such user's
    /// log, naming the unlocks and the diamonds and freezes their rewards earned, and the
    /// engine keeps them under the new rules.
    public struct Kept: Hashable, Sendable, Codable {
        /// Users who would lose a reward.
        public var users = 0
        /// Unlocks kept.
        public var unlocks = 0
        /// Diamonds earned by rewards that the candidate would not pay, kept.
        public var diamonds = 0
        /// Freezes earned that the candidate would not give, kept.
        public var freezes = 0
        /// A few of those users.
        public var examples: [Example] = []
        /// How the server keeps them.
        public var how =
            "Before the version becomes active, each of these users gets one rewards.kept event listing the unlocks "
            + "and the diamonds and freezes their rewards earned; the engine keeps them under the new rules."

        /// Creates an empty total.
        public init() {}
    }

    /// One example user and what would change for them.
    public struct Example: Hashable, Sendable, Codable {
        /// The user's id.
        public var user: String
        /// Rule ids of the unlocks they would gain.
        public var gains: [String]
        /// Rule ids of the unlocks they would lose.
        public var losses: [String]
        /// The change of their diamonds.
        public var diamonds: Int
        /// The change of their freezes.
        public var freezes: Int
    }

    /// Adds one user's change.
    public mutating func add(_ change: RewardChange, of user: String) {
        users += 1
        guard !change.isEmpty else { return }
        changed += 1
        let example = Example(
            user: user, gains: Self.rules(change.gained), losses: Self.rules(change.lost), diamonds: change.diamonds,
            freezes: change.freezes)
        for rule in example.gains {
            var entry = rules[rule] ?? RuleChange(title: Self.title(of: rule, in: change.gained))
            entry.gaining += 1
            if entry.gainingExamples.count < Self.exampleLimit { entry.gainingExamples.append(example) }
            rules[rule] = entry
        }
        for rule in example.losses {
            var entry = rules[rule] ?? RuleChange(title: Self.title(of: rule, in: change.lost))
            entry.losing += 1
            if entry.losingExamples.count < Self.exampleLimit { entry.losingExamples.append(example) }
            rules[rule] = entry
        }
        celebrations.add(change.celebrations, example)
        diamonds.add(change.diamonds, example)
        freezes.add(change.freezes, example)
        if change.takesRewards {
            kept.users += 1
            kept.unlocks += change.lost.count
            kept.diamonds += max(0, -change.diamondsEarned)
            kept.freezes += max(0, -change.freezesEarned)
            if kept.examples.count < Self.exampleLimit { kept.examples.append(example) }
        }
    }

    private static func title(of rule: String, in unlocks: [RewardUnlock]) -> String {
        unlocks.last { $0.rule == rule }?.title ?? rule
    }

    private static func rules(_ unlocks: [RewardUnlock]) -> [String] {
        var seen = Set<String>()
        return unlocks.map(\.rule).filter { seen.insert($0).inserted }
    }
}
