/// Which habit histories a rewind changed, and from which day on: what lets a reader of
/// the histories (the achievements) read only what is new instead of every day again
/// after each event.
///
/// Each rewind that changes something gets the next *epoch*; a reader remembers the epoch
/// it has read up to and asks for the changes since. Only the latest changes are kept: a
/// reader further behind is told to read everything again.
struct HistoryChanges: Sendable {
    struct Change: Sendable {
        var epoch: Int
        var habit: String
        /// The first index of the habit's history that changed (or was removed).
        var from: Int
    }

    /// The epoch of the latest change; 0 before any.
    private(set) var epoch = 0
    private var changes: [Change] = []
    /// The smallest epoch still listed (older changes were dropped).
    private var oldestKept = 1

    /// How many changes are kept.
    static let capacity = 1_024

    /// The changes after `seen`, or `nil` when some of them were dropped (read everything).
    func since(_ seen: Int) -> ArraySlice<Change>? {
        guard seen < epoch else { return [] }
        guard seen + 1 >= oldestKept else { return nil }
        let start = changes.firstIndex { $0.epoch > seen } ?? changes.endIndex
        return changes[start...]
    }

    /// Records one habit's history changed from an index on, outside a rewind.
    mutating func noteChanged(_ habit: String, from index: Int) {
        epoch += 1
        changes.append(Change(epoch: epoch, habit: habit, from: index))
        trim()
    }

    /// Records a habit whose whole history is new (evaluated without a rewind).
    mutating func noteAdded(_ habit: String) {
        epoch += 1
        changes.append(Change(epoch: epoch, habit: habit, from: 0))
        trim()
    }

    /// Compares the histories after a rewind with those before it and records, for each
    /// habit, the first day that differs.
    mutating func note(
        ids: [String], _ histories: [HabitHistory], before oldIDs: [String], _ oldHistories: [HabitHistory]
    ) {
        var oldIndex: [String: Int] = [:]
        for (index, id) in oldIDs.enumerated() where index < oldHistories.count { oldIndex[id] = index }
        var found: [Change] = []
        for (h, id) in ids.enumerated() where h < histories.count {
            let new = histories[h].days
            guard let o = oldIndex[id] else {
                found.append(Change(epoch: epoch + 1, habit: id, from: 0))
                continue
            }
            let old = oldHistories[o].days
            let common = min(old.count, new.count)
            var first = common
            for i in 0..<common where old[i].streak != new[i].streak || old[i].state != new[i].state {
                first = i
                break
            }
            if first < common || old.count > new.count {
                found.append(Change(epoch: epoch + 1, habit: id, from: first))
            }
        }
        guard !found.isEmpty else { return }
        epoch += 1
        changes += found
        trim()
    }

    private mutating func trim() {
        if changes.count > Self.capacity {
            changes.removeFirst(changes.count - Self.capacity)
            // The first epoch kept may have lost some of its changes: only later ones are whole.
            oldestKept = (changes.first?.epoch ?? epoch) + 1
        }
    }
}
