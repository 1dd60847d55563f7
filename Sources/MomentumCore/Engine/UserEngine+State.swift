import Foundation

extension UserEngine {
    /// The derived state at an instant, after closing every day before it.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - zone: The user's current zone; by default the zone of the latest event, or UTC.
    ///   - calendarDays: How many days, ending today, each habit's calendar holds; `nil` for
    ///     its whole history.
    /// - Returns: Habits with streaks and calendars, the wallet, the ledger and open offers.
    public mutating func state(at now: Date, zone: String? = nil, calendarDays: Int? = nil) -> UserState {
        let (today, zoneName) = advanceToToday(now, zone: zone)
        let windowStart = calendarDays.map { today - max(1, $0) + 1 } ?? Int.min
        let details = completionDetails(from: windowStart)
        let travelToday = travelSkipped.contains(today)
        let habits = run.habits.indices.map { h in
            habitState(
                h, today: today, windowStart: windowStart, details: details[Int32(h)] ?? [:], travelToday: travelToday)
        }
        let openOffers = offers.filter { decisions[$0] == nil && $0.day.number + 1 >= today }.map {
            OpenFreezeOffer(habit: $0.habit, day: $0.day, expires: $0.day.advanced(by: 1))
        }
        return UserState(
            now: now, today: LocalDay(number: today), timeZone: zoneName, dayStartHour: clock.dayStartHour,
            pack: pack.name,
            wallet: run.wallet, habits: habits, freezeOffers: openOffers,
            skippedDays: travelSkipped.sorted().map(LocalDay.init(number:)), pauses: pausePeriods,
            amnesties: amnestyPeriods,
            order: displayOrder, ledger: ledger.map(ledgerEntry), rejected: refused)
    }

    /// Closes every day before `now` in the user's zone (the given one if valid, else the
    /// latest event's, else UTC) and returns today's day number with that zone's name.
    mutating func advanceToToday(_ now: Date, zone: String?) -> (today: Int, zone: String) {
        let zoneName = zone.flatMap { ZoneOffsetTable.named($0) != nil ? $0 : nil } ?? latest?.zone ?? "UTC"
        let table = table(for: zoneName) ?? ZoneOffsetTable.named("UTC")!
        advance(to: now, zone: zoneName)
        return (max(clock.localDay(of: now, in: table).number, run.openDay ?? Int.min), zoneName)
    }

    /// A ledger record with its sentence, naming the habit by its current name.
    private func ledgerEntry(_ record: LedgerRecord) -> LedgerEntry {
        let name = record.habit >= 0 ? run.definitions[Int(record.habit)].name : ""
        let reason =
            switch record.source {
            case .reward: "\(record.streak)-day streak on \(name)"
            case .difficultyBonus:
                "\(run.definitions[Int(record.habit)].difficulty.rawValue.capitalized)-habit bonus: \(record.streak)-day "
                    + "streak on \(name)"
            case .earnedFreeze: "Earned a freeze for a \(record.streak)-day streak on \(name)"
            case .purchase:
                "Bought \(record.freezes) freeze day\(record.freezes == 1 ? "" : "s") for \(-record.diamonds) 💎"
            case .freezeUsed: "A freeze protected \(name) on \(LocalDay(number: record.day))"
            case .grant:
                if case .grant(let grant) = log[Int(record.event)].payload { grant.reason } else { "" }
            case .kept:
                if case .rewardsKept(let kept) = log[Int(record.event)].payload {
                    "Rewards kept from the \(kept.pack) pack's earlier rules"
                } else {
                    ""
                }
            }
        return LedgerEntry(
            day: LocalDay(number: record.day), at: record.at.map(Date.init(timeIntervalSince1970:)),
            source: record.source,
            diamonds: record.diamonds, freezes: record.freezes, diamondBalance: record.diamondBalance,
            freezeBalance: record.freezeBalance, reason: reason,
            habit: record.habit >= 0 ? run.definitions[Int(record.habit)].id : nil,
            streak: [.purchase, .grant, .kept].contains(record.source) ? nil : record.streak,
            event: record.event >= 0 ? log[Int(record.event)].id : nil)
    }

