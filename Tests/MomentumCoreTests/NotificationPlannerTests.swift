import Foundation
import MomentumCore
import Testing

/// The instant a local wall-clock time happens, by Foundation's calendar: the reference the
/// planner's own arithmetic is checked against.
private func reference(_ zone: String, _ y: Int, _ m: Int, _ d: Int, _ hour: Int, _ minute: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    return calendar.date(from: DateComponents(year: y, month: m, day: d, hour: hour, minute: minute))!
}

private func planner(
    _ zone: String, dayStartHour: Int = 0, _ preferences: NotificationPreferences = .standard
) -> NotificationPlanner {
    NotificationPlanner(preferences: preferences, zone: ZoneOffsetTable.named(zone)!, dayStartHour: dayStartHour)
}

private func reading(
    current: Int = 12, open: Bool = true, days: [LocalDay: DayState] = [:]
) -> NotificationPlanner.Habit {
    NotificationPlanner.Habit(
        id: "read", name: "Reading", current: current, best: 30, open: open, atRisk: open && current > 0, days: days)
}

private let onlyAtRisk = NotificationPreferences(reminders: false, streakBroken: false, freezes: false)

@Suite struct NotificationPlannerTests {
    /// Two real hours before the day ends: on an ordinary day, on the 23-hour and the
    /// 25-hour days of daylight saving, with midnight and 04:00 as the day's start.
    @Test(arguments: [
        // zone, day, day-start hour, the end of that day by Foundation's calendar
        ("Europe/Berlin", LocalDay(year: 2026, month: 3, day: 10)!, 0, reference("Europe/Berlin", 2026, 3, 11, 0)),
        ("Europe/Berlin", LocalDay(year: 2026, month: 3, day: 29)!, 0, reference("Europe/Berlin", 2026, 3, 30, 0)),
        ("Europe/Berlin", LocalDay(year: 2026, month: 10, day: 25)!, 0, reference("Europe/Berlin", 2026, 10, 26, 0)),
        ("Europe/Berlin", LocalDay(year: 2026, month: 3, day: 28)!, 4, reference("Europe/Berlin", 2026, 3, 29, 4)),
        (
            "America/New_York", LocalDay(year: 2026, month: 11, day: 1)!, 0,
            reference("America/New_York", 2026, 11, 2, 0)
        ),
        (
            "America/New_York", LocalDay(year: 2026, month: 10, day: 31)!, 3,
            reference("America/New_York", 2026, 11, 1, 3)
        ),
        (
            "Australia/Lord_Howe", LocalDay(year: 2026, month: 4, day: 5)!, 0,
            reference("Australia/Lord_Howe", 2026, 4, 6, 0)
        ),
    ])
    func theAtRiskWarningGoesTwoRealHoursBeforeTheDayEnds(zone: String, day: LocalDay, start: Int, end: Date) {
        let plan = planner(zone, dayStartHour: start, onlyAtRisk)
        let situation = NotificationPlanner.Situation(today: day, habits: [reading()])
        let fire = end.addingTimeInterval(-7200)
        // Just before: nothing yet, and the next wake is the warning's time.
        let before = plan.run(situation, after: fire.addingTimeInterval(-3600), now: fire.addingTimeInterval(-1))
        #expect(before.due.isEmpty)
        #expect(before.nextWake == fire)
        // At the time: the warning, about the open habit, ending with the day.
        let at = plan.run(situation, after: fire.addingTimeInterval(-1), now: fire)
        #expect(at.due.map(\.key) == ["streak-at-risk:\(day)"])
        #expect(at.due.first?.title == "Your 12-day Reading streak ends in 2 hours")
        #expect(at.due.first?.expires == end)
        #expect(at.due.first?.url == "/habits/read")
        // Once only: the next run starts where this one ended.
        #expect(plan.run(situation, after: fire, now: fire.addingTimeInterval(60)).due.isEmpty)
    }

