import Foundation
import MomentumCore
import MomentumStore

/// Profile statistics.
public struct ProfileStatsResponse: Codable, Sendable {
    /// The statistics.
    public var statistics: ProfileStatistics
    /// The consistency.
    public var consistency: ConsistencyScore
    /// The achievements.
    public var achievements: Int
    /// The events.
    public var events: Int
}

/// The answer to a purchase or a freeze decision.
public struct WalletChangeResponse: Codable, Sendable {
    /// The wallet.
    public var wallet: Wallet
    /// The ledger.
    public var ledger: [LedgerEntry]
}

/// The freeze store: what can be bought, and the user's balance.
public struct StoreResponse: Codable, Sendable {
    /// The catalog.
    public var catalog: StoreCatalog
    /// The wallet.
    public var wallet: Wallet
}

/// An achievement not unlocked yet.
public struct LockedAchievement: Codable, Sendable {
    /// The rule.
    public var rule: String
    /// The title.
    public var title: String
    /// The category.
    public var category: String
    /// The tier.
    public var tier: CelebrationTier
    /// The badge.
    public var badge: String?
}

/// Achievements, unlocked (with dates) and still locked.
public struct AchievementsResponse: Codable, Sendable {
    /// The unlocked.
    public var unlocked: [Unlock]
    /// The locked.
    public var locked: [LockedAchievement]
}
