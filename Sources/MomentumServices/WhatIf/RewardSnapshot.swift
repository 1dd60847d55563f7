import Foundation
import MomentumCore
import MomentumStore

/// What a user has earned at one instant under one pack: their unlocks, their wallet, and
/// the diamonds and freezes their rewards earned (streak rewards, difficulty bonuses,
/// earned freezes and rewards kept at an earlier change of rules; not purchases or grants).
///
/// A what-if compares two of them for one user: under the pack in force and under a
/// candidate (``RewardChange/between(_:_:preferences:)``).
public struct RewardSnapshot: Hashable, Sendable {
    /// The unlocks, by their occurrence id (`Unlock.id`).
    public var unlocks: [String: RewardUnlock]
    /// Diamonds and freezes held.
    public var wallet: Wallet
    /// Diamonds paid by rewards so far (streak rewards, difficulty bonuses, kept credits).
    public var diamondsEarned: Int
    /// Freezes earned at streak milestones (or kept) so far.
    public var freezesEarned: Int

    /// The snapshot of an engine at `now`: its clock moved there first (closing days and
    /// firing the time-based achievements reached by then).
    public init(_ engine: inout MomentumUser, at now: Date) {
        engine.advance(to: now)
        let state = engine.state(at: now, calendarDays: 1)
        self.init(unlocks: engine.unlocks, wallet: state.wallet, ledger: state.ledger)
    }

    /// A snapshot from what a projection holds.
    public init(unlocks: [Unlock], wallet: Wallet, ledger: [LedgerEntry]) {
        var byID: [String: RewardUnlock] = [:]
        for unlock in unlocks { byID[unlock.id] = RewardUnlock(unlock) }
        self.unlocks = byID
        self.wallet = wallet
        // What the engine counts as earned when it keeps rewards (`rewards.kept`): streak
        // rewards, difficulty bonuses, earned freezes and earlier kept credits; not
        // purchases, grants or spent freezes.
        let earned: Set<LedgerEntry.Source> = [.reward, .difficultyBonus, .earnedFreeze, .kept]
        diamondsEarned = ledger.reduce(0) { $0 + (earned.contains($1.source) ? $1.diamonds : 0) }
        freezesEarned = ledger.reduce(0) { $0 + (earned.contains($1.source) ? $1.freezes : 0) }
    }
}

/// One unlock as a what-if reports it: which occurrence of which rule, its title, its
/// celebration tier and when it was achieved.
public struct RewardUnlock: Hashable, Sendable, Codable {
    /// The occurrence's id (`walks-every-25#50`), the key it is kept by.
    public var id: String
    /// The rule that fired.
    public var rule: String
    /// The achievement's title.
    public var title: String
    /// The celebration tier the rule asks for.
    public var tier: CelebrationTier
    /// When it was achieved.
    public var achievedAt: Date

    /// The summary of an unlock.
    public init(_ unlock: Unlock) {
        id = unlock.id
        rule = unlock.rule
        title = unlock.title
        tier = unlock.tier
        achievedAt = unlock.achievedAt
    }
}
