import Foundation
import MomentumCore
import MomentumTestSupport
import Testing

/// A series for a habit from day(1), with one letter per day: `c` completed, `m` missed,
/// `g` grace, `f` frozen, `s` skipped, `n` not due, `p` pending. Streak values follow the
/// strict rule (completed +1, missed 0, others unchanged) unless given.
private func series(
    _ days: String, schedule: Schedule = .daily, target: Target = .check, difficulty: Difficulty = .medium,
    name: String = "Read", minutes: [Int] = [], streaks given: [Int]? = nil, start: LocalDay = day(1)
) -> HabitSeries {
    let states: [DayState] = days.map {
        switch $0 {
        case "c": .completed
        case "m": .missed
        case "g": .grace
        case "f": .frozen
        case "s": .skipped
        case "n": .notDue
        default: .pending
        }
    }
    var streaks: [Int] = []
    var current = 0
    var best = 0
    var breaks = 0
    for state in states {
        if state == .completed {
            current += 1
        } else if state == .missed {
            if current > 0 { breaks += 1 }
            current = 0
        }
        best = max(best, current)
        streaks.append(current)
    }
    if let given {
        streaks = given
        current = given.last ?? 0
        best = given.max() ?? 0
    }
    return HabitSeries(
        definition: HabitDefinition(
            id: name.lowercased(), name: name, schedule: schedule, target: target, difficulty: difficulty),
        startDay: start, firstDay: start, today: start.advanced(by: states.count - 1), states: states,
        streaks: streaks, totals: states.map { $0 == .completed ? target.amount : 0 }, completionMinutes: minutes,
        current: current, best: best, breaks: breaks)
}

@Suite struct HabitStrengthTests {
    @Test func reproducesLoopHabitTrackersPublishedValues() {
        #expect(abs(HabitStrength.next(previous: 0, frequency: 1, checkmark: 1) - 0.051922) < 1e-6)
        #expect(abs(HabitStrength.next(previous: 0.5, frequency: 1, checkmark: 1) - 0.525961) < 1e-6)
        #expect(abs(HabitStrength.next(previous: 0.5, frequency: 1, checkmark: 0) - 0.474039) < 1e-6)
        #expect(abs(HabitStrength.next(previous: 0, frequency: 1.0 / 3, checkmark: 1) - 0.030315) < 1e-6)
    }

    @Test func aDailyHabitCheckedOnceFromZeroScores0_051922() {
        #expect(abs(HabitStrength.current(of: series("c")) - 0.051922) < 1e-6)
        // A miss then decays it by the multiplier 0.5^(1/13).
        let decayed = 0.051922 * pow(0.5, 1.0 / 13)
        #expect(abs(HabitStrength.current(of: series("cmp")) - decayed) < 1e-6)
    }

    @Test func skippedDaysAndAnOpenTodayLeaveTheScoreUnchanged() {
        let once = HabitStrength.current(of: series("c"))
        #expect(HabitStrength.current(of: series("cs")) == once)
        #expect(HabitStrength.current(of: series("cp")) == once)
        #expect(HabitStrength.current(of: series("cssp")) == once)
    }

    @Test func frequenciesFollowLoop() {
        #expect(HabitStrength.Frequency(.daily).perDay == 1)
        #expect(HabitStrength.Frequency(.timesPerWeek(3)) == .init(numerator: 3, denominator: 7))
        #expect(HabitStrength.Frequency(.timesPerMonth(4)) == .init(numerator: 4, denominator: 30))
        #expect(HabitStrength.Frequency(.everyNDays(3)) == .init(numerator: 1, denominator: 3))
        #expect(HabitStrength.Frequency(.weekdays([.monday, .wednesday])) == .init(numerator: 2, denominator: 7))
    }

