import Foundation

/// One movement of diamonds or freezes, with its reason and source.
public struct LedgerEntry: Hashable, Sendable, Codable {
    /// Where a movement came from.
    public enum Source: String, Hashable, Sendable, Codable {
        /// Diamonds paid for a streak milestone.
        case reward
        /// Freezes bought with diamonds.
        case purchase
        /// A freeze spent protecting a missed period.
        case freezeUsed
        /// A freeze earned at a streak milestone (every 30 days in the `habits` pack).
        case earnedFreeze
        /// Extra diamonds for sustaining a habit of a given difficulty (hard habits in the
        /// `habits` pack).
        case difficultyBonus
        /// Diamonds or freezes an operator gave (a `grant` event); the reason is the grant's.
        case grant
        /// The shortfall credited so that rewards earned under a pack's earlier rules are
        /// kept (a `rewards.kept` event).
        case kept
    }

    /// The local day the movement belongs to.
    public var day: LocalDay
    /// The instant of the event that caused it; `nil` for freezes spent when a day closed.
    public var at: Date?
    /// Where it came from.
    public var source: Source
    /// Change in diamonds (negative for purchases).
    public var diamonds: Int
    /// Change in freezes (negative when one is used).
    public var freezes: Int
    /// Diamonds after this entry.
    public var diamondBalance: Int
    /// Freezes after this entry.
    public var freezeBalance: Int
    /// A sentence for people ("10-day streak on Read").
    public var reason: String
    /// The habit concerned, if any.
    public var habit: String?
    /// The streak value reached, for rewards and earned freezes.
    public var streak: Int?
    /// The id of the event that caused it, if any.
    public var event: String?
}

/// A user's diamonds and shared freeze pool.
public struct Wallet: Hashable, Sendable, Codable {
    /// Diamonds available to spend.
    public var diamonds: Int
    /// Freeze days in the shared pool.
    public var freezes: Int

    /// Creates a wallet.
    public init(diamonds: Int = 0, freezes: Int = 0) {
        self.diamonds = diamonds
        self.freezes = freezes
    }
}
