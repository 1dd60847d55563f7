import Foundation

extension AchievementEngine {
    /// What the habit rules have read of one habit's closed days: a fold over its history,
    /// so that each call reads only the days closed since the last one.
    struct HabitScan: Sendable {
        /// How many of the habit's closed days have been read.
        var scanned = 0
        var previous = 0
        var bestBefore = 0
        var runBest = 0
        var runStart = 0
        var hadBreak = false
        /// The days done so far (count rules).
        var done = 0
    }

    /// What a consistency rule has read of the days every habit shares.
    struct ConsistencyScan: Sendable {
        /// The next closed day to read; `Int.min` before the first.
        var next = Int.min
        var run = 0
        var runStart = 0
        /// The state at the start of every ``markInterval``-th day read, to resume from after
        /// a change behind.
        var marks: [(day: Int, run: Int, runStart: Int)] = []
    }

    /// Consistency scans remember their state every this many days.
    static let markInterval = 64

    /// Evaluates the rules that read habit streaks (streak thresholds, personal bests,
    /// recoveries, days with every due habit done) against the engine's history.
    ///
    /// Closed days are read once: each call reads the days closed since the previous one,
    /// and again only the days a rewind of the engine changed (a backfill, a removal, a
    /// habit started in the past), so that appending a batch of events costs time linear
    /// in its size. The open day is read as it stands. An occurrence already granted is
    /// never granted again. Use one achievement engine with one streak engine, as
    /// ``MomentumUser`` does.
    ///
    /// - Parameters:
    ///   - engine: The user's streak engine, advanced to `detectedAt`.
    ///   - detectedAt: When the change reached Momentum.
    /// - Returns: The new unlocks.
    @discardableResult
    public mutating func evaluateHabits(in engine: UserEngine, detectedAt: Date) -> [Unlock] {
        guard !habitRules.isEmpty else { return [] }
        let before = unlocks.count
        forgetChanged(in: engine)
        let count = engine.run.habits.count
        let table = ZoneOffsetTable.named(engine.latest?.zone ?? zone) ?? ZoneOffsetTable.named("UTC")!
        let today = max(clock.localDay(of: detectedAt, in: table).number, engine.run.openDay ?? Int.min)
        let clock = self.clock
        func achievedAt(_ day: Int) -> Date {
            let end = Date(timeIntervalSince1970: Double(clock.start(of: LocalDay(number: day + 1), in: table) - 1))
            return min(detectedAt, end)
        }
        // The open day, for habits already done on it: (state, streak after it).
        func openDay(_ h: Int) -> Int? {
            let habit = engine.run.habits[h]
            return habit.isActive(on: today) && habit.dayCompleted ? habit.current : nil
        }
        for (k, r) in habitRules.enumerated() {
            if rules[r].kind == .consistency {
                consistency(
                    r, engine: engine, today: today, open: openDay, achievedAt: achievedAt, detectedAt: detectedAt)
                continue
            }
            for h in 0..<count {
                let definition = engine.run.definitions[h]
                if let only = rules[r].habit, only != definition.id { continue }
                if let difficulty = rules[r].difficulty, difficulty != definition.difficulty { continue }
                let start = engine.run.habits[h].startDay
                var scans = habitScans[definition.id] ?? []
                if scans.count != habitRules.count { scans = Array(repeating: HabitScan(), count: habitRules.count) }
                var scan = scans[k]
                let days = engine.histories[h].days
                if scan.scanned > days.count { scan = HabitScan() }
                while scan.scanned < days.count {
                    let index = scan.scanned
                    read(
                        r, &scan, day: start + index, streak: Int(days[index].streak),
                        done: days[index].state == .completed, definition: definition, achievedAt: achievedAt,
                        detectedAt: detectedAt)
                    scan.scanned += 1
                }
                scans[k] = scan
                habitScans[definition.id] = scans
                if let streak = openDay(h) {
                    var open = scan
                    read(
                        r, &open, day: today, streak: streak, done: true, definition: definition,
                        achievedAt: achievedAt, detectedAt: detectedAt)
                }
            }
        }
        return Array(unlocks[before...])
    }

    /// Drops what was read of days the engine has since evaluated differently.
    private mutating func forgetChanged(in engine: UserEngine) {
        defer { scannedEpoch = engine.historyChanges.epoch }
        guard let changes = engine.historyChanges.since(scannedEpoch) else {
            habitScans = [:]
            consistencyScans = [:]
            return
        }
        guard !changes.isEmpty else { return }
        var startByID: [String: Int] = [:]
        for (h, definition) in engine.run.definitions.enumerated() where h < engine.run.habits.count {
            startByID[definition.id] = engine.run.habits[h].startDay
        }
        var earliest = Int.max
        for change in changes {
            if let scans = habitScans[change.habit], scans.contains(where: { $0.scanned > change.from }) {
                habitScans[change.habit] = nil
            }
            if let start = startByID[change.habit] { earliest = min(earliest, start + change.from) }
        }
        guard earliest != .max else { return }
        for r in Array(consistencyScans.keys) {
            guard var scan = consistencyScans[r], earliest < scan.next else { continue }
            scan.marks.removeAll { $0.day > earliest }
            if let mark = scan.marks.popLast() {
                scan.next = mark.day
                scan.run = mark.run
                scan.runStart = mark.runStart
                consistencyScans[r] = scan
            } else {
                consistencyScans[r] = nil
            }
        }
    }