    @Test func everyThirdDayHabitUsesLoopsRollingWindow() {
        // Frequency 1/3, doubled to 2 in 6 days for check habits: one check makes the
        // checkmark 1/2 for the next 6 days.
        let m = pow(0.5, (1.0 / 3).squareRoot() / 13)
        var expected = 0.0
        for _ in 0..<6 { expected = expected * m + 0.5 * (1 - m) }
        expected = expected * m  // day 7: the check left the window
        let s = series("cnnnnnnp", schedule: .everyNDays(3))
        #expect(abs(HabitStrength.current(of: s) - expected) < 1e-12)
    }

    @Test func numericTargetsGivePartialCredit() {
        var s = series("cc", target: Target(comparison: .atLeast, amount: 8, unit: "glasses"))
        s.totals = [4, 8]
        let m = pow(0.5, 1.0 / 13)
        let expected = (0.5 * (1 - m)) * m + 1 * (1 - m)
        #expect(abs(HabitStrength.current(of: s) - expected) < 1e-12)
    }
}

@Suite struct CompletionRateTests {
    @Test func onlyDueDaysCount() {
        // c m s c g f n(completion not due on an unscheduled day is handled below) p
        let s = series("cmscgfp")
        // Due units: c, m, c, g, f = 5; done: 2. Skip and the open day are not counted.
        #expect(s.completionRate(from: day(1), to: day(7)) == CompletionRate(done: 2, due: 5))
        #expect(s.completionRate(from: day(3), to: day(3)) == CompletionRate(done: 0, due: 0))
        #expect(s.completionRate(from: day(3), to: day(3)).rate == nil)
        #expect(s.completionRate(from: day(1), to: day(2)).percent == 50)
    }

    @Test func daysBeforeTheStartAndUnscheduledDaysDoNotCount() {
        // Mondays, Wednesdays and Fridays from Monday 2026-01-05 (day 5).
        let s = series(
            "cncnmnn" + "cnmp", schedule: .weekdays([.monday, .wednesday, .friday]), start: day(5))
        // Due: Mon c, Wed c, Fri m, Mon c, Wed m → 3 of 5.
        #expect(s.completionRate(from: day(1), to: day(14)) == CompletionRate(done: 3, due: 5))
        // A completion on a Tuesday (not due) is not a unit.
        let extra = series("cccnmnn", schedule: .weekdays([.monday, .wednesday, .friday]), start: day(5))
        #expect(extra.completionRate(from: day(5), to: day(11)) == CompletionRate(done: 2, due: 3))
    }

    @Test func todayCountsOnceCompleted() {
        #expect(series("mc").completionRate(from: day(1), to: day(2)) == CompletionRate(done: 1, due: 2))
        #expect(series("mp").completionRate(from: day(1), to: day(2)) == CompletionRate(done: 0, due: 1))
    }

    @Test func weeklyQuotasCountPeriodsOnTheirLastDay() {
        // 3 per week from Monday 2026-01-05: week 1 has 2 completions (2 of 3), week 2 has 4
        // (3 of 3, capped), week 3 is running with 1 (not counted yet).
        let s = series("cncnnnm" + "ccncnnc" + "cp", schedule: .timesPerWeek(3), start: day(5))
        #expect(s.completionRate(from: day(5), to: day(19)) == CompletionRate(done: 5, due: 6))
        #expect(s.completionRate(from: day(5), to: day(10)) == CompletionRate(done: 0, due: 0))
        #expect(s.completionRate(from: day(11), to: day(11)) == CompletionRate(done: 2, due: 3))
        // Once the running week is fulfilled it counts, on today.
        let done = series("cncnnnm" + "ccncnnc" + "ccc", schedule: .timesPerWeek(3), start: day(5))
        #expect(done.completionRate(from: day(19), to: day(21)) == CompletionRate(done: 3, due: 3))
    }

    @Test func restDaysLowerAQuotasRequirement() {
        // 3 per week; 5 rest days leave 2 days, so the week needs 2.
        let s = series("sssssc" + "c" + "p", schedule: .timesPerWeek(3), start: day(5))
        #expect(s.completionRate(from: day(5), to: day(11)) == CompletionRate(done: 2, due: 2))
    }

