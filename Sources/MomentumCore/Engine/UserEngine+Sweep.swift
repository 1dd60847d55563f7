import Foundation

/// The day-by-day sweep: applying events, closing days, checkpoints and rewinding.
extension UserEngine {
    /// Applies entries from an index to the end of the log.
    mutating func sweep(from index: Int) {
        var i = index
        let count = entries.count
        while i < count {
            let entry = entries[i]
            if entry.day != run.openDay { advanceOpenDay(to: entry.day) }
            apply(entry)
            i += 1
        }
    }

    /// Closes every day before `day` and opens `day`.
    mutating func advanceOpenDay(to day: Int) {
        guard let open = run.openDay else {
            run.openDay = day
            if day % Self.checkpointInterval == 0 { takeCheckpoint(day) }
            return
        }
        guard day > open else { return }
        var d = open
        while d < day {
            closeDay(d)
            d += 1
            run.openDay = d
            if d % Self.checkpointInterval == 0 { takeCheckpoint(d) }
        }
    }

    private mutating func takeCheckpoint(_ day: Int) {
        run.ledgerCount = ledger.count
        run.rejectedCount = rejected.count
        run.offerCount = offers.count
        checkpoints.append(Checkpoint(day: day, run: run))
    }

    /// Re-evaluates from the checkpoint at or before `day`, then closes the days that were
    /// closed before.
    mutating func rewind(to day: Int) {
        let previousOpen = run.openDay
        // What the histories were, to tell readers which days the rewind really changed
        // (copy-on-write: the arrays are copied only when truncated below).
        let previousIDs = run.definitions.map(\.id)
        let previousHistories = histories
        defer { historyChanges.note(ids: run.definitions.map(\.id), histories, before: previousIDs, previousHistories) }
        var start = 0
        if let index = checkpoints.lastIndex(where: { $0.day <= day }) {
            let checkpoint = checkpoints[index]
            checkpoints.removeSubrange((index + 1)...)
            run = checkpoint.run
            ledger.removeLast(ledger.count - run.ledgerCount)
            rejected.removeLast(rejected.count - run.rejectedCount)
            offers.removeLast(offers.count - run.offerCount)
            histories.removeLast(histories.count - run.habits.count)
            for i in histories.indices { histories[i].truncate(to: checkpoint.day - run.habits[i].startDay) }
            var low = 0
            var high = entries.count
            while low < high {
                let mid = (low + high) / 2
                if entries[mid].day < checkpoint.day { low = mid + 1 } else { high = mid }
            }
            start = low
        } else {
            run = RunState()
            histories = []
            ledger = []
            rejected = []
            offers = []
            checkpoints = []
        }
        sweep(from: start)
        if let previousOpen { advanceOpenDay(to: previousOpen) }
    }

    /// Evaluates a habit created with a start before the open day alone, without
    /// rewinding the others, when that gives the same result as a rewind.
    ///
    /// A habit that sorts after every other in creation order and has no event of its own
    /// yet keeps a streak of 0 until its first completion: it earns nothing, spends no
    /// freeze and is offered none, so no other habit and not the wallet can change. Only
    /// its own days need judging (rest days for all habits and travel still apply), and the
    /// checkpoints after its start must hold it. This keeps a batch of habits started in
    /// the past linear in its size; anything else rewinds.
    ///
    /// - Returns: `false`, changing nothing, when the entry is not such a habit.
    mutating func catchUp(_ entry: Entry) -> Bool {
        guard entry.operation == .create, let open = run.openDay, entry.day < open,
            Int(entry.habit) == run.habits.count, histories.count == run.habits.count,
            case .habitCreated(let definition) = log[Int(entry.event)].payload
        else { return false }
        insert(entry)
        let h = run.habits.count
        let start = entry.day
        run.habits.append(
            HabitRun(definition: definition, policy: definition.policy ?? pack.defaultPolicy, startDay: start))
        run.definitions.append(definition)
        let segments = [ScheduleSegment(from: LocalDay(number: start), schedule: definition.schedule)]
        run.schedules.append(segments)
        var history = HabitHistory()
        history.days.reserveCapacity(open - start + 1)
        histories.append(history)
        var restDays: Set<Int> = []
        for other in entries where other.operation == .skipAll && other.day >= start { restDays.insert(other.day) }
        // Checkpoints hold the run at the start of their day, before its events.
        var next = checkpoints.firstIndex { $0.day > start } ?? checkpoints.endIndex
        for day in start...open {
            while next < checkpoints.endIndex, checkpoints[next].day <= day {
                if checkpoints[next].day == day {
                    checkpoints[next].run.habits.append(run.habits[h])
                    checkpoints[next].run.definitions.append(definition)
                    checkpoints[next].run.schedules.append(segments)
                }
                next += 1
            }
            if restDays.contains(day) { run.habits[h].daySkipped = true }
            if day < open { closeDay(day, only: h) }
        }
        historyChanges.noteAdded(definition.id)
        return true
    }

