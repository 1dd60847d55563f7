import Foundation

/// How far a custom milestone's count or streak has come (`42` of `100` walks).
public struct MilestoneProgress: Hashable, Sendable, Codable {
    /// The count so far, or the running streak, never more than ``target``.
    public var current: Int
    /// The count or streak length that makes it happen.
    public var target: Int

    /// Creates a progress value.
    public init(current: Int, target: Int) {
        self.current = current
        self.target = target
    }
}

extension AchievementEngine {
    /// The rule id of a custom milestone.
    static func ruleID(of milestone: CustomMilestone) -> String { CustomMilestone.rulePrefix + milestone.id }

    /// Makes the rules after the pack's those of the `milestone` events in the log, each as
    /// its latest event defines it, in the order first defined. Nothing is reset when they
    /// are unchanged.
    mutating func defineCustomRules() {
        var order: [String] = []
        var latest: [String: CustomMilestone] = [:]
        for keyed in events {
            guard case .milestone(let milestone) = keyed.event.payload else { continue }
            if latest.updateValue(milestone, forKey: milestone.id) == nil { order.append(milestone.id) }
        }
        let defined = order.compactMap { latest[$0] }
        guard defined != customMilestones else { return }
        customMilestones = defined
        rules.removeSubrange(packRuleCount...)
        customRuleIndex = [:]
        for milestone in defined {
            customRuleIndex[milestone.id] = rules.count
            rules.append(milestone.achievementRule)
        }
        indexRules()
        // Habit rules read every habit's history again with the new set of rules.
        habitScans = [:]
        consistencyScans = [:]
    }

    /// The custom milestone with this id, as its latest event defines it.
    public func customMilestone(_ id: String) -> CustomMilestone? {
        customRuleIndex[id] == nil ? nil : customMilestones.first { $0.id == id }
    }

    /// The first unlock of the custom milestone `id`, once it has happened.
    public func unlock(ofMilestone id: String) -> Unlock? {
        let rule = CustomMilestone.rulePrefix + id
        return unlocks.first { $0.rule == rule }
    }

    /// How far the custom milestone `id` has come: the count of matching logs or of days the
    /// habit was done, or the running streak; `nil` for moments, firsts and unknown ids.
    ///
    /// - Parameter engine: The user's streak engine, advanced to now (for habit rules).
    public func progress(ofMilestone id: String, in engine: UserEngine) -> MilestoneProgress? {
        guard let r = customRuleIndex[id], let milestone = customMilestone(id), let target = milestone.target
        else { return nil }
        let current: Int
        if let habit = milestone.habit {
            guard let h = engine.run.definitions.firstIndex(where: { $0.id == habit }), h < engine.run.habits.count
            else { return MilestoneProgress(current: 0, target: target) }
            let run = engine.run.habits[h]
            if milestone.rule == .count {
                let closed = engine.histories[h].days.count { $0.state == .completed }
                current = closed + (run.dayCompleted ? 1 : 0)
            } else {
                current = run.current
            }
        } else if milestone.rule == .count {
            current = Int(min(states[r].count, Double(target)))
        } else {
            current = states[r].lastGood >= clockDay - 1 ? states[r].current : 0
        }
        return MilestoneProgress(current: min(max(0, current), target), target: target)
    }
}