    @Test func theEngineExcludesSkipDaysAndDaysBeforeTheHabitStarted() throws {
        var log = Log()
        log.habit("read", on: day(5))
        log.complete("read", days: 5...14, except: [8, 9])
        log.skip("read", on: day(8))
        let now = log.instant(day(14), hour: 20)
        var engine = UserEngine()
        try engine.load(log.events)
        let analytics = engine.analytics(at: now, zone: "UTC")
        let read = try #require(analytics.habits.first)
        // Days 5…14: 8 completions, day 8 skipped, day 9 missed → 8 of 9.
        #expect(read.rates.allTime == CompletionRate(done: 8, due: 9))
        #expect(read.totalDaysCompleted == 8)
        // The month started on day 1 but the habit on day 5: the same 8 of 9.
        #expect(read.rates.thisMonth == CompletionRate(done: 8, due: 9))
        // Monday 2026-01-12 (day 12) to day 14: 3 of 3.
        #expect(read.rates.thisWeek == CompletionRate(done: 3, due: 3))
    }
}

@Suite struct HistoryAndTrendTests {
    @Test func historyIsGroupedByWeekAndMonth() {
        // From Thursday 2026-01-29 (day 29) for 9 days: weeks start on Monday.
        let s = series("cmcccmccc", start: day(29))
        let analytics = HabitAnalytics(s)
        #expect(analytics.weeks.map(\.start) == [LocalDay(year: 2026, month: 1, day: 26)!, day(33)])
        #expect(analytics.weeks.map(\.completedDays) == [3, 4])
        #expect(analytics.weeks.map(\.rate) == [CompletionRate(done: 3, due: 4), CompletionRate(done: 4, due: 5)])
        #expect(analytics.months.map(\.start) == [day(1), day(32)])
        #expect(analytics.months.map(\.rate) == [CompletionRate(done: 2, due: 3), CompletionRate(done: 5, due: 6)])
        #expect(analytics.months[1].end == LocalDay(year: 2026, month: 2, day: 28)!)
    }

    @Test func last30DaysAndAnImprovingTrend() throws {
        // 15 days with 5 completions, then 15 with 12.
        let earlier = "cmmcmmcmmcmmcmm"
        let recent = "ccccmcccmcccmcc"
        let analytics = HabitAnalytics(series(earlier + recent))
        #expect(analytics.last30Days.count == 30)
        #expect(analytics.last30Days.first?.day == day(1))
        #expect(analytics.trend.earlier == CompletionRate(done: 5, due: 15))
        #expect(analytics.trend.recent == CompletionRate(done: 12, due: 15))
        #expect(analytics.trend.change == 46.7)
        #expect(analytics.trend.direction == .improving)
        // The 7-day rolling rate on the last day: days 24…30 are "mcccmcc".
        #expect(analytics.last30Days.last?.rate7Days == 5.0 / 7)
        let coaching = analytics.coaching.encouragement ?? ""
        #expect(coaching.contains("80%") && coaching.contains("33%"))
    }

    @Test func trendDirections() {
        #expect(HabitAnalytics(series(String(repeating: "c", count: 30))).trend.direction == .steady)
        #expect(
            HabitAnalytics(series(String(repeating: "c", count: 15) + "cmcmcmcmcmcmcmc")).trend.direction == .declining)
        #expect(HabitAnalytics(series("cmc")).trend.direction == .insufficientData)
        #expect(HabitAnalytics(series(String(repeating: "c", count: 30))).coaching.encouragement == nil)
    }

    @Test func mostConsistentWeekday() {
        // Thursday 2026-01-01 onwards, three weeks: Saturdays always done, the rest mixed.
        let days = "cmcmmmc" + "mmcmcmm" + "cmcmmmm"
        let analytics = HabitAnalytics(series(days))
        // Saturday (offset 2): c, c, c → 3 of 3.
        #expect(analytics.mostConsistentWeekday == .saturday)
        #expect(analytics.weekdays.first { $0.weekday == .saturday }?.rate == CompletionRate(done: 3, due: 3))
        #expect(analytics.weekdays.first { $0.weekday == .thursday }?.rate == CompletionRate(done: 2, due: 3))
        // A weekday due only once cannot win.
        #expect(HabitAnalytics(series("cmm")).mostConsistentWeekday == nil)
    }

    @Test func averageStreakLengthAndTotalDays() {
        let analytics = HabitAnalytics(series("cccmccmc"))
        #expect(analytics.streaks == StreakStatistics(runs: 3, average: 2, longest: 3))
        #expect(analytics.totalDaysCompleted == 6)
        #expect(HabitAnalytics(series("mmm")).streaks == StreakStatistics(runs: 0, average: 0, longest: 0))
    }

    @Test func milestoneBadgesCarryTheDayTheyWereReached() {
        let analytics = HabitAnalytics(series(String(repeating: "c", count: 31)))
        #expect(
            analytics.milestones == [MilestoneBadge(streak: 7, day: day(7)), MilestoneBadge(streak: 30, day: day(30))])
    }
}

