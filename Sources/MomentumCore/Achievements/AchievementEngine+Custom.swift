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

    /// What a change to the user's own milestones asks of the engine.
    enum CustomRuleChange: Equatable {
        /// Nothing changed.
        case none
        /// Titles, messages, tiers or badges changed: what is still to come reads them.
        case wording
        /// A milestone came, went or changed what makes it happen: the history must be
        /// read again.
        case conditions
    }

    /// Where a custom milestone's current generation began: the event that first defined
    /// it after its latest deletion.
    struct Generation: Equatable, Sendable {
        var event: String
        var serial: Int
    }

    /// Whether an event defines or deletes a milestone of the user's own.
    static func definesMilestones(_ payload: Event.Payload) -> Bool {
        switch payload {
        case .milestone, .milestoneDeleted: true
        default: false
        }
    }

    /// The unlock id of the custom milestone rule `r` in its current generation.
    func customUnlockID(of r: Int) -> String? {
        let milestone = String(rules[r].id.dropFirst(CustomMilestone.rulePrefix.count))
        return customGenerations[milestone].map { "\(rules[r].id)#\($0.event)" }
    }

    /// Makes the rules after the pack's those of the `milestone` events in the log, in the
    /// order they arrived: each milestone as the latest one defines it, none after a
    /// `milestone.deleted` until it is defined again (a new generation), in the order first
    /// defined.
    ///
    /// Habit scans are read again only when the milestones that read habits changed.
    ///
    /// - Returns: What changed.
    mutating func defineCustomRules() -> CustomRuleChange {
        var order: [String] = []
        var latest: [String: CustomMilestone] = [:]
        var generations: [String: Generation] = [:]
        for keyed in events.filter({ Self.definesMilestones($0.event.payload) }).sorted(by: { $0.serial < $1.serial }) {
            switch keyed.event.payload {
            case .milestone(let milestone):
                if latest.updateValue(milestone, forKey: milestone.id) == nil {
                    order.append(milestone.id)
                    generations[milestone.id] = Generation(event: keyed.event.id, serial: keyed.serial)
                }
            case .milestoneDeleted(let id):
                guard latest.removeValue(forKey: id) != nil else { continue }
                order.removeAll { $0 == id }
                generations[id] = nil
            default: break
            }
        }
        let defined = order.compactMap { latest[$0] }
        guard defined != customMilestones || generations != customGenerations else { return .none }
        func conditions(_ list: [CustomMilestone]) -> [CustomMilestone] {
            list.map {
                CustomMilestone(
                    id: $0.id, title: "", rule: $0.rule, kind: $0.kind, item: $0.item, breaks: $0.breaks,
                    breaksItem: $0.breaksItem, habit: $0.habit, target: $0.target)
            }
        }
        let change: CustomRuleChange =
            conditions(defined) == conditions(customMilestones) && generations == customGenerations
            ? .wording : .conditions
        let habitsBefore = conditions(customMilestones.filter { $0.habit != nil })
        customMilestones = defined
        customGenerations = generations
        rules.removeSubrange(packRuleCount...)
        customRuleIndex = [:]
        for milestone in defined {
            customRuleIndex[milestone.id] = rules.count
            rules.append(milestone.achievementRule)
        }
        indexRules()
        if conditions(defined.filter { $0.habit != nil }) != habitsBefore {
            // The habit rules changed: each habit's history is read again for them.
            habitScans = [:]
        }
        return change
    }

    /// How many `milestone` and `milestone.deleted` events the log holds.
    public var milestoneEventCount: Int {
        events.count { Self.definesMilestones($0.event.payload) }
    }

    /// The custom milestone with this id, as its latest event defines it.
    public func customMilestone(_ id: String) -> CustomMilestone? {
        customRuleIndex[id] == nil ? nil : customMilestones.first { $0.id == id }
    }

    /// The unlock of the custom milestone `id` as it is now defined, once it has happened
    /// (an unlock of an earlier generation, before it was deleted and defined again, is not
    /// its).
    public func unlock(ofMilestone id: String) -> Unlock? {
        guard let r = customRuleIndex[id], let unlockID = customUnlockID(of: r) else { return nil }
        return unlocks.first { $0.id == unlockID }
    }

    /// How far the custom milestone `id` has come: the count of matching logs or of days the
    /// habit was done, or the running streak; `nil` for moments, firsts and unknown ids.
    ///
    /// - Parameters:
    ///   - id: The milestone's id.
    ///   - engine: The user's streak engine, advanced to now (for habit rules).
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