    private func habitState(
        _ h: Int, today: Int, windowStart: Int, details: [Int: [CompletionDetail]], travelToday: Bool
    ) -> HabitState {
        let habit = run.habits[h]
        let definition = run.definitions[h]
        let history = histories[h]
        let active = habit.isActive(on: today)
        let due = habit.isDue(today)
        let todayState = todayState(h, today: today, travelToday: travelToday)
        var remaining: Double?
        if active, !habit.dayCompleted, habit.comparison != .atMost, todayState == .pending {
            remaining = max(0, habit.amount - (habit.comparison == .check ? 0 : habit.dayTotal))
        }
        let period =
            habit.multiDay && active
            ? PeriodProgress(
                start: LocalDay(number: habit.periodStart), end: LocalDay(number: habit.periodEnd),
                completedDays: habit.periodDone, requiredDays: habit.periodRequired,
                fulfilled: habit.periodSucceeded) : nil

        let counting = countingStart(h, today: today)
        // The border: red only for a streak that broke. A habit not started yet, or a week or
        // month under way whose quota can still be met, is not counted against.
        let border: BorderTier =
            habit.current > 0
            ? BorderTier(streak: habit.current)
            : counting > today ? .neutral : habit.multiDay && active && habit.periodDone > 0 ? .yellow : .red
        var calendar: [CalendarDay] = []
        let first = max(habit.startDay, windowStart)
        if first <= today {
            calendar.reserveCapacity(today - first + 1)
            // Closed days with a record (none when the window starts after an archived
            // habit's last day): a stride, never a range whose bounds are reversed.
            for day in stride(from: first, to: min(today, habit.startDay + history.days.count), by: 1) {
                let record = history.days[day - habit.startDay]
                let streak = Int(record.streak)
                let waiting = day < counting && record.state == .missed
                calendar.append(
                    CalendarDay(
                        day: LocalDay(number: day), state: waiting ? .notStarted : record.state, streak: streak,
                        border: waiting ? .neutral : BorderTier(streak: streak), completions: details[day] ?? []))
            }
            if active {
                calendar.append(
                    CalendarDay(
                        day: LocalDay(number: today), state: todayState, streak: habit.current,
                        border: border, completions: details[today] ?? []))
            }
        }
        var streakStart: LocalDay?
        if habit.current > 0 {
            var index = history.days.count - 1
            while index >= 0, history.days[index].streak > 0 { index -= 1 }
            streakStart = LocalDay(number: habit.startDay + index + 1)
        }
        return HabitState(
            definition: definition, policy: definition.policy ?? pack.defaultPolicy,
            startDay: LocalDay(number: habit.startDay),
            archivedDay: habit.archivedDay == .max ? nil : LocalDay(number: habit.archivedDay), current: habit.current,
            best: habit.best,
            highestStreakAchieved: habit.highest, breaks: habit.breaks, border: border,
            shieldActive: active && habit.current > 0 && habit.freezeUse != .never && run.wallet.freezes > 0,
            currentStreakStart: streakStart,
            today: TodayStatus(
                state: todayState, due: active && due, logged: habit.dayTotal, remaining: remaining, period: period),
            calendar: calendar)
    }

    /// The first day a habit's streak counts: its first completion (seed 003: "streak
    /// counting begins on the first completion date"), today when it is done today, or
    /// `Int.max` when it was never done. A due day before it that was not done is
    /// ``DayState/notStarted``, not missed. The scan stops at the first completion, near
    /// the start for most habits.
    func countingStart(_ h: Int, today: Int) -> Int {
        let habit = run.habits[h]
        if let index = histories[h].days.firstIndex(where: { $0.state == .completed }) {
            return habit.startDay + index
        }
        return habit.isActive(on: today) && habit.dayCompleted ? today : .max
    }

    /// Every habit's id in display order (``UserState/order``, without evaluating a state):
    /// those the latest live `order` event names, in its order, then the others in creation
    /// order.
    public var displayOrder: [String] {
        let ids = run.definitions.map(\.id)
        guard let last = entries.last(where: { $0.operation == .order }),
            case .order(let listed) = log[Int(last.event)].payload
        else { return ids }
        let known = Set(ids)
        var seen: Set<String> = []
        let named = listed.filter { known.contains($0) && seen.insert($0).inserted }
        return named + ids.filter { !seen.contains($0) }
    }

    /// What today shows for a habit.
    func todayState(_ h: Int, today: Int, travelToday: Bool) -> DayState {
        let habit = run.habits[h]
        return !habit.isActive(on: today)
            ? .beforeStart
            : habit.dayCompleted
                ? .completed
                : isCovered(today)
                    ? .covered
                    : isPaused(h, today)
                        ? .paused
                        : habit.daySkipped || travelToday
                            ? .skipped
                            : !habit.isDue(today)
                                ? .notDue
                                : (habit.multiDay && habit.periodSucceeded)
                                    ? .notDue
                                    : .pending
    }

    /// Completions in the window, by habit ordinal and day.
    private func completionDetails(from windowStart: Int) -> [Int32: [Int: [CompletionDetail]]] {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].day < windowStart { low = mid + 1 } else { high = mid }
        }
        var result: [Int32: [Int: [CompletionDetail]]] = [:]
        for entry in entries[low...] {
            guard entry.operation == .complete, case .completion(_, _, _, let note) = log[Int(entry.event)].payload
            else { continue }
            let event = log[Int(entry.event)]
            result[entry.habit, default: [:]][entry.day, default: []].append(
                CompletionDetail(
                    event: event.id, at: event.at, value: entry.value, note: note, backfilled: entry.backfilled))
        }
        return result
    }
}
