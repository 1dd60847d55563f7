import Foundation
import MomentumCore

/// What a candidate pack would change for one user: the unlocks they would gain and lose,
/// the celebrations the gains would create, and the diamonds and freezes that would move.
public struct RewardChange: Hashable, Sendable, Codable {
    /// Unlocks the candidate grants that the pack in force does not, oldest first.
    public var gained: [RewardUnlock]
    /// Unlocks the pack in force granted that the candidate would not, oldest first.
    public var lost: [RewardUnlock]
    /// Celebrations the gains would create (gains the user's celebration style shows).
    public var celebrations: Int
    /// The change of the diamonds held (candidate minus in force).
    public var diamonds: Int
    /// The change of the freezes held.
    public var freezes: Int
    /// The change of the diamonds rewards earned.
    public var diamondsEarned: Int
    /// The change of the freezes rewards earned.
    public var freezesEarned: Int

    /// Whether nothing would change.
    public var isEmpty: Bool {
        gained.isEmpty && lost.isEmpty && diamonds == 0 && freezes == 0 && diamondsEarned == 0 && freezesEarned == 0
    }

    /// Whether the candidate would take a reward the user earned: an unlock, or diamonds or
    /// freezes their rewards earned. The server keeps those (a `rewards.kept` event) before
    /// the candidate becomes active.
    public var takesRewards: Bool { !lost.isEmpty || diamondsEarned < 0 || freezesEarned < 0 }

    /// The change from `current` (the pack in force) to `candidate`.
    ///
    /// - Parameters:
    ///   - current: The user's rewards under the pack in force.
    ///   - candidate: Their rewards under the candidate, at the same instant.
    ///   - preferences: The user's celebration preferences: a gain their style does not
    ///     show creates no celebration.
    public static func between(
        _ current: RewardSnapshot, _ candidate: RewardSnapshot, preferences: CelebrationPreferences
    ) -> RewardChange {
        func order(_ unlocks: [RewardUnlock]) -> [RewardUnlock] {
            unlocks.sorted { ($0.achievedAt, $0.id) < ($1.achievedAt, $1.id) }
        }
        let gained = order(candidate.unlocks.values.filter { current.unlocks[$0.id] == nil })
        let lost = order(current.unlocks.values.filter { candidate.unlocks[$0.id] == nil })
        return RewardChange(
            gained: gained, lost: lost,
            celebrations: gained.count { preferences.style.presentedTier(for: $0.tier) != nil },
            diamonds: candidate.wallet.diamonds - current.wallet.diamonds,
            freezes: candidate.wallet.freezes - current.wallet.freezes,
            diamondsEarned: candidate.diamondsEarned - current.diamondsEarned,
            freezesEarned: candidate.freezesEarned - current.freezesEarned)
    }
}
