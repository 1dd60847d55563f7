import Foundation

extension UserEngine {
    /// Every habit's history as analytics read it, after closing every day before `now`:
    /// each habit's last ``analyticsWindow`` days at most (its whole history unless the
    /// account holds more than ``EventLimits/analyticsBudget`` habit-days).
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - zone: The user's current zone; by default the zone of the latest event, or UTC.
    public mutating func series(at now: Date, zone: String? = nil) -> [HabitSeries] {
        series(today: advanceToToday(now, zone: zone).today)
    }

    /// The most days of each habit that analytics read: ``EventLimits/analyticsBudget``
    /// shared among the account's habits (archived ones included), so that what one read
    /// analyses is bounded for the whole account however far back its habits began. At
    /// least 1,000 days, since an account has at most ``EventLimits/maximumHabits`` habits.
    public var analyticsWindow: Int {
        EventLimits.analyticsBudget / max(1, max(run.habits.count, habitMeta.count))
    }

    /// The user's current day at `now`, as analytics and states read it, without closing
    /// any day: the local day of `now` in the zone, or the open day if that is later.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - zone: The user's current zone; by default the zone of the latest event, or UTC.
    public func today(at now: Date, zone: String? = nil) -> LocalDay {
        let zoneName = zone.flatMap { ZoneOffsetTable.named($0) != nil ? $0 : nil } ?? latest?.zone ?? "UTC"
        let table = table(for: zoneName) ?? ZoneOffsetTable.named("UTC")!
        return LocalDay(number: max(clock.localDay(of: now, in: table).number, run.openDay ?? Int.min))
    }

    /// The habit-days the analytics of `today` read: each habit's days from its start, or
    /// from the start of its ``analyticsWindow``, to today or the day before it was
    /// archived. At most ``EventLimits/analyticsBudget``.
    ///
    /// - Parameter today: The user's current day (``today(at:zone:)``).
    public func analysedDays(today: LocalDay) -> Int {
        let window = analyticsWindow
        return run.habits.reduce(0) { total, habit in
            total + min(window, max(0, min(today.number, habit.archivedDay - 1) - habit.startDay + 1))
        }
    }

    /// The habit-days a state with `calendarDays` of calendar per habit holds at `today`
    /// (``state(at:zone:calendarDays:)``): each habit's days from its start, or from
    /// `calendarDays` before today, to today.
    ///
    /// - Parameters:
    ///   - calendarDays: Days of calendar per habit.
    ///   - today: The user's current day (``today(at:zone:)``).
    public func calendarHabitDays(_ calendarDays: Int, today: LocalDay) -> Int {
        let days = max(0, calendarDays)
        return run.habits.reduce(0) { total, habit in
            total + min(days, max(0, today.number - habit.startDay + 1))
        }
    }

    private func series(today: Int) -> [HabitSeries] {
        let travelToday = travelSkipped.contains(today)
        let count = run.habits.count
        let window = analyticsWindow
        // Each habit's days from its start to today (or its archiving), and how many of the
        // first of them fall before its window.
        let lengths = run.habits.map { max(0, min(today, $0.archivedDay - 1) - $0.startDay + 1) }
        let skipped = lengths.map { max(0, $0 - window) }

        // Day totals, and the local minute of each habit's latest completions.
        var totals = lengths.indices.map { h in [Double](repeating: 0, count: lengths[h] - skipped[h]) }
        var minutes = [[Int]](repeating: [], count: count)
        var zone: (name: String, table: ZoneOffsetTable?)?
        for entry in entries.reversed() where entry.operation == .complete && entry.habit >= 0 {
            let h = Int(entry.habit)
            let index = entry.day - run.habits[h].startDay - skipped[h]
            if totals[h].indices.contains(index) { totals[h][index] += entry.value }
            guard minutes[h].count < 60 else { continue }
            let name = log[Int(entry.event)].timeZone
            if zone?.name != name { zone = (name, ZoneOffsetTable.named(name)) }
            guard let zoneTable = zone?.table else { continue }
            let seconds = Int64(entry.at.rounded(.down))
            let local = seconds + Int64(zoneTable.offset(atSecond: seconds))
            minutes[h].append(Int(((local % 86_400) + 86_400) % 86_400 / 60))
        }

        return (0..<count).map { h in
            let habit = run.habits[h]
            let days = histories[h].days
            let length = lengths[h]
            let skip = skipped[h]
            let closed = min(days.count, length)
            let lower = min(skip, closed)
            // As the calendar shows them: a day missed before the first completion had not
            // started counting.
            let counting = countingStart(h, today: today)
            var states = days[lower..<closed].enumerated().map { offset, record in
                record.state == .missed && habit.startDay + lower + offset < counting
                    ? DayState.notStarted : record.state
            }
            var streaks = days[lower..<closed].map { Int($0.streak) }
            states.reserveCapacity(length - skip)
            streaks.reserveCapacity(length - skip)
            if habit.isActive(on: today), length > closed, skip <= closed {
                states.append(todayState(h, today: today, travelToday: travelToday))
                streaks.append(habit.current)
            }
            while states.count < length - skip {
                states.append(.pending)
                streaks.append(0)
            }
            return HabitSeries(
                definition: run.definitions[h], startDay: LocalDay(number: habit.startDay),
                firstDay: LocalDay(number: habit.startDay + skip), today: LocalDay(number: today),
                states: states, streaks: streaks, totals: totals[h],
                completionMinutes: minutes[h].reversed(), current: habit.current, best: habit.best,
                breaks: habit.breaks, schedules: run.schedules[h])
        }
    }

    /// Every analytic of the user at an instant: rates, history by week and month, trends,
    /// habit strength, difficulty-adjusted scores, coaching and profile statistics.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - zone: The user's current zone; by default the zone of the latest event, or UTC.
    ///   - translation: The language of the coaching sentences; English by default.
    public mutating func analytics(
        at now: Date, zone: String? = nil, translation: Translation = .english
    ) -> UserAnalytics {
        let today = advanceToToday(now, zone: zone).today
        let archived = Set(
            run.habits.indices.filter { run.habits[$0].archivedDay != .max }.map { run.definitions[$0].id })
        return UserAnalytics(
            series: series(today: today), archived: archived, milestones: pack.streakMilestones,
            today: LocalDay(number: today), translation: translation)
    }
}
