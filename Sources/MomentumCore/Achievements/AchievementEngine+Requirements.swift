import Foundation

/// Rules that require others (``AchievementRule/requires``): an unlock is held until every
/// rule its rule requires has unlocked at least once, then released right after the unlock
/// that completes them.
extension AchievementEngine {
    /// An unlock whose rule requires rules that have not all unlocked yet.
    struct HeldUnlock: Sendable {
        /// The unlock as its condition made it.
        var unlock: Unlock
        /// The ids of the rules it waits for.
        var requires: [String]
    }

    /// Grants `unlock`, or holds it while a rule in `requires` has never unlocked.
    mutating func record(_ unlock: Unlock, requires: [String]?) {
        if let requires, !requires.allSatisfy(unlockedRules.contains) {
            held.append(HeldUnlock(unlock: unlock, requires: requires))
            return
        }
        append(unlock)
    }

    /// Adds `unlock` to ``unlocks``; when it is its rule's first, releases each held unlock
    /// that was waiting only for it, right after it and at its moment.
    ///
    /// Each release is the first unlock of another rule, so a chain of requirements ends
    /// after at most as many releases as the pack has rules.
    mutating func append(_ unlock: Unlock) {
        unlocks.append(unlock)
        guard unlockedRules.insert(unlock.rule).inserted, !held.isEmpty else { return }
        while let index = held.firstIndex(where: { $0.requires.allSatisfy(unlockedRules.contains) }) {
            append(released(held.remove(at: index).unlock, by: unlock))
        }
    }

    /// A held unlock as it is granted when `last` completes its requirements: at `last`'s
    /// moment and on its event, unless its own condition was met later (a requirement
    /// found by a replay, dated earlier), with the value, title and context it was met with.
    private func released(_ waiting: Unlock, by last: Unlock) -> Unlock {
        var unlock = waiting
        if (last.achievedDay.number, last.achievedAt) > (waiting.achievedDay.number, waiting.achievedAt) {
            unlock.achievedAt = last.achievedAt
            unlock.achievedDay = last.achievedDay
            unlock.event = last.event
        }
        unlock.detectedAt = max(waiting.detectedAt, last.detectedAt)
        unlock.retroactive = clock.localDay(of: unlock.detectedAt, in: table).number > unlock.achievedDay.number
        return unlock
    }
}
