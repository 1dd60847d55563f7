import Foundation

extension CelebrationPlanner {
    /// The unlocks one input brought at one instant: queued by the same
    /// ``enqueue(_:messages:at:)``, achieved at the same instant and completed by the same
    /// event (or by none, as a habit's streak).
    struct MomentKey: Hashable {
        var enqueuedAt: Date
        var achievedAt: Date
        var event: String?

        init(_ entry: PendingCelebration) {
            enqueuedAt = entry.enqueuedAt
            achievedAt = entry.unlock.achievedAt
            event = entry.unlock.event
        }
    }

    /// The queue cut into moments, in the order their first celebration was queued; each
    /// moment lists indices of ``pending``, most significant first.
    ///
    /// Significance: the presented tier, then the tier earned, then a category with a theme of
    /// its own in `catalog` (a goal reached on a trip is themed, the savings milestone the
    /// same contribution crossed is not), then queue order.
    func moments(catalog: CelebrationCatalog) -> [[Int]] {
        var order: [MomentKey] = []
        var members: [MomentKey: [Int]] = [:]
        for index in pending.indices {
            let key = MomentKey(pending[index])
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(index)
        }
        return order.map { key in
            let indices = members[key] ?? []
            guard indices.count > 1 else { return indices }
            let ranks = indices.map { (index: $0, rank: significance(of: pending[$0], catalog: catalog)) }
            return ranks.sorted { lhs, rhs in
                lhs.rank != rhs.rank ? lhs.rank > rhs.rank : lhs.index < rhs.index
            }.map(\.index)
        }
    }

    /// The indices of ``pending`` that leave the queue with the celebration at `index` when it
    /// is shown: the rest of its moment when it is the moment's most significant celebration
    /// and a card or a full-screen celebration; nothing otherwise.
    func foldedIndices(into index: Int, catalog: CelebrationCatalog) -> [Int] {
        guard let presented = preferences.style.presentedTier(for: pending[index].unlock.tier),
            presented > .acknowledgment
        else { return [] }
        guard let moment = moments(catalog: catalog).first(where: { $0.contains(index) }), moment.first == index
        else { return [] }
        return Array(moment.dropFirst())
    }

    /// The line a folded celebration shows.
    func foldedLine(_ entry: PendingCelebration) -> FoldedCelebration {
        FoldedCelebration(
            id: entry.id, title: entry.unlock.title, message: entry.message ?? entry.unlock.title,
            badge: entry.unlock.badge, originalTier: entry.unlock.tier)
    }

    /// A celebration's rank within its moment; a larger rank is more significant.
    private func significance(of entry: PendingCelebration, catalog: CelebrationCatalog) -> (Int, Int, Int) {
        let presented = preferences.style.presentedTier(for: entry.unlock.tier)?.rawValue ?? 0
        let themed = catalog.categories[CelebrationCategory(entry.unlock.category)] != nil
        return (presented, entry.unlock.tier.rawValue, themed ? 1 : 0)
    }
}
