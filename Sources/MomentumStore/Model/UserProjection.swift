import Foundation
import MomentumCore

/// Everything the projections hold for one user, as of their last write.
public struct UserProjection: Hashable, Sendable {
    /// How many days of calendar each stored habit row holds: a week. Longer calendars are
    /// evaluated from the engine when they are read (the server's habit details evaluate
    /// 90 days); storing 90 on every append cost more than the rest of the append.
    public static let calendarDays = 7

    /// The position of the last event in the log.
    public var headSeq: Int64
    /// Increases with every write to the user's projections.
    public var version: Int64
    /// When the projections were last evaluated.
    public var evaluatedAt: Date
    /// Diamonds and freezes.
    public var wallet: Wallet
    /// Each habit's state (its calendar holds the last ``calendarDays`` days), in creation
    /// order.
    public var habits: [HabitState]
    /// Every wallet movement, oldest first.
    public var ledger: [LedgerEntry]
    /// Every unlock, in the order achieved.
    public var unlocks: [Unlock]
    /// Memories with the user's notes and photos, oldest first.
    public var memories: [Memory]
    /// The subjects (pets, people, goals) the user logs about.
    public var subjects: [Subject]
    /// Stage timelines by method id.
    public var progression: [String: [ProgressionTimelineItem]]
    /// The celebration planner: what is queued, what was delivered.
    public var celebrations: CelebrationPlanner?

    /// Creates a projection.
    public init(
        headSeq: Int64, version: Int64, evaluatedAt: Date, wallet: Wallet, habits: [HabitState],
        ledger: [LedgerEntry], unlocks: [Unlock], memories: [Memory], subjects: [Subject],
        progression: [String: [ProgressionTimelineItem]], celebrations: CelebrationPlanner?
    ) {
        self.headSeq = headSeq
        self.version = version
        self.evaluatedAt = evaluatedAt
        self.wallet = wallet
        self.habits = habits
        self.ledger = ledger
        self.unlocks = unlocks
        self.memories = memories
        self.subjects = subjects
        self.progression = progression
        self.celebrations = celebrations
    }
}