@Suite struct DifficultyAndConsistencyTests {
    @Test func difficultyWeightsStreaksAndScores() {
        #expect(Difficulty.allCases.map(\.weight) == [1, 1.5, 2])
        let score = DifficultyScore(difficulty: .hard, streak: 10, best: 12, strength: 0.5)
        #expect(score.adjustedStreak == 20)
        #expect(score.adjustedBest == 24)
        #expect(score.raw == 50)
        #expect(score.adjusted == 100)
        #expect(score.normalized == 50)
        let easy = DifficultyScore(difficulty: .easy, streak: 10, best: 12, strength: 0.5)
        #expect(easy.adjustedStreak == 10 && easy.normalized == 25)
        let medium = DifficultyScore(difficulty: .medium, streak: 10, best: 12, strength: 0.5)
        #expect(medium.adjustedStreak == 15 && medium.adjusted == 75 && medium.normalized == 37.5)
    }

    @Test func consistencyScoreIsTheDifficultyWeightedRateOfTheLast30Days() {
        let easy = series(String(repeating: "c", count: 10) + "p", difficulty: .easy, name: "Walk")
        let hard = series("cmcmcmcmcmp", difficulty: .hard, name: "Run")
        let user = UserAnalytics(series: [easy, hard], milestones: [7], today: day(11))
        // (10 × 1 + 5 × 2) / (10 × 1 + 10 × 2) = 20 / 30.
        #expect(user.consistency.score == 67)
        #expect(user.consistency.done == 20 && user.consistency.due == 30)
        // Ranked by normalized score: Walk is far stronger, even weighted 1× against 2×.
        #expect(user.comparison.map(\.habit) == ["walk", "run"])
        #expect(user.comparison.map(\.rank) == [1, 2])
        #expect(user.comparison[0].normalized > user.comparison[1].normalized)
        #expect(UserAnalytics(series: [], milestones: [], today: day(1)).consistency.score == nil)
    }

    @Test func profileStatistics() {
        let a = series(String(repeating: "c", count: 8), name: "Walk")
        let b = series("ccmccc", name: "Run")
        let user = UserAnalytics(series: [a, b], archived: ["run"], milestones: [3, 7], today: day(8))
        #expect(user.profile.totalMilestones == 3)  // Walk: 3 and 7; Run: 3.
        #expect(user.profile.habitsActive == 1 && user.profile.habitsArchived == 1)
        #expect(user.profile.totalDaysCompleted == 13)
        #expect(user.profile.bestStreaks.map(\.best) == [8, 3])
        #expect(user.comparison.map(\.habit) == ["walk"])
    }

    @Test func theHabitsPackRewardsSustainedHardHabits() throws {
        var log = Log()
        log.add(
            .habitCreated(HabitDefinition(id: "run", name: "Run", difficulty: .hard)), on: day(1), hour: 7)
        log.add(
            .habitCreated(HabitDefinition(id: "walk", name: "Walk", difficulty: .easy)), on: day(1), hour: 7)
        log.complete("run", days: 1...30)
        log.complete("walk", days: 1...30)
        let state = try log.state(on: day(30), hour: 22)
        let bonuses = state.ledger.filter { $0.source == .difficultyBonus }
        #expect(bonuses.count == 1)
        #expect(bonuses.first?.habit == "run" && bonuses.first?.diamonds == 30 && bonuses.first?.streak == 30)
        #expect(bonuses.first?.reason == "Hard-habit bonus: 30-day streak on Run")
        // Run: 3 × 20 + 30; Walk: 3 × 20.
        #expect(state.wallet.diamonds == 150)
    }
}

