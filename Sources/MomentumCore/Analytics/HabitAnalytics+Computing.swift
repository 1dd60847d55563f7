import Foundation

extension HabitAnalytics {
    /// Computes every analytic of a habit.
    ///
    /// - Parameters:
    ///   - series: The habit's history.
    ///   - milestones: The streak values that earn a badge.
    ///   - archived: Whether the habit is archived.
    ///   - translation: The language of the coaching sentences; English by default.
    public init(
        _ series: HabitSeries, milestones: [Int] = RulePack.habits.streakMilestones, archived: Bool = false,
        translation: Translation = .english
    ) {
        let units = Opportunities(series)
        let today = series.today.number
        let first = series.firstDay.number
        let definition = series.definition
        let count = series.states.count

        // Weeks and months, with days completed and the rate of the units judged in them.
        var weeks: [PeriodSummary] = []
        var months: [PeriodSummary] = []
        var completedDays = 0
        var weekdayDone = [Int](repeating: 0, count: 8)
        var weekdayDue = [Int](repeating: 0, count: 8)
        let weekOffset = definition.weekStart.rawValue
        // The schedule in force on each day (one unless it changed), looked up in order.
        let ranges = series.scheduleRanges
        var segment = 0
        var multiDay = ranges.first?.segment.schedule.hasMultiDayPeriods ?? definition.schedule.hasMultiDayPeriods
        var due = DueCheck(ranges.first?.segment.schedule ?? definition.schedule)
        if count > 0 {
            var weekStart = first - Self.weekdayIndex(first, from: weekOffset)
            var monthStart = first - (LocalDay(number: first).civil.day - 1)
            var monthEnd = Self.monthEnd(monthStart)
            var weekDone = 0
            var monthDone = 0
            var unit = 0
            var weekUnits = (done: 0, due: 0)
            var monthUnits = (done: 0, due: 0)
            var weekday = LocalDay(number: first).weekday.rawValue
            for index in 0..<count {
                let day = first + index
                while segment + 1 < ranges.count, ranges[segment + 1].first <= day {
                    segment += 1
                    multiDay = ranges[segment].segment.schedule.hasMultiDayPeriods
                    due = DueCheck(ranges[segment].segment.schedule)
                }
                let state = series.states[index]
                let done = state == .completed
                if done {
                    completedDays += 1
                    weekDone += 1
                    monthDone += 1
                }
                while unit < units.days.count, units.days[unit] == day {
                    weekUnits.done += units.done[unit]
                    weekUnits.due += units.due[unit]
                    monthUnits.done += units.done[unit]
                    monthUnits.due += units.due[unit]
                    unit += 1
                }
                let counted: Bool
                switch state {
                case .completed: counted = multiDay || due.isDue(day, weekday: weekday)
                case .missed, .grace, .frozen:
                    counted = day < today && (multiDay || due.isDue(day, weekday: weekday))
                case .notDue: counted = multiDay && day < today
                default: counted = false
                }
                if counted {
                    weekdayDue[weekday] += 1
                    if done { weekdayDone[weekday] += 1 }
                }
                weekday = weekday == 7 ? 1 : weekday + 1
                let last = index == count - 1
                if day == weekStart + 6 || last {
                    weeks.append(
                        PeriodSummary(
                            start: LocalDay(number: weekStart), end: LocalDay(number: weekStart + 6),
                            completedDays: weekDone, rate: CompletionRate(done: weekUnits.done, due: weekUnits.due)))
                    weekStart += 7
                    weekDone = 0
                    weekUnits = (0, 0)
                }
                if day == monthEnd || last {
                    months.append(
                        PeriodSummary(
                            start: LocalDay(number: monthStart), end: LocalDay(number: monthEnd),
                            completedDays: monthDone, rate: CompletionRate(done: monthUnits.done, due: monthUnits.due)))
                    monthStart = monthEnd + 1
                    monthEnd = Self.monthEnd(monthStart)
                    monthDone = 0
                    monthUnits = (0, 0)
                }
            }
        }

        let weekStartToday = today - Self.weekdayIndex(today, from: weekOffset)
        let monthStartToday = today - (LocalDay(number: today).civil.day - 1)
        let rates = CompletionRates(
            thisWeek: units.rate(from: weekStartToday, to: today),
            thisMonth: units.rate(from: monthStartToday, to: today),
            last30Days: units.rate(from: today - 29, to: today), allTime: units.rate(from: Int.min, to: today))

        // The last 30 days with the 7-day rolling rate.
        var points: [DailyPoint] = []
        points.reserveCapacity(30)
        for day in max(first, today - 29)...max(first, today) where day - first < count {
            let state = series.states[day - first]
            points.append(
                DailyPoint(
                    day: LocalDay(number: day), state: state, completed: state == .completed,
                    rate7Days: units.rate(from: day - 6, to: day).rate))
        }
        let recent = units.rate(from: today - 14, to: today)
        let earlier = units.rate(from: today - 29, to: today - 15)
        let trend = Self.trend(recent: recent, earlier: earlier)

        let weekdayRates = Weekday.allCases.map {
            WeekdayRate(weekday: $0, rate: CompletionRate(done: weekdayDone[$0.rawValue], due: weekdayDue[$0.rawValue]))
        }
        let best = weekdayRates.filter { $0.rate.due >= 2 }.max { a, b in
            let ra = a.rate.rate ?? 0
            let rb = b.rate.rate ?? 0
            if ra != rb { return ra < rb }
            if a.rate.due != b.rate.due { return a.rate.due < b.rate.due }
            return a.weekday > b.weekday
        }

        // Streak runs and milestones.
        var runs = 0
        var runTotal = 0
        var runPeak = 0
        var longest = 0
        var badges: [MilestoneBadge] = []
        var nextMilestone = 0
        let sortedMilestones = milestones.sorted()
        var previous = 0
        for index in 0..<count {
            let streak = series.streaks[index]
            if streak > 0 {
                if previous == 0 { runs += 1 }
                runPeak = max(runPeak, streak)
                while nextMilestone < sortedMilestones.count, streak >= sortedMilestones[nextMilestone] {
                    badges.append(
                        MilestoneBadge(streak: sortedMilestones[nextMilestone], day: LocalDay(number: first + index)))
                    nextMilestone += 1
                }
            } else if previous > 0 {
                runTotal += runPeak
                longest = max(longest, runPeak)
                runPeak = 0
            }
            previous = streak
        }
        if runPeak > 0 {
            runTotal += runPeak
            longest = max(longest, runPeak)
        }

        // Strength now and 30 days ago.
        var strengthNow = 0.0
        var strengthThen = 0.0
        let thenIndex = today - 30 - first
        HabitStrength.scores(of: series) { index, score in
            if index == thenIndex { strengthThen = score }
            strengthNow = score
        }

        self.init(
            habit: definition.id, name: definition.name, difficulty: definition.difficulty, active: !archived,
            totalDaysCompleted: completedDays, rates: rates, weeks: weeks, months: months, last30Days: points,
            trend: trend, weekdays: weekdayRates, mostConsistentWeekday: best?.weekday,
            streaks: StreakStatistics(
                runs: runs, average: runs > 0 ? Double(runTotal) / Double(runs) : 0, longest: longest),
            strength: StrengthSummary(
                value: strengthNow, percent: Int((strengthNow * 100).rounded()), thirtyDaysAgo: strengthThen),
            score: DifficultyScore(
                difficulty: definition.difficulty, streak: series.current, best: series.best, strength: strengthNow),
            milestones: badges,
            coaching: Coaching(series, trend: trend, archived: archived, translation: translation))
    }

    /// The last day of the month that starts on `start`.
    static func monthEnd(_ start: Int) -> Int {
        let (y, m, _) = LocalDay(number: start).civil
        return start + LocalDay.daysIn(month: m, year: y) - 1
    }

    /// Days from the week's first day to `day` (0…6).
    static func weekdayIndex(_ day: Int, from weekStart: Int) -> Int {
        (LocalDay(number: day).weekday.rawValue - weekStart + 7) % 7
    }

    static func trend(recent: CompletionRate, earlier: CompletionRate) -> Trend {
        guard let r = recent.rate, let e = earlier.rate else {
            return Trend(direction: .insufficientData, recent: recent, earlier: earlier, change: nil)
        }
        let change = ((r - e) * 1000).rounded() / 10
        let direction: Trend.Direction =
            recent.due < 3 || earlier.due < 3
            ? .insufficientData : change >= 10 ? .improving : change <= -10 ? .declining : .steady
        return Trend(direction: direction, recent: recent, earlier: earlier, change: change)
    }
}
