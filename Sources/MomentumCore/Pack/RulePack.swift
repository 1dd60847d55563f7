/// The data that configures the engine for one kind of app.
///
/// A pack holds everything an app may tune without code: the default streak policy, the
/// backfill window, diamond rewards, earned freezes and the store. Later parts of the
/// engine add achievements, celebrations and messages to the same document.
public struct RulePack: Hashable, Sendable, Codable {
    /// The pack's name (`habits`, `ollie`, …).
    public var name: String
    /// The policy for habits that do not name one.
    public var defaultPolicy: StreakPolicy
    /// How many days back a completion may be logged; `nil` for no limit (journals).
    public var backfillDays: Int?
    /// How far in the future, in seconds, a timestamp may lie (clock skew between devices).
    public var futureToleranceSeconds: Int
    /// Diamond rewards for streak milestones.
    public var rewards: [StreakReward]
    /// One freeze is earned at every new multiple of this streak value; `nil` for none.
    public var earnedFreezeEvery: Int?
    /// The freeze store.
    public var store: StoreCatalog
    /// Streak values that earn a milestone badge (seed 004: 7, 30, 60, 100 and 365).
    public var streakMilestones: [Int]

    /// Creates a pack.
    public init(
        name: String, defaultPolicy: StreakPolicy = .forgiving, backfillDays: Int? = 1,
        futureToleranceSeconds: Int = 300, rewards: [StreakReward] = [], earnedFreezeEvery: Int? = nil,
        store: StoreCatalog = .standard, streakMilestones: [Int] = [7, 30, 60, 100, 365]
    ) {
        self.name = name
        self.defaultPolicy = defaultPolicy
        self.backfillDays = backfillDays
        self.futureToleranceSeconds = futureToleranceSeconds
        self.rewards = rewards
        self.earnedFreezeEvery = earnedFreezeEvery
        self.store = store
        self.streakMilestones = streakMilestones
    }

    /// Seeds 003 and 004: forgiving streaks by default, 1 day of backfill, +20 diamonds per
    /// 10 streak days and +N at every 100th, +30 for every 30 streak periods of a hard habit
    /// (seed 004's extra recognition for hard habits), one earned freeze per 30-day
    /// milestone, and seed 003's freeze store.
    public static let habits = RulePack(
        name: "habits", defaultPolicy: .forgiving, backfillDays: 1,
        rewards: [
            StreakReward(every: 10, diamonds: .fixed(20)), StreakReward(every: 100, diamonds: .streakValue),
            StreakReward(every: 30, diamonds: .fixed(30), difficulty: .hard),
        ],
        earnedFreezeEvery: 30)

    /// The packs that ship with Momentum, by name.
    public static let bundled: [String: RulePack] = ["habits": .habits]
}
