import Foundation
import MomentumCore
import Testing

/// Schedules, targets and rest days. 2026-01-01 (`day(1)`) is a Thursday; `day(5)` is Monday.
struct ScheduleTests {
    @Test func weekdayHabitsIgnoreUnscheduledDays() throws {
        var log = Log()
        log.habit("gym", .weekdays([.monday, .wednesday, .friday]), on: day(5))
        for n in [5, 7, 9, 14] { log.complete("gym", on: day(n)) }
        let gym = try log.state(on: day(15))[habit: "gym"]
        #expect(
            gym.states(from: day(5), through: day(14)) == [
                .completed, .notDue, .completed, .notDue, .completed, .notDue, .notDue, .grace, .notDue, .completed,
            ])
        #expect(gym.current == 4)
    }

    @Test func timesPerWeekSucceedsAsSoonAsTheQuotaIsMet() throws {
        var log = Log()
        log.habit("run", .timesPerWeek(3), on: day(5))
        for n in [5, 6, 7] { log.complete("run", on: day(n)) }
        let run = try log.state(on: day(7), hour: 20)[habit: "run"]
        #expect(run.current == 1)
        #expect(
            run.today.period
                == PeriodProgress(start: day(5), end: day(11), completedDays: 3, requiredDays: 3, fulfilled: true))
    }

    @Test func timesPerWeekMissIsJudgedOnTheLastDayOfTheWeek() throws {
        var log = Log()
        log.habit("run", .timesPerWeek(3), policy: .strict, on: day(5))
        for n in [5, 6, 7, 12, 13] { log.complete("run", on: day(n)) }
        let midWeek = try log.state(on: day(16))[habit: "run"]
        #expect(midWeek.current == 1)
        #expect(midWeek.today.state == .pending)
        #expect(midWeek.today.period?.completedDays == 2)
        let after = try log.state(on: day(19))[habit: "run"]
        #expect(after[day(18)].state == .missed)
        #expect(after[day(17)].state == .notDue)
        #expect(after.current == 0)
    }

    @Test func weekStartIsConfigurable() throws {
        var log = Log()
        log.habit("run", .timesPerWeek(2), on: day(4), weekStart: .sunday)  // Sunday January 4th
        for n in [4, 10] { log.complete("run", on: day(n)) }  // Sunday and Saturday of one week
        let run = try log.state(on: day(11))[habit: "run"]
        #expect(run.current == 1)
        #expect(run.today.period?.start == day(11))
    }

    @Test func aPartialFirstWeekNeedsNoMoreDaysThanItHas() throws {
        var log = Log()
        log.habit("run", .timesPerWeek(5), on: day(2))  // Friday: only three days left in the week
        for n in [2, 3, 4] { log.complete("run", on: day(n)) }
        #expect(try log.state(on: day(5))[habit: "run"].current == 1)
    }

    @Test func timesPerMonthCountsDistinctDays() throws {
        var log = Log()
        log.habit("swim", .timesPerMonth(4))
        for n in [2, 2, 9, 16] { log.complete("swim", on: day(n)) }
        #expect(try log.state(on: day(20))[habit: "swim"].current == 0)
        log.complete("swim", on: day(23))
        let swim = try log.state(on: day(24))[habit: "swim"]
        #expect(swim.current == 1)
        #expect(swim.today.period?.end == day(31))
    }

    @Test func everyNDaysBlocksAreAnchoredAtTheFirstDay() throws {
        var log = Log()
        log.habit("water-plants", .everyNDays(3))
        for n in [2, 6] { log.complete("water-plants", on: day(n)) }
        let plants = try log.state(on: day(13))[habit: "water-plants"]
        // Blocks 1–3 and 4–6 done; 7–9 missed (grace); 10–12 missed (−1).
        #expect(plants[day(9)].state == .grace)
        #expect(plants[day(12)].state == .missed)
        #expect(plants.current == 1)
    }

    @Test func monthlyOnThe31stFallsOnTheLastDayOfShortMonths() {
        let schedule = Schedule.monthly(day: 31)
        #expect(schedule.isDue(on: LocalDay(year: 2026, month: 2, day: 28)!))
        #expect(schedule.isDue(on: LocalDay(year: 2026, month: 4, day: 30)!))
        #expect(!schedule.isDue(on: LocalDay(year: 2026, month: 3, day: 30)!))
        let leap = Schedule.yearly(month: 2, day: 29)
        #expect(leap.isDue(on: LocalDay(year: 2026, month: 2, day: 28)!))
        #expect(leap.isDue(on: LocalDay(year: 2028, month: 2, day: 29)!))
        #expect(!leap.isDue(on: LocalDay(year: 2028, month: 2, day: 28)!))
    }

    @Test func monthlyStreakCountsMonths() throws {
        var log = Log()
        log.habit("budget", .monthly(day: 1))
        for n in [1, 32, 60] { log.complete("budget", on: day(n)) }  // Jan 1, Feb 1, Mar 1
        let budget = try log.state(on: day(61))[habit: "budget"]
        #expect(budget.current == 3)
        #expect(budget[day(2)].state == .notDue)
    }

    @Test func atLeastTargetNeedsTheDaysTotal() throws {
        var log = Log()
        log.habit("water", target: Target(comparison: .atLeast, amount: 8, unit: "glasses"))
        log.complete("water", on: day(1), value: 3, hour: 9)
        log.complete("water", on: day(1), value: 3, hour: 12)
        let partial = try log.state(on: day(1), hour: 13)[habit: "water"]
        #expect(partial.today.state == .pending)
        #expect(partial.today.logged == 6)
        #expect(partial.today.remaining == 2)
        log.complete("water", on: day(1), value: 2, hour: 15)
        let done = try log.state(on: day(1), hour: 16)[habit: "water"]
        #expect(done.today.state == .completed)
        #expect(done.current == 1)
    }

    @Test func atMostTargetIsJudgedWhenTheDayEnds() throws {
        var log = Log()
        log.habit("coffee", policy: .strict, target: Target(comparison: .atMost, amount: 2, unit: "cups"))
        log.complete("coffee", on: day(1), value: 1)
        log.complete("coffee", on: day(2), value: 0)
        log.complete("coffee", on: day(3), value: 2)
        log.complete("coffee", on: day(3), value: 1, hour: 15)
        log.complete("coffee", on: day(5), value: 1)
        let coffee = try log.state(on: day(5), hour: 18)[habit: "coffee"]
        #expect(coffee.states(from: day(1), through: day(4)) == [.completed, .completed, .missed, .missed])
        #expect(coffee.today.state == .pending)
        #expect(coffee.today.remaining == nil)
        #expect(coffee.current == 0)
        #expect(try log.state(on: day(6))[habit: "coffee"].current == 1)
    }

    @Test func restDaysNeitherExtendNorBreak() throws {
        var log = Log()
        log.habit("read")
        log.habit("walk")
        log.complete("read", days: 1...2)
        log.complete("walk", days: 1...2)
        log.skip("read", on: day(3))
        log.skip(nil, on: day(4))  // a rest day for every habit
        log.complete("read", on: day(5))
        log.complete("walk", on: day(5))
        let state = try log.state(on: day(6))
        #expect(state[habit: "read"].states(from: day(3), through: day(5)) == [.skipped, .skipped, .completed])
        #expect(state[habit: "read"].current == 3)
        #expect(state[habit: "walk"].states(from: day(3), through: day(5)) == [.grace, .skipped, .completed])
        #expect(state[habit: "walk"].current == 3)
    }

    @Test func todayIsPendingNeverMissed() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", on: day(1))
        let read = try log.state(on: day(3), hour: 23.9)[habit: "read"]
        #expect(read.calendar.map(\.state) == [.completed, .grace, .pending])
        #expect(read.today.remaining == 1)
    }

    @Test func invalidSchedulesAreRefusedWithTheReason() {
        let cases = [
            (#"{"kind": "timesPerWeek", "count": 8}"#, "timesPerWeek count must be 1…7"),
            (#"{"kind": "weekdays", "days": []}"#, "weekdays needs at least one day"),
            (#"{"kind": "fortnightly"}"#, "unknown schedule kind 'fortnightly'"),
            (#"{"kind": "yearly", "month": 2, "day": 30}"#, "is not a date"),
        ]
        for (json, reason) in cases {
            #expect {
                try JSONDecoder().decode(Schedule.self, from: Data(json.utf8))
            } throws: { error in
                "\(error)".contains(reason)
            }
        }
    }
}
