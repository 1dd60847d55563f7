import Foundation

extension UserEngine {
    /// Every habit's history as analytics read it, after closing every day before `now`.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - zone: The user's current zone; by default the zone of the latest event, or UTC.
    public mutating func series(at now: Date, zone: String? = nil) -> [HabitSeries] {
        series(today: advanceToToday(now, zone: zone).today)
    }

    private func series(today: Int) -> [HabitSeries] {
        let travelToday = travelSkipped.contains(today)
        let count = run.habits.count

        // Day totals, and the local minute of each habit's latest completions.
        var totals = run.habits.indices.map { h in
            [Double](
                repeating: 0, count: max(0, min(today, run.habits[h].archivedDay - 1) - run.habits[h].startDay + 1))
        }
        var minutes = [[Int]](repeating: [], count: count)
        var zone: (name: String, table: ZoneOffsetTable?)?
        for entry in entries.reversed() where entry.operation == .complete && entry.habit >= 0 {
            let h = Int(entry.habit)
            let index = entry.day - run.habits[h].startDay
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
            let length = totals[h].count
            let closed = min(days.count, length)
            // As the calendar shows them: a day missed before the first completion had not
            // started counting.
            let counting = countingStart(h, today: today)
            var states = days[..<closed].enumerated().map { index, record in
                record.state == .missed && habit.startDay + index < counting ? DayState.notStarted : record.state
            }
            var streaks = days[..<closed].map { Int($0.streak) }
            states.reserveCapacity(length)
            streaks.reserveCapacity(length)
            if habit.isActive(on: today), length > closed {
                states.append(todayState(h, today: today, travelToday: travelToday))
                streaks.append(habit.current)
            }
            while states.count < length {
                states.append(.pending)
                streaks.append(0)
            }
            return HabitSeries(
                definition: run.definitions[h], startDay: LocalDay(number: habit.startDay),
                firstDay: LocalDay(number: habit.startDay), today: LocalDay(number: today),
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
