import Foundation

extension AchievementEngine {
    /// Evaluates the rules that read habit streaks (streak thresholds, personal bests,
    /// recoveries, days with every due habit done) against the engine's history.
    ///
    /// Habit history can change behind the latest day (a backfill, a removal), so the whole
    /// history is read each time; an occurrence already granted is never granted again.
    ///
    /// - Parameters:
    ///   - engine: The user's streak engine, advanced to `detectedAt`.
    ///   - detectedAt: When the change reached Momentum.
    /// - Returns: The new unlocks.
    @discardableResult
    public mutating func evaluateHabits(in engine: UserEngine, detectedAt: Date) -> [Unlock] {
        guard !habitRules.isEmpty else { return [] }
        let before = unlocks.count
        let count = engine.run.habits.count
        let table = ZoneOffsetTable.named(engine.latest?.zone ?? zone) ?? ZoneOffsetTable.named("UTC")!
        let today = max(clock.localDay(of: detectedAt, in: table).number, engine.run.openDay ?? Int.min)
        let clock = self.clock
        func achievedAt(_ day: Int) -> Date {
            let end = Date(timeIntervalSince1970: Double(clock.start(of: LocalDay(number: day + 1), in: table) - 1))
            return min(detectedAt, end)
        }
        // Each habit's days: (day, state, streak after it), closed days then today.
        var days: [[(day: Int, state: DayState, streak: Int)]] = []
        for h in 0..<count {
            let habit = engine.run.habits[h]
            var list = engine.histories[h].days.enumerated().map {
                (day: habit.startDay + $0.offset, state: $0.element.state, streak: Int($0.element.streak))
            }
            if habit.isActive(on: today), habit.dayCompleted {
                list.append((today, .completed, habit.current))
            }
            days.append(list)
        }
        for r in habitRules {
            let rule = rules[r]
            if rule.kind == .consistency {
                consistency(r, days, engine: engine, achievedAt: achievedAt, detectedAt: detectedAt)
                continue
            }
            for h in 0..<count {
                let definition = engine.run.definitions[h]
                if let only = rule.habit, only != definition.id { continue }
                if let difficulty = rule.difficulty, difficulty != definition.difficulty { continue }
                var previous = 0
                var bestBefore = 0
                var runBest = 0
                var runStart = 0
                var hadBreak = false
                for (day, _, streak) in days[h] {
                    if streak == 0 {
                        if previous > 0 {
                            hadBreak = true
                            bestBefore = max(bestBefore, runBest)
                            runBest = 0
                        }
                        previous = 0
                        continue
                    }
                    if previous == 0 { runStart = day }
                    defer {
                        previous = streak
                        runBest = max(runBest, streak)
                    }
                    guard streak == previous + 1 else { continue }
                    let context = ["habit": definition.name, "unit": Coaching.unit(definition.schedule)]
                    let value = Double(streak)
                    func fire(_ id: String, _ type: String) {
                        grant(
                            r, id: id, achievedAt: achievedAt(day), day: day, detectedAt: detectedAt, event: nil,
                            type: type, value: value, habit: definition.id, category: rule.category, context: context)
                    }
                    switch rule.kind {
                    case .streak:
                        let hit =
                            rule.at?.contains(value) == true
                            || rule.every.map {
                                value >= (rule.minimum ?? $0) && value.truncatingRemainder(dividingBy: $0) == 0
                            }
                                == true
                        if hit { fire("\(rule.id)#\(definition.id)#\(streak)", "streak") }
                    case .personalBest:
                        if bestBefore > 0, Double(bestBefore) >= (rule.minimum ?? 1), streak == bestBefore + 1 {
                            fire("\(rule.id)#\(definition.id)#\(LocalDay(number: runStart))", "streak_record")
                        }
                    case .recovery:
                        if hadBreak, let target = rule.at?.first, value == target {
                            fire("\(rule.id)#\(definition.id)#\(LocalDay(number: runStart))", "recovery")
                        }
                    default: break
                    }
                }
            }
        }
        return Array(unlocks[before...])
    }

    /// Runs of days on which every habit due was done (and at least one was due).
    private mutating func consistency(
        _ r: Int, _ days: [[(day: Int, state: DayState, streak: Int)]], engine: UserEngine,
        achievedAt: (Int) -> Date, detectedAt: Date
    ) {
        let rule = rules[r]
        guard let length = rule.days, let first = days.compactMap({ $0.first?.day }).min(),
            let last = days.compactMap({ $0.last?.day }).max()
        else { return }
        var run = 0
        var runStart = first
        for day in first...last {
            var due = 0
            var done = 0
            for h in days.indices {
                let start = engine.run.habits[h].startDay
                let index = day - start
                guard days[h].indices.contains(index) else { continue }
                switch days[h][index].state {
                case .completed:
                    due += 1
                    done += 1
                case .missed, .grace, .frozen: due += 1
                default: break
                }
            }
            if due > 0, done == due {
                if run == 0 { runStart = day }
                run += 1
                if run == length {
                    grant(
                        r, id: "\(rule.id)#\(LocalDay(number: runStart))", achievedAt: achievedAt(day), day: day,
                        detectedAt: detectedAt, event: nil, type: "consistency", value: Double(length),
                        category: rule.category, context: [:])
                }
            } else if due > 0 {
                run = 0
            }
        }
    }
}
