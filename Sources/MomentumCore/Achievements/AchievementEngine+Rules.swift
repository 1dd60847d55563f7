import Foundation

extension AchievementEngine {
    // MARK: - Rules over activities

    mutating func apply(_ r: Int, _ activity: Activity, _ keyed: Keyed, _ detectedAt: Date) {
        // Fields are read through `rules[r]` rather than a copy of the rule: this runs for
        // every event, and copying a rule retains all its arrays and strings.
        let matches =
            rules[r].match?.matches(activity) ?? (rules[r].kind == .amount && activity.kind == "contribution")
        switch rules[r].kind {
        case .first:
            guard matches else { return }
            grant(r, id: rules[r].id, keyed, detectedAt, type: "first", activity: activity)
        case .count:
            guard matches else { return }
            states[r].count += 1
            crossed(r, value: states[r].count, keyed, detectedAt, type: "count", activity: activity)
        case .distinctCount, .setCompleted:
            guard matches, let value = rules[r].field == "group" ? activity.group : activity.item,
                states[r].values.insert(value).inserted
            else { return }
            if rules[r].kind == .distinctCount {
                crossed(
                    r, value: Double(states[r].values.count), keyed, detectedAt, type: "count", activity: activity)
            } else if !states[r].fired, let items = rules[r].items, items.allSatisfy(states[r].values.contains) {
                states[r].fired = true
                grant(
                    r, id: rules[r].id, keyed, detectedAt, type: "set_completed", value: Double(items.count),
                    activity: activity)
            }
        case .amount:
            guard matches, let value = activity.value else { return }
            crossAmount(r, by: value, keyed, detectedAt, activity: activity)
        case .streak, .personalBest, .recovery:
            if let breaks = rules[r].breaks, breaks.matches(activity) {
                if states[r].current > 0 {
                    states[r].hadBreak = true
                    states[r].current = 0
                }
                states[r].lastGood = Int.min
                return
            }
            guard matches else { return }
            let day = keyed.day
            if day == states[r].lastGood { return }
            if states[r].lastGood == day - 1 {
                states[r].current += 1
            } else {
                if states[r].current > 0 { states[r].hadBreak = true }
                states[r].current = 1
            }
            if states[r].current == 1 {
                // A new run: the best so far becomes the record to beat.
                states[r].best = max(states[r].best, states[r].runPeak)
                states[r].runPeak = 0
                states[r].runStart = day
                states[r].runFired = false
            }
            states[r].runPeak = max(states[r].runPeak, states[r].current)
            states[r].lastGood = day
            streakReached(r, states[r].current, keyed, detectedAt, activity: activity)
        case .consistency:
            if keyed.day != states[r].day {
                states[r].day = keyed.day
                states[r].kinds = []
            }
            guard let required = rules[r].require, required.contains(activity.kind),
                states[r].kinds.insert(activity.kind).inserted, states[r].kinds.count == Set(required).count
            else { return }
            if states[r].lastComplete == keyed.day - 1 {
                states[r].completeRun += 1
            } else {
                states[r].completeRun = 1
                states[r].runStart = keyed.day
            }
            states[r].lastComplete = keyed.day
            if states[r].completeRun == rules[r].days {
                grant(
                    r, id: "\(rules[r].id)#\(LocalDay(number: states[r].runStart))", keyed, detectedAt,
                    type: "consistency",
                    value: Double(rules[r].days ?? 0), activity: nil)
            }
        default: break
        }
    }

    /// Thresholds and every-N for a value that grows by steps of 1.
    private mutating func crossed(
        _ r: Int, value: Double, _ keyed: Keyed, _ detectedAt: Date, type: String, activity: Activity
    ) {
        if let at = rules[r].at, at.contains(value) {
            grant(
                r, id: "\(rules[r].id)#\(Self.number(value))", keyed, detectedAt, type: type, value: value,
                activity: activity
            )
        }
        if let every = rules[r].every, value >= (rules[r].minimum ?? every),
            value.truncatingRemainder(dividingBy: every) == 0
        {
            grant(
                r, id: "\(rules[r].id)#\(Self.number(value))", keyed, detectedAt, type: type, value: value,
                activity: activity
            )
        }
    }

    /// Thresholds crossed by a total growing by `amount`.
    private mutating func crossAmount(
        _ r: Int, by amount: Double, _ keyed: Keyed, _ detectedAt: Date, activity: Activity
    ) {
        let before = states[r].sum
        states[r].sum += amount
        let after = states[r].sum
        var values = (rules[r].at ?? []).filter { before < $0 && $0 <= after }
        if let every = rules[r].every {
            var next = (before / every).rounded(.down) * every + every
            while next <= after {
                values.append(next)
                next += every
            }
        }
        for value in Set(values).sorted() {
            grant(
                r, id: "\(rules[r].id)#\(Self.number(value))", keyed, detectedAt, type: "amount", value: value,
                activity: activity)
        }
    }

    mutating func checkGoal(_ r: Int, _ goalID: String, _ keyed: Keyed, _ detectedAt: Date) {
        guard let goal = goals[goalID], goalSums[goalID, default: 0] >= goal.target,
            rules[r].goalCategory == nil || rules[r].goalCategory == goal.category
        else { return }
        grant(
            r, id: "\(rules[r].id)#\(goalID)", keyed, detectedAt, type: "goal_completed", value: goal.target,
            category: goal.category, activity: nil, context: ["goal": goal.name])
    }

    private mutating func streakReached(
        _ r: Int, _ streak: Int, _ keyed: Keyed, _ detectedAt: Date, activity: Activity
    ) {
        let value = Double(streak)
        switch rules[r].kind {
        case .streak:
            crossed(r, value: value, keyed, detectedAt, type: "streak", activity: activity)
        case .personalBest:
            // `best` is the best of earlier runs; the running one must pass it.
            if streak > states[r].best, !states[r].runFired, states[r].best > 0,
                Double(states[r].best) >= (rules[r].minimum ?? 1)
            {
                states[r].runFired = true
                grant(
                    r, id: "\(rules[r].id)#\(LocalDay(number: states[r].runStart))", keyed, detectedAt,
                    type: "streak_record", value: value, activity: activity)
            }
        case .recovery:
            if states[r].hadBreak, !states[r].runFired, let target = rules[r].at?.first, value == target {
                states[r].runFired = true
                grant(
                    r, id: "\(rules[r].id)#\(LocalDay(number: states[r].runStart))", keyed, detectedAt,
                    type: "recovery",
                    value: value, activity: activity)
            }
        default: break
        }
    }
}