    // MARK: - Events

    mutating func apply(_ entry: Entry) {
        let day = run.openDay!
        let h = Int(entry.habit)
        switch entry.operation {
        case .create:
            guard case .habitCreated(let definition) = log[Int(entry.event)].payload else { return }
            run.habits.append(
                HabitRun(definition: definition, policy: definition.policy ?? pack.defaultPolicy, startDay: day))
            run.definitions.append(definition)
            run.schedules.append([ScheduleSegment(from: LocalDay(number: day), schedule: definition.schedule)])
            var history = HabitHistory()
            if let last = entries.last, last.day > day { history.days.reserveCapacity(last.day - day + 1) }
            histories.append(history)
        case .update:
            guard case .habitUpdated(let changes) = log[Int(entry.event)].payload else { return }
            if let name = changes.name { run.definitions[h].name = name }
            if let category = changes.category { run.definitions[h].category = category }
            if let group = changes.group { run.definitions[h].group = group.isEmpty ? nil : group }
            if let difficulty = changes.difficulty { run.definitions[h].difficulty = difficulty }
            if let target = changes.target {
                run.definitions[h].target = target
                run.habits[h].comparison = target.comparison
                run.habits[h].amount = target.amount
            }
            if let policy = changes.policy {
                run.definitions[h].policy = policy
                run.habits[h].apply(policy)
            }
            if let schedule = changes.schedule, schedule != run.definitions[h].schedule {
                // Applied before anything else of its day (it sorts first): the old rule's
                // period under way is judged on the days it had, then the new rule begins.
                cutPeriod(h, before: day)
                run.definitions[h].schedule = schedule
                run.habits[h].reschedule(schedule, from: max(day, run.habits[h].startDay))
                run.schedules[h].append(ScheduleSegment(from: LocalDay(number: day), schedule: schedule))
            }
        case .archive:
            if run.habits[h].archivedDay == .max { run.habits[h].archivedDay = day }
        case .unarchive:
            unarchive(h, on: day)
        case .complete:
            guard run.habits[h].isActive(on: day) else {
                rejected.append(
                    Rejection(
                        event: log[Int(entry.event)].id, code: .habitArchived,
                        message: "habit '\(run.definitions[h].id)' was archived before \(LocalDay(number: day))"))
                return
            }
            run.habits[h].dayTotal += entry.value
            run.habits[h].dayLogged = true
            if !run.habits[h].dayCompleted, run.habits[h].targetMetNow {
                run.habits[h].dayCompleted = true
                completedDay(h, day, at: entry.at, event: entry.event)
            }
        case .skip:
            run.habits[h].daySkipped = true
        case .skipAll:
            for i in run.habits.indices { run.habits[i].daySkipped = true }
        case .purchase:
            let freezes = Int(entry.freezes)
            let diamonds = Int(entry.diamonds)
            guard run.wallet.diamonds >= diamonds else {
                rejected.append(
                    Rejection(
                        event: log[Int(entry.event)].id, code: .insufficientDiamonds,
                        message: "\(freezes) freeze days cost \(diamonds) 💎; the wallet holds \(run.wallet.diamonds)"))
                return
            }
            run.wallet.diamonds -= diamonds
            run.wallet.freezes += freezes
            record(day, at: entry.at, .purchase, diamonds: -diamonds, freezes: freezes, event: entry.event)
        case .grant:
            let diamonds = Int(entry.diamonds)
            let freezes = Int(entry.freezes)
            run.wallet.diamonds += diamonds
            run.wallet.freezes += freezes
            record(day, at: entry.at, .grant, diamonds: diamonds, freezes: freezes, event: entry.event)
        case .kept:
            keepRewards(entry, on: day)
        case .decision, .record, .pause, .resume, .order, .amnesty, .amnestyLifted:
            break
        }
    }

