import Foundation

extension AchievementEngine {
    /// The `milestoneType` of an unlock a `rewards.kept` event kept: earned under rules that
    /// have since changed.
    public static let keptMilestoneType = "kept"

    /// Adds each unlock `kept` lists that this engine has not earned by itself: earned under
    /// the pack's earlier version, kept when the version changed (a rule change never takes
    /// away a reward already earned). It keeps its title and date, is marked retroactive with
    /// the milestone type ``keptMilestoneType``, and is never returned as a new unlock, so it
    /// is never celebrated again. An unlock the current rules earn as well stays as they
    /// earned it.
    mutating func keep(_ kept: KeptRewards, event: Event, table: ZoneOffsetTable, detectedAt: Date) {
        for listed in kept.unlocks where granted.insert(listed.key).inserted {
            let rule = rules.first { $0.id == listed.rule }
            append(
                Unlock(
                    id: listed.key, rule: listed.rule, title: listed.title,
                    category: rule?.category ?? "streaks", tier: rule?.tier ?? .acknowledgment,
                    milestoneType: Self.keptMilestoneType, achievedAt: listed.at,
                    achievedDay: clock.localDay(of: listed.at, in: table), detectedAt: max(detectedAt, event.at),
                    retroactive: true, event: event.id, badge: rule?.badge,
                    context: ["pack": kept.pack, "version": kept.version]))
        }
    }
}