    @Test func noWarningWhenTheHabitIsDoneOrHasNoStreak() {
        let day = LocalDay(year: 2026, month: 3, day: 10)!
        let plan = planner("Europe/Berlin", onlyAtRisk)
        let fire = reference("Europe/Berlin", 2026, 3, 10, 22)
        for habit in [reading(open: false), reading(current: 0)] {
            let run = plan.run(
                .init(today: day, habits: [habit]), after: fire.addingTimeInterval(-60), now: fire)
            #expect(run.due.isEmpty)
        }
        // Several open: the longest streak leads, the others are named.
        let walk = NotificationPlanner.Habit(id: "walk", name: "Walk", current: 3, best: 3, open: true, atRisk: true)
        let run = plan.run(
            .init(today: day, habits: [walk, reading()]), after: fire.addingTimeInterval(-60), now: fire)
        #expect(run.due.first?.title == "Your 12-day Reading streak ends in 2 hours")
        #expect(run.due.first?.body == "Check in to keep it, and 1 more still open: Walk.")
    }

    @Test func remindersComeAtTheHabitsOwnTimeTheDefaultHourOrTheSuggestedTime() {
        let day = LocalDay(year: 2026, month: 3, day: 10)!
        var preferences = NotificationPreferences(reminderTimes: ["read": 21 * 60 + 30], streakAtRisk: false)
        var walk = NotificationPlanner.Habit(id: "walk", name: "Walk", current: 0, best: 0, open: true, atRisk: false)
        walk.suggestedMinute = 7 * 60 + 15
        let situation = NotificationPlanner.Situation(today: day, habits: [reading(), walk])
        let morning = reference("Europe/Berlin", 2026, 3, 10, 0)
        var run = planner("Europe/Berlin", preferences).run(
            situation, after: morning, now: morning.addingTimeInterval(86_399))
        #expect(run.due.map(\.key) == ["reminder:2026-03-10:walk", "reminder:2026-03-10:read"])
        #expect(
            run.due.map(\.at) == [
                reference("Europe/Berlin", 2026, 3, 10, 7, 15), reference("Europe/Berlin", 2026, 3, 10, 21, 30),
            ])
        #expect(run.due.last?.title == "Time for Reading")
        #expect(run.due.first?.body == "A small step today starts a streak.")
        preferences.reminderHour = 8
        run = planner("Europe/Berlin", preferences).run(
            situation, after: morning, now: morning.addingTimeInterval(86_399))
        #expect(run.due.first?.at == reference("Europe/Berlin", 2026, 3, 10, 8))
        // A habit already done gets none.
        let done = NotificationPlanner.Situation(today: day, habits: [reading(open: false)])
        #expect(
            planner("Europe/Berlin", preferences).run(done, after: morning, now: morning.addingTimeInterval(86_399)).due
                .isEmpty)
    }

    @Test func aReminderInTheSkippedHourMovesForwardAndOneBeforeTheDayStartIsInItsLastHours() {
        // Berlin skips 02:00–03:00 on 2026-03-29: a 02:30 reminder goes at 03:30.
        let plan = planner("Europe/Berlin", NotificationPreferences())
        let spring = plan.wallClock(LocalDay(year: 2026, month: 3, day: 29)!, minute: 150)
        #expect(spring == reference("Europe/Berlin", 2026, 3, 29, 3, 30))
        // 02:30 happens twice on 2026-10-25: the first.
        let autumn = plan.wallClock(LocalDay(year: 2026, month: 10, day: 25)!, minute: 150)
        #expect(autumn == Date(timeIntervalSince1970: 1_792_888_200))  // 2026-10-25T00:30:00Z, 02:30 CEST
        // With a 04:00 day start, 01:00 of the day 2026-03-10 is the night of the 11th.
        let late = planner("Europe/Berlin", dayStartHour: 4).wallClock(
            LocalDay(year: 2026, month: 3, day: 10)!, minute: 60)
        #expect(late == reference("Europe/Berlin", 2026, 3, 11, 1))
    }

    /// A reminder whose time the clocks skip, where moving it forward by the gap would carry
    /// it past the end of its day (the day ends inside the gap), moves back by the gap: it
    /// goes as long before the day's end as the user asked (issue 45, item 5).
    @Test(arguments: [
        // zone, day-start hour, day, reminder minute, when it goes, when the day ends
        // London skips 01:00–02:00 on 2024-03-31; the day that starts at 02:00 ends at 01:00Z.
        (
            "Europe/London", 2, LocalDay(year: 2024, month: 3, day: 30)!, 90, "2024-03-31T00:30:00+00:00",
            "2024-03-31T02:00:00+01:00"
        ),
        // Nuuk skips 23:00–24:00 on Saturday 2024-03-30; the day that starts at 00:00 ends at 01:00Z.
        (
            "America/Nuuk", 0, LocalDay(year: 2024, month: 3, day: 30)!, 23 * 60 + 30, "2024-03-30T22:30:00-02:00",
            "2024-03-31T00:00:00-01:00"
        ),
        (
            "America/Nuuk", 0, LocalDay(year: 2024, month: 3, day: 30)!, 23 * 60, "2024-03-30T22:00:00-02:00",
            "2024-03-31T00:00:00-01:00"
        ),
        // New York skips 02:00–03:00 on 2024-03-10, Berlin on 2024-03-31: a 03:00 day start.
        (
            "America/New_York", 3, LocalDay(year: 2024, month: 3, day: 9)!, 150, "2024-03-10T01:30:00-05:00",
            "2024-03-10T03:00:00-04:00"
        ),
        (
            "Europe/Berlin", 3, LocalDay(year: 2024, month: 3, day: 30)!, 179, "2024-03-31T01:59:00+01:00",
            "2024-03-31T03:00:00+02:00"
        ),
        // Where the gap's forward move stays within the day, it is kept: 02:30 goes at 03:30.
        (
            "Europe/Berlin", 0, LocalDay(year: 2024, month: 3, day: 31)!, 150, "2024-03-31T03:30:00+02:00",
            "2024-04-01T00:00:00+02:00"
        ),
    ])
    func aReminderTheGapWouldPushPastItsDaysEndGoesBeforeTheDayEnds(
        zone: String, hour: Int, day: LocalDay, minute: Int, expected: String, dayEnd: String
    ) throws {
        let preferences = NotificationPreferences(reminderTimes: ["read": minute], streakAtRisk: false)
        let plan = planner(zone, dayStartHour: hour, preferences)
        let at = try #require(RFC3339.parse(expected))
        let end = try #require(RFC3339.parse(dayEnd))
        #expect(plan.wallClock(day, minute: minute) == at)
        // A run over the whole day delivers it, before the day ends.
        let table = try #require(ZoneOffsetTable.named(zone))
        let start = Date(timeIntervalSince1970: Double(DayClock(dayStartHour: hour).start(of: day, in: table)))
        let run = plan.run(
            .init(today: day, habits: [reading()]), after: start.addingTimeInterval(-1),
            now: end.addingTimeInterval(-1))
        let reminder = try #require(run.due.first { $0.kind == .reminder })
        #expect(reminder.key == "reminder:\(day):read")
        #expect(reminder.at == at && reminder.expires == end)
        #expect(run.dropped.isEmpty)
    }

    /// The weekly progress follows the same rule as reminders.
    @Test(arguments: [
        ("Europe/London", 2, LocalDay(year: 2024, month: 3, day: 30)!, 1, "2024-03-31T00:00:00+00:00"),
        ("America/Nuuk", 0, LocalDay(year: 2024, month: 3, day: 30)!, 23, "2024-03-30T22:00:00-02:00"),
        ("America/New_York", 3, LocalDay(year: 2024, month: 3, day: 9)!, 2, "2024-03-10T01:00:00-05:00"),
    ])
    func aWeeklyProgressTheGapWouldPushPastItsDaysEndGoesBeforeTheDayEnds(
        zone: String, hour: Int, day: LocalDay, weeklyHour: Int, expected: String
    ) throws {
        let preferences = NotificationPreferences(
            reminders: false, streakAtRisk: false, weeklySummary: true, weeklyDay: day.weekday,
            weeklyHour: weeklyHour)
        let plan = planner(zone, dayStartHour: hour, preferences)
        let table = try #require(ZoneOffsetTable.named(zone))
        let clock = DayClock(dayStartHour: hour)
        let start = Date(timeIntervalSince1970: Double(clock.start(of: day, in: table)))
        let end = Date(timeIntervalSince1970: Double(clock.start(of: day.advanced(by: 1), in: table)))
        let run = plan.run(
            .init(today: day, habits: [reading(open: false)]), after: start.addingTimeInterval(-1),
            now: end.addingTimeInterval(-1))
        #expect(run.due.map(\.key) == ["weekly-progress:\(day)"])
        #expect(run.due.first?.at == RFC3339.parse(expected))
    }

    /// Casey went from +11 to +08 at 2021-03-13T13:00Z, reading 21:00–24:00 twice; with a
    /// 22:00 day start the 12th ends at the first 22:00, 11:00Z, and its warning goes at
    /// 09:00Z (issue 45, item 6).
    @Test func theAtRiskWarningOfADayEndingInALongFallBackGoesBeforeItsFirstEnd() throws {
        let plan = planner("Antarctica/Casey", dayStartHour: 22, onlyAtRisk)
        let day = LocalDay(year: 2021, month: 3, day: 12)!
        let fire = try #require(RFC3339.parse("2021-03-13T09:00:00Z"))
        let run = plan.run(
            .init(today: day, habits: [reading()]), after: fire.addingTimeInterval(-60), now: fire)
        #expect(run.due.map(\.key) == ["streak-at-risk:2021-03-12"])
        #expect(run.due.first?.expires == RFC3339.parse("2021-03-13T11:00:00Z"))
    }

    @Test func afterADowntimeWhatStillMakesSenseGoesLateAndTheRestIsDropped() {
        let today = LocalDay(year: 2026, month: 3, day: 11)!
        let yesterday = today.advanced(by: -1)
        let preferences = NotificationPreferences(reminderHour: 8, streakBroken: false, freezes: false)
        let situation = NotificationPlanner.Situation(today: today, habits: [reading(days: [yesterday: .missed])])
        // Down from yesterday 10:00 to today 09:00.
        let run = planner("Europe/Berlin", preferences).run(
            situation, after: reference("Europe/Berlin", 2026, 3, 10, 10),
            now: reference("Europe/Berlin", 2026, 3, 11, 9))
        #expect(run.due.map(\.key) == ["reminder:2026-03-11:read"])
        #expect(run.dropped.map(\.key) == ["streak-at-risk:2026-03-10"])
        #expect(run.nextWake == reference("Europe/Berlin", 2026, 3, 11, 22))
    }

    @Test func theDayAfterABreakAnEncouragingRestartWithTheBestAsTheTarget() throws {
        var log = Log(zone: "Europe/Berlin")
        log.habit("read", policy: .strict, on: day(1))
        log.complete("read", days: 1...6)  // a 6-day streak; day 7 missed
        log.complete("read", days: 9...9)
        let now = log.instant(day(8), hour: 10)
        var engine = UserEngine()
        try engine.load(log.events.filter { $0.at <= now })
        let state = engine.state(at: now, zone: "Europe/Berlin")
        let situation = NotificationPlanner.Situation(
            state: state, series: engine.series(at: now, zone: "Europe/Berlin"))
        let habit = try #require(situation.habits.first)
        #expect(habit.recovery?.brokenOn == day(7))
        #expect(habit.suggestedMinute == 9 * 60, "every check-in was at 09:00")
        let preferences = NotificationPreferences(reminders: false, streakAtRisk: false)
        let run = planner("Europe/Berlin", preferences).run(situation, after: log.instant(day(8), hour: 0), now: now)
        let broken = try #require(run.due.first)
        #expect(broken.key == "streak-broken:\(day(8)):read")
        #expect(broken.kind == .streakBroken)
        #expect(broken.at == log.instant(day(8), hour: 9))
        #expect(broken.body.hasSuffix("Your best is 6 days: that's the one to beat."))
        #expect(broken.title == "Start Read again today")
    }

    @Test func theWeeklyProgressComesOnTheChosenDayAndHourForLongStreaksOnly() {
        // 2026-03-15 is a Sunday.
        let sunday = LocalDay(year: 2026, month: 3, day: 15)!
        let preferences = NotificationPreferences(
            reminders: false, streakAtRisk: false, weeklySummary: true, weeklyDay: .sunday, weeklyHour: 18)
        let plan = planner("America/New_York", preferences)
        let walk = NotificationPlanner.Habit(id: "walk", name: "Walk", current: 3, best: 3, open: false, atRisk: false)
        let run = plan.run(
            .init(today: sunday, habits: [reading(open: false), walk]),
            after: reference("America/New_York", 2026, 3, 15, 0), now: reference("America/New_York", 2026, 3, 15, 18))
        #expect(run.due.map(\.key) == ["weekly-progress:2026-03-15"])
        #expect(run.due.first?.body == "Reading: 12 days. Keep it up!")
        // No long streak, no weekly progress; another weekday, none either.
        let short = plan.run(
            .init(today: sunday, habits: [walk]), after: reference("America/New_York", 2026, 3, 15, 0),
            now: reference("America/New_York", 2026, 3, 15, 23))
        #expect(short.due.isEmpty)
        let monday = plan.run(
            .init(today: sunday.advanced(by: 1), habits: [reading(open: false)]),
            after: reference("America/New_York", 2026, 3, 16, 0), now: reference("America/New_York", 2026, 3, 16, 23))
        #expect(monday.due.isEmpty)
    }

    @Test func aFreezeOfferTellsItsDeadlineAndAFreezeUsedIsTold() {
        let today = LocalDay(year: 2026, month: 3, day: 11)!
        let preferences = NotificationPreferences(reminders: false, streakAtRisk: false, streakBroken: false)
        let offer = OpenFreezeOffer(habit: "read", day: today.advanced(by: -1), expires: today)
        let situation = NotificationPlanner.Situation(today: today, habits: [reading()], offers: [offer])
        let plan = planner("Europe/Berlin", preferences)
        let run = plan.run(
            situation, after: reference("Europe/Berlin", 2026, 3, 10, 23),
            now: reference("Europe/Berlin", 2026, 3, 11, 7))
        #expect(run.due.map(\.key) == ["freeze-offered:2026-03-10:read"])
        #expect(
            run.due.first?.body
                == "Tue 10 Mar 2026 was missed. Use a freeze by the end of Wed 11 Mar 2026 to keep your streak.")
        #expect(run.due.first?.expires == reference("Europe/Berlin", 2026, 3, 12, 0))
        // Found after its deadline: dropped.
        let late = plan.run(
            situation, after: reference("Europe/Berlin", 2026, 3, 10, 23),
            now: reference("Europe/Berlin", 2026, 3, 12, 1))
        #expect(late.dropped.map(\.key).contains("freeze-offered:2026-03-10:read"))

        let frozen = NotificationPlanner.Situation(
            today: today, habits: [reading(days: [today.advanced(by: -1): .frozen])])
        let used = plan.run(
            frozen, after: reference("Europe/Berlin", 2026, 3, 10, 23),
            now: reference("Europe/Berlin", 2026, 3, 11, 0, 5))
        #expect(used.due.map(\.key) == ["freeze-used:2026-03-10:read"])
        #expect(used.due.first?.title == "A freeze kept your Reading streak")
    }

    @Test func kindsTurnedOffAndAUserWithoutHabitsGetNothing() {
        let day = LocalDay(year: 2026, month: 3, day: 10)!
        let off = NotificationPreferences(
            reminders: false, streakAtRisk: false, celebrations: false, streakBroken: false, weeklySummary: false,
            freezes: false, social: false, nudges: false)
        let situation = NotificationPlanner.Situation(today: day, habits: [reading()])
        let run = planner("Europe/Berlin", off).run(
            situation, after: reference("Europe/Berlin", 2026, 3, 10, 0),
            now: reference("Europe/Berlin", 2026, 3, 10, 23))
        #expect(run.due.isEmpty && run.dropped.isEmpty)
        let empty = planner("Europe/Berlin").run(
            .init(today: day, habits: []), after: reference("Europe/Berlin", 2026, 3, 10, 0),
            now: reference("Europe/Berlin", 2026, 3, 10, 23))
        #expect(empty.due.isEmpty && empty.nextWake == nil)
        for kind in NotificationKind.allCases { #expect(!off.wants(kind)) }
    }

    @Test func hoursOutOfRangeInUncheckedPreferencesDoNotTrap() {
        let day = LocalDay(year: 2026, month: 3, day: 10)!
        let wild = NotificationPreferences(
            reminderHour: .max, weeklySummary: true, weeklyDay: .tuesday, weeklyHour: .min)
        let run = planner("Europe/Berlin", wild).run(
            .init(today: day, habits: [reading()]), after: reference("Europe/Berlin", 2026, 3, 9, 23),
            now: reference("Europe/Berlin", 2026, 3, 10, 23, 59))
        #expect(run.due.map(\.key).contains("reminder:2026-03-10:read"))
        #expect(run.due.map(\.key).contains("weekly-progress:2026-03-10"))
    }

    @Test func aMilestoneGoesAtOnceAndARetroactiveOneSaysWhenItWasReached() {
        let now = reference("Europe/Berlin", 2026, 3, 10, 12)
        var unlock = Unlock(
            id: "u1", rule: "streak-7", title: "7-day streak", category: "streak", tier: .notable,
            milestoneType: "streak",
            value: 7, achievedAt: now, achievedDay: LocalDay(year: 2026, month: 3, day: 10)!, detectedAt: now,
            retroactive: false, subject: nil, habit: "read")
        let plan = planner("Europe/Berlin")
        let live = plan.milestone(unlock, title: "7 days of Reading!", message: "A week!", now: now)
        #expect(live.key == "milestone:u1" && live.at == now && live.url == "/habits/read")
        unlock.retroactive = true
        #expect(
            plan.milestone(unlock, title: "7 days", message: "A week!", now: now).body
                == "A week! (Reached on Tue 10 Mar 2026.)")
    }

    @Test func preferencesReadAndWriteTimesOfDayAndOlderPreferencesStillRead() throws {
        let preferences = NotificationPreferences(reminderTimes: ["read": 21 * 60 + 5], weeklyDay: .friday)
        let json = try JSONEncoder().encode(preferences)
        #expect(String(decoding: json, as: UTF8.self).contains(#""read":"21:05""#))
        #expect(try JSONDecoder().decode(NotificationPreferences.self, from: json) == preferences)
        let older = try JSONDecoder().decode(
            NotificationPreferences.self, from: Data(#"{"reminders": false, "reminderHour": 7}"#.utf8))
        #expect(older.reminders == false && older.reminderHour == 7 && older.streakAtRisk && older.weeklyDay == .sunday)
        for bad in ["24:00", "9:30", "21:60", "noon", "+1:30", "٠٩:٣٠"] {
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode(
                    NotificationPreferences.self, from: Data(#"{"reminderTimes": {"read": "\#(bad)"}}"#.utf8))
            }
        }
        #expect(NotificationPreferences(weeklyHour: 24).problem == "weekly hour must be 0 to 23, not 24")
        #expect(NotificationPreferences(reminderTimes: ["read": 1440]).problem != nil)
        #expect(NotificationPreferences.standard.problem == nil)
    }
}