@Suite struct CoachingTests {
    @Test func aBrokenStreakGetsRestartTargetStillCountsAndAReminder() throws {
        let s = series("cccccm", minutes: [420, 450, 480, 1200])
        let recovery = try #require(HabitAnalytics(s).coaching.recovery)
        #expect(recovery.brokenStreak == 5)
        #expect(recovery.brokenOn == day(6))
        #expect(recovery.targetToBeat == 5)
        #expect(recovery.current == 0)
        #expect(recovery.restart.contains("Read"))
        #expect(
            recovery.stillCounts
                == "Your 5-day streak still counts: those 5 days happened, and your best of 5 stays on your record.")
        #expect(recovery.guidance.isEmpty)
        #expect(recovery.reminder.day == day(7))
        #expect(recovery.reminder.time == "07:30")  // the median of 07:00, 07:30, 08:00, 20:00
        #expect(recovery.reminder.message == "Want a reminder for Read tomorrow at 07:30?")
    }

    @Test func afterARestartThePreviousBestIsTheTarget() throws {
        let s = series("ccccccccmcc")
        let recovery = try #require(HabitAnalytics(s).coaching.recovery)
        #expect(recovery.current == 2 && recovery.targetToBeat == 8)
        #expect(recovery.restart.contains("8") || recovery.restart.contains("9"))
        // Coaching ends once the restarted streak passes the broken one.
        #expect(HabitAnalytics(series("cccmcccc")).coaching.recovery == nil)
        // And without a break there is none.
        #expect(HabitAnalytics(series("mmcc")).coaching.recovery == nil)
    }

    @Test func repeatedBreaksBringGentlerGuidance() throws {
        let s = series(
            "ccmccmp", target: Target(comparison: .atLeast, amount: 20, unit: "pages"))
        let recovery = try #require(HabitAnalytics(s).coaching.recovery)
        #expect(recovery.recentBreaks == 2)
        #expect(recovery.guidance.map(\.kind) == [.habitStacking, .easierTarget])
        #expect(recovery.guidance[1].suggestedTarget == Target(comparison: .atLeast, amount: 10, unit: "pages"))
        #expect(recovery.guidance[1].message.contains("10 pages instead of 20 pages"))
        let daily = try #require(HabitAnalytics(series("ccmccm")).coaching.recovery)
        #expect(daily.guidance.last?.suggestedSchedule == .timesPerWeek(4))
        #expect(daily.reminder.time == "09:00")
    }

    @Test func phrasingIsDeterministic() {
        let a = HabitAnalytics(series("cccccm")).coaching
        let b = HabitAnalytics(series("cccccm")).coaching
        #expect(a == b)
    }
}

@Suite struct AnalyticsEngineTests {
    /// The engine's own series and series rebuilt from `HabitState` calendars agree.
    @Test func engineSeriesMatchTheStateCalendars() throws {
        for seed in UInt64(1)...12 {
            var options = LogGenerator.Options()
            options.seed = seed
            options.habits = 4
            options.days = 120
            options.skipRate = 0.05
            let events = LogGenerator(options).events()
            let now = EngineInvariantTests.now(after: options)
            var engine = UserEngine()
            try engine.load(events)
            let state = engine.state(at: now)
            let fromEngine = engine.series(at: now)
            #expect(fromEngine.count == state.habits.count)
            for (series, habit) in zip(fromEngine, state.habits) {
                let rebuilt = HabitSeries(habit, today: state.today, zone: state.timeZone)
                #expect(series.states == rebuilt.states, "seed \(seed) \(habit.definition.id)")
                #expect(series.streaks == rebuilt.streaks, "seed \(seed) \(habit.definition.id)")
                #expect(series.totals == rebuilt.totals, "seed \(seed) \(habit.definition.id)")
                #expect(HabitAnalytics(series) == HabitAnalytics(rebuilt), "seed \(seed) \(habit.definition.id)")
            }
        }
    }