    /// Tracks an archived habit again from `day` (nothing, if it is not archived): the days
    /// it was archived are recorded as such, the streak stands as it was, and a weekly,
    /// monthly or N-day schedule starts a fresh period on `day`.
    private mutating func unarchive(_ h: Int, on day: Int) {
        let archived = run.habits[h].archivedDay
        guard archived != .max, archived <= day else { return }
        let streak = Int32(clamping: run.habits[h].current)
        let closed = run.habits[h].startDay + histories[h].days.count
        for _ in max(closed, run.habits[h].startDay)..<max(day, closed) {
            histories[h].days.append(DayRecord(streak: streak, state: .archived))
        }
        run.habits[h].archivedDay = .max
        run.habits[h].resetDay()
        run.habits[h].reschedule(run.definitions[h].schedule, from: max(day, run.habits[h].startDay))
    }

    /// Judges a weekly, monthly or N-day period under way when its schedule changes at the
    /// start of `day`: on the days it had before `day` (its quota capped at those days, less
    /// rest days), as if it ended the day before. The day before's record takes the outcome.
    private mutating func cutPeriod(_ h: Int, before day: Int) {
        let habit = run.habits[h]
        guard habit.multiDay, !habit.periodSucceeded, habit.periodStart < day, day <= habit.periodEnd else { return }
        let last = day - 1
        let had = last - max(habit.periodStart, habit.anchor) + 1 - habit.periodSkipped
        let required = min(habit.quota, had)
        guard required > 0 else { return }
        let index = last - habit.startDay
        guard histories[h].days.indices.contains(index) else { return }
        var state = histories[h].days[index].state
        if habit.periodDone >= required {
            run.habits[h].periodSucceeded = true
            succeed(h, last, at: nil, event: -1)
        } else {
            let outcome = fail(h, last)
            if state != .completed, !state.isRest { state = outcome }
        }
        histories[h].days[index] = DayRecord(streak: Int32(clamping: run.habits[h].current), state: state)
        historyChanges.noteChanged(run.definitions[h].id, from: index)
    }

    /// A day met its target: count it towards the period, and extend the streak when the
    /// period is fulfilled.
    private mutating func completedDay(_ h: Int, _ day: Int, at: Double?, event: Int32) {
        if run.habits[h].multiDay {
            run.habits[h].periodDone += 1
            if !run.habits[h].periodSucceeded, run.habits[h].periodDone >= run.habits[h].periodRequired {
                run.habits[h].periodSucceeded = true
                succeed(h, day, at: at, event: event)
            }
        } else if run.habits[h].isDue(day) {
            succeed(h, day, at: at, event: event)
        }
    }

    private mutating func succeed(_ h: Int, _ day: Int, at: Double?, event: Int32) {
        run.habits[h].current += 1
        run.habits[h].gap = 0
        let streak = run.habits[h].current
        if streak > run.habits[h].best { run.habits[h].best = streak }
        guard streak > run.habits[h].highest else { return }
        run.habits[h].highest = streak
        for reward in pack.rewards where streak % reward.every == 0 {
            let payout =
                reward.difficulty == nil
                ? reward.payout(at: streak) : reward.payout(at: streak, difficulty: run.definitions[h].difficulty)
            guard payout > 0 else { continue }
            run.wallet.diamonds += payout
            record(
                day, at: at, reward.difficulty == nil ? .reward : .difficultyBonus, diamonds: payout, freezes: 0,
                habit: h, streak: streak, event: event)
        }
        if let every = pack.earnedFreezeEvery, streak % every == 0 {
            run.wallet.freezes += 1
            record(day, at: at, .earnedFreeze, diamonds: 0, freezes: 1, habit: h, streak: streak, event: event)
        }
    }

    // MARK: - Closing a day