    /// Reads one day of a habit for a streak, personal-best, recovery or count rule.
    private mutating func read(
        _ r: Int, _ scan: inout HabitScan, day: Int, streak: Int, done: Bool, definition: HabitDefinition,
        achievedAt: (Int) -> Date, detectedAt: Date
    ) {
        if rules[r].kind == .count {
            guard done else { return }
            scan.done += 1
            let value = Double(scan.done)
            guard rules[r].fires(at: value) else { return }
            grant(
                r, id: "\(rules[r].id)#\(definition.id)#\(scan.done)", achievedAt: achievedAt(day), day: day,
                detectedAt: detectedAt, event: nil, type: "count", value: value, habit: definition.id,
                category: rules[r].category,
                context: ["habit": definition.name, "unit": Coaching.unit(definition.schedule)])
            return
        }
        if streak == 0 {
            if scan.previous > 0 {
                scan.hadBreak = true
                scan.bestBefore = max(scan.bestBefore, scan.runBest)
                scan.runBest = 0
            }
            scan.previous = 0
            return
        }
        if scan.previous == 0 { scan.runStart = day }
        defer {
            scan.previous = streak
            scan.runBest = max(scan.runBest, streak)
        }
        guard streak == scan.previous + 1 else { return }
        let rule = rules[r]
        let value = Double(streak)
        func fire(_ id: String, _ type: String) {
            let context = ["habit": definition.name, "unit": Coaching.unit(definition.schedule)]
            grant(
                r, id: id, achievedAt: achievedAt(day), day: day, detectedAt: detectedAt, event: nil,
                type: type, value: value, habit: definition.id, category: rule.category, context: context)
        }
        switch rule.kind {
        case .streak:
            if rule.fires(at: value) { fire("\(rule.id)#\(definition.id)#\(streak)", "streak") }
        case .personalBest:
            if scan.bestBefore > 0, Double(scan.bestBefore) >= (rule.minimum ?? 1), streak == scan.bestBefore + 1 {
                fire("\(rule.id)#\(definition.id)#\(LocalDay(number: scan.runStart))", "streak_record")
            }
        case .recovery:
            if scan.hadBreak, let target = rule.at?.first, value == target {
                fire("\(rule.id)#\(definition.id)#\(LocalDay(number: scan.runStart))", "recovery")
            }
        default: break
        }
    }

    /// Runs of days on which every habit due was done (and at least one was due).
    private mutating func consistency(
        _ r: Int, engine: UserEngine, today: Int, open openDay: (Int) -> Int?, achievedAt: (Int) -> Date,
        detectedAt: Date
    ) {
        guard let length = rules[r].days else { return }
        let habits = engine.run.habits
        let histories = engine.histories
        var first = Int.max
        var last = Int.min
        for h in habits.indices {
            let count = histories[h].days.count
            guard count > 0 || openDay(h) != nil else { continue }
            first = min(first, habits[h].startDay)
            if count > 0 { last = max(last, habits[h].startDay + count - 1) }
        }
        guard first != .max else { return }
        var scan = consistencyScans[r] ?? ConsistencyScan()
        if scan.next == .min {
            scan.next = first
            scan.runStart = first
        }
        func step(_ scan: inout ConsistencyScan, _ day: Int, _ due: Int, _ done: Int) {
            if due > 0, done == due {
                if scan.run == 0 { scan.runStart = day }
                scan.run += 1
                if scan.run == length {
                    grant(
                        r, id: "\(rules[r].id)#\(LocalDay(number: scan.runStart))", achievedAt: achievedAt(day),
                        day: day, detectedAt: detectedAt, event: nil, type: "consistency", value: Double(length),
                        category: rules[r].category, context: [:])
                }
            } else if due > 0 {
                scan.run = 0
            }
        }
        if scan.next <= last {
            // Tallied habit by habit, each history read in order: a change far back (a habit
            // started in the past) re-reads every habit's days at memory speed.
            let base = scan.next
            var due = [Int32](repeating: 0, count: last - base + 1)
            var done = due
            for h in habits.indices {
                let start = habits[h].startDay
                let days = histories[h].days
                let from = max(base, start)
                let to = min(last, start + days.count - 1)
                guard from <= to else { continue }
                for day in from...to {
                    switch days[day - start].state {
                    case .completed:
                        due[day - base] += 1
                        done[day - base] += 1
                    case .missed, .grace, .frozen: due[day - base] += 1
                    default: break
                    }
                }
            }
            for day in base...last {
                if day % Self.markInterval == 0 { scan.marks.append((day, scan.run, scan.runStart)) }
                step(&scan, day, Int(due[day - base]), Int(done[day - base]))
            }
            scan.next = last + 1
        }
        consistencyScans[r] = scan
        if today >= scan.next {
            // On the open day only habits already done count, each as done.
            var open = scan
            let doneToday = habits.indices.count { openDay($0) != nil }
            step(&open, today, doneToday, doneToday)
        }
    }
}

extension AchievementRule {
    /// Whether a count or streak that has just reached `value` fires: one of `at`, or a
    /// multiple of `every` from `minimum` on.
    func fires(at value: Double) -> Bool {
        at?.contains(value) == true
            || every.map { value >= (minimum ?? $0) && value.truncatingRemainder(dividingBy: $0) == 0 } == true
    }
}