    @Test func analyticsAgreeWithADirectCountOfTheCalendar() throws {
        var options = LogGenerator.Options()
        options.seed = 99
        options.habits = 3
        options.days = 200
        let now = EngineInvariantTests.now(after: options)
        var engine = UserEngine()
        try engine.load(LogGenerator(options).events())
        let state = engine.state(at: now)
        let analytics = engine.analytics(at: now)
        for (habit, stats) in zip(state.habits, analytics.habits) {
            #expect(stats.totalDaysCompleted == habit.calendar.count { $0.state == .completed })
            #expect(stats.milestones.count == [7, 30, 60, 100, 365].count { $0 <= habit.best })
            let longest = habit.calendar.map(\.streak).max() ?? 0
            #expect(stats.streaks.longest == longest)
        }
    }
}

/// The analytics agree with ``NaiveAnalytics``, an independent Foundation-based reference,
/// on generated 1-year logs with daily and weekday schedules and a Sunday week start.
@Suite struct AnalyticsReferenceTests {
    @Test(arguments: UInt64(1)...6) func agreesWithTheNaiveReference(seed: UInt64) throws {
        var options = LogGenerator.Options()
        options.seed = seed
        options.habits = 4
        options.days = 365
        options.skipRate = 0.05
        options.completionRate = 0.8
        options.schedules = [.daily, .weekdays([.monday, .wednesday, .friday]), .weekdays([.saturday, .sunday])]
        options.weekStart = .sunday
        options.policies = [nil, .strict]
        let now = EngineInvariantTests.now(after: options)
        var engine = UserEngine()
        try engine.load(LogGenerator(options).events())
        let state = engine.state(at: now)
        let analytics = engine.analytics(at: now)
        func same(_ rate: CompletionRate, _ naive: NaiveAnalytics.Rate) -> Bool {
            rate.done == naive.done && rate.due == naive.due
        }
        for (habit, stats) in zip(state.habits, analytics.habits) {
            let naive = NaiveAnalytics(habit, today: state.today)
            let label = "seed \(seed) \(habit.definition.id)"
            #expect(same(stats.rates.allTime, naive.allTime), "\(label)")
            #expect(same(stats.rates.thisWeek, naive.thisWeek), "\(label)")
            #expect(same(stats.rates.thisMonth, naive.thisMonth), "\(label)")
            #expect(same(stats.rates.last30Days, naive.last30Days), "\(label)")
            #expect(same(stats.trend.recent, naive.recent) && same(stats.trend.earlier, naive.earlier), "\(label)")
            #expect(stats.weeks.count == naive.weeks.count, "\(label)")
            for week in stats.weeks {
                let reference = naive.weeks[week.start.description] ?? .init(done: 0, due: 0)
                #expect(same(week.rate, reference), "\(label) week \(week.start)")
            }
            #expect(stats.months.count == naive.months.count, "\(label)")
            for month in stats.months {
                let reference = naive.months[String(month.start.description.prefix(7))] ?? .init(done: 0, due: 0)
                #expect(same(month.rate, reference), "\(label) month \(month.start)")
            }
            #expect(zip(stats.weekdays, naive.weekdays).allSatisfy { same($0.rate, $1) }, "\(label)")
            #expect(stats.totalDaysCompleted == naive.totalDaysCompleted, "\(label)")
            #expect(stats.streaks.runs == naive.runs && stats.streaks.longest == naive.longestRun, "\(label)")
            #expect(abs(stats.streaks.average - naive.averageRun) < 1e-9, "\(label)")
            #expect(abs(stats.strength.value - naive.strength) < 1e-9, "\(label)")
            #expect(stats.milestones.count == naive.milestones, "\(label)")
        }
    }
}
