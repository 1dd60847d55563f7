import Foundation

extension UserEngine {
    /// The ledger sources that count as earned by rewards when a `rewards.kept` event
    /// compares what was earned: streak rewards, difficulty bonuses, earned freezes and
    /// earlier kept credits — not purchases, not grants, not spent freezes.
    static let earnedSources: Set<LedgerEntry.Source> = [.reward, .difficultyBonus, .earnedFreeze, .kept]

    /// Applies a `rewards.kept` event: when the diamonds or freezes earned by rewards up to
    /// it fall short of the numbers it keeps, credits the shortfall (a ledger entry of its
    /// own, ``LedgerEntry/Source/kept``). Under the rules that earned them the
    /// rewards are all there, and nothing changes.
    mutating func keepRewards(_ entry: Entry, on day: Int) {
        guard case .rewardsKept(let kept) = log[Int(entry.event)].payload else { return }
        var diamonds = 0
        var freezes = 0
        for record in ledger where Self.earnedSources.contains(record.source) {
            diamonds += record.diamonds
            freezes += record.freezes
        }
        let missingDiamonds = max(0, kept.diamondsEarned - diamonds)
        let missingFreezes = max(0, kept.freezesEarned - freezes)
        guard missingDiamonds > 0 || missingFreezes > 0 else { return }
        run.wallet.diamonds += missingDiamonds
        run.wallet.freezes += missingFreezes
        ledger.append(
            LedgerRecord(
                day: day, at: entry.at, source: .kept, diamonds: missingDiamonds, freezes: missingFreezes,
                diamondBalance: run.wallet.diamonds, freezeBalance: run.wallet.freezes, habit: -1, streak: 0,
                event: entry.event))
    }
}