    /// Judges every habit's day: successes first (they may earn freezes), then misses in
    /// creation order, drawing on the shared freeze pool.
    ///
    /// - Parameters:
    ///   - day: The day to close.
    ///   - only: One habit to close the day of, alone (``catchUp(_:)``); `nil` for all.
    mutating func closeDay(_ day: Int, only: Int? = nil) {
        let count = run.habits.count
        guard count > 0 else { return }
        let travel = !travelSkipped.isEmpty && travelSkipped.contains(day)
        scratchFailing.removeAll(keepingCapacity: true)
        for h in only.map({ $0..<($0 + 1) }) ?? 0..<count where run.habits[h].isActive(on: day) {
            var state: DayState
            var failing = false
            if run.habits[h].dayCompleted {
                state = .completed
            } else if run.habits[h].atMostKept {
                run.habits[h].dayCompleted = true
                state = .completed
                completedDay(h, day, at: nil, event: -1)
            } else if isCovered(day) {
                // An outage's day (an amnesty): the streak stands, no freeze is spent, and a
                // period's quota is lowered as by a rest day.
                state = .covered
                if run.habits[h].multiDay { run.habits[h].periodSkipped += 1 }
            } else if isPaused(h, day) {
                state = .paused
                if run.habits[h].multiDay { run.habits[h].periodSkipped += 1 }
            } else if run.habits[h].daySkipped || travel {
                state = .skipped
                if run.habits[h].multiDay { run.habits[h].periodSkipped += 1 }
            } else if run.habits[h].multiDay || !run.habits[h].isDue(day) {
                state = .notDue
            } else {
                state = .missed
                failing = true
            }
            if run.habits[h].multiDay, day == run.habits[h].periodEnd, !run.habits[h].periodSucceeded {
                let required = run.habits[h].periodRequired
                if required > 0 {
                    if run.habits[h].periodDone >= required {
                        run.habits[h].periodSucceeded = true
                        succeed(h, day, at: nil, event: -1)
                    } else {
                        failing = true
                    }
                }
            }
            if failing {
                scratchFailing.append((h, state))
            } else {
                finish(h, day, state)
            }
        }
        for i in scratchFailing.indices {
            let (h, provisional) = scratchFailing[i]
            let outcome = fail(h, day)
            finish(h, day, provisional == .completed || provisional.isRest ? provisional : outcome)
        }
    }

    /// Records a habit's closed day and gets it ready for the next.
    private mutating func finish(_ h: Int, _ day: Int, _ state: DayState) {
        histories[h].days.append(DayRecord(streak: Int32(clamping: run.habits[h].current), state: state))
        run.habits[h].resetDay()
        if run.habits[h].multiDay, day == run.habits[h].periodEnd { run.habits[h].startPeriod(containing: day + 1) }
    }

    private mutating func fail(_ h: Int, _ day: Int) -> DayState {
        run.habits[h].gap += 1
        guard run.habits[h].current > 0 else { return .missed }
        if run.habits[h].gap <= run.habits[h].grace { return .grace }
        let use = run.habits[h].freezeUse
        if use != .never, run.wallet.freezes > 0 {
            var protect = true
            if use == .offered {
                let offer = FreezeOffer(habit: run.definitions[h].id, day: LocalDay(number: day))
                offers.append(offer)
                if let decision = decisions[offer] { protect = decision }
            }
            if protect {
                run.wallet.freezes -= 1
                record(day, at: nil, .freezeUsed, diamonds: 0, freezes: -1, habit: h, streak: run.habits[h].current)
                return .frozen
            }
        }
        if run.habits[h].resets {
            run.habits[h].current = 0
        } else {
            run.habits[h].current = max(0, run.habits[h].current - run.habits[h].decrement)
        }
        if run.habits[h].current == 0 { run.habits[h].breaks += 1 }
        return .missed
    }

    private mutating func record(
        _ day: Int, at: Double?, _ source: LedgerEntry.Source, diamonds: Int, freezes: Int, habit: Int = -1,
        streak: Int = 0, event: Int32 = -1
    ) {
        ledger.append(
            LedgerRecord(
                day: day, at: at, source: source, diamonds: diamonds, freezes: freezes,
                diamondBalance: run.wallet.diamonds, freezeBalance: run.wallet.freezes, habit: Int32(habit),
                streak: streak, event: event))
    }
}
