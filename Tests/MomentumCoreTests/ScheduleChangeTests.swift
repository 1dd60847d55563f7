import Foundation
import MomentumCore
import Testing

/// A schedule changed from a day on: the days before keep the old rule, the change day and
/// after follow the new one, and the streak carries over as it stands.
struct ScheduleChangeTests {
    static func change(_ habit: String, to schedule: Schedule) -> Event.Payload {
        .habitUpdated(HabitChanges(habit: habit, schedule: schedule))
    }

    /// Daily to Monday–Wednesday–Friday: the old days stay judged daily, the streak goes on,
    /// and a Tuesday after the change is not due.
    @Test func dailyToWeekdaysKeepsTheOldDaysAndTheStreak() throws {
        var log = Log()
        log.habit("run", policy: .strict)
        log.complete("run", days: 1...5)
        log.add(Self.change("run", to: .weekdays([.monday, .wednesday, .friday])), on: day(6), hour: 8)
        // 2026-01-06 (day 6) is a Tuesday: Wednesday is day 7, Friday day 9.
        log.complete("run", on: day(7))
        log.complete("run", on: day(9))
        let state = try log.state(on: day(10))
        let run = state[habit: "run"]
        #expect(
            run.states(from: day(4), through: day(9)) == [
                .completed, .completed, .notDue, .completed, .notDue, .completed,
            ])
        #expect(run.current == 7)
        #expect(run.definition.schedule == .weekdays([.monday, .wednesday, .friday]))
        // Before the change a missed day broke the streak: the old rule still judges it.
        var missed = Log()
        missed.habit("run", policy: .strict)
        missed.complete("run", days: 1...3)
        missed.add(Self.change("run", to: .weekdays([.monday, .wednesday, .friday])), on: day(6), hour: 8)
        missed.complete("run", on: day(7))
        let again = try missed.state(on: day(8))
        #expect(again[habit: "run"].states(from: day(4), through: day(5)) == [.missed, .missed])
        #expect(again[habit: "run"].current == 1)
    }

    /// A weekly quota changed mid-week: the week under way is judged on the days it had
    /// (three of them, quota capped at 3), the new daily rule holds from the change day.
    @Test func aWeekUnderWayIsJudgedOnTheDaysItHad() throws {
        var log = Log()
        // 2026-01-05 is a Monday.
        log.habit("gym", .timesPerWeek(4), policy: .strict, on: day(5))
        log.complete("gym", on: day(5))
        log.complete("gym", on: day(6))
        log.add(Self.change("gym", to: .daily), on: day(8), hour: 8)
        log.complete("gym", on: day(8))
        log.complete("gym", on: day(9))
        let state = try log.state(on: day(9), hour: 20)
        // Monday–Wednesday needed min(4, 3) = 3 days and had 2: the week failed on Wednesday.
        #expect(state[habit: "gym"][day(7)].state == .missed)
        #expect(state[habit: "gym"][day(7)].streak == 0)
        #expect(state[habit: "gym"].current == 2)

        var kept = Log()
        kept.habit("gym", .timesPerWeek(2), policy: .strict, on: day(5))
        kept.complete("gym", on: day(5))
        kept.complete("gym", on: day(6))
        kept.add(Self.change("gym", to: .daily), on: day(8), hour: 8)
        kept.complete("gym", on: day(8))
        let ok = try kept.state(on: day(8), hour: 20)
        // The week was already fulfilled on Tuesday; the daily rule adds Thursday.
        #expect(ok[habit: "gym"].current == 2)
        #expect(ok[habit: "gym"].today.period == nil)
    }

    /// Daily to 3 times a week on a Thursday: the first week counts only Thursday to Sunday.
    @Test func theNewQuotasFirstWeekStartsOnTheChangeDay() throws {
        var log = Log()
        log.habit("swim", policy: .strict, on: day(1))
        log.complete("swim", days: 1...7)
        log.add(Self.change("swim", to: .timesPerWeek(3)), on: day(8), hour: 8)
        log.complete("swim", on: day(8))
        let state = try log.state(on: day(9))
        let period = try #require(state[habit: "swim"].today.period)
        #expect(period.start == day(5) && period.end == day(11))
        #expect(period.requiredDays == 3)
        #expect(period.completedDays == 1)
        #expect(state[habit: "swim"].current == 7)
        #expect(state[habit: "swim"].streakUnit == "week")
    }

    /// The change applies from the start of its day, whatever time it was made: a check-in
    /// earlier that day counts under the new rule, and the result is the same however the
    /// events arrive.
    @Test func theChangeHoldsFromTheStartOfItsDayInAnyArrivalOrder() throws {
        var log = Log()
        log.habit("read", .weekdays([.monday]), policy: .strict)
        // Day 6 is a Tuesday: not due on Mondays-only, due once the rule is daily.
        log.complete("read", on: day(6))
        log.add(Self.change("read", to: .daily), on: day(6), hour: 20)
        let now = log.instant(day(7), hour: 12)
        let state = try log.state(on: day(7))
        #expect(state[habit: "read"][day(6)].state == .completed)
        #expect(state[habit: "read"].current == 1)
        var engine = UserEngine()
        for event in log.events.reversed().sorted(by: {
            $0.payload.type == "habit.created" && $1.payload.type != "habit.created"
        }) {
            try engine.append(event)
        }
        #expect(engine.state(at: now) == state)
    }

    /// Rates after a change judge each day by its own rule.
    @Test func analyticsJudgeEachDayByItsOwnSchedule() throws {
        var log = Log()
        log.habit("run", policy: .strict)
        log.complete("run", days: 1...10)
        log.add(Self.change("run", to: .weekdays([.monday])), on: day(11), hour: 8)
        // Mondays after the change: 2026-01-12 (day 12) and 2026-01-19 (day 19).
        log.complete("run", on: day(12))
        log.complete("run", on: day(19))
        var engine = UserEngine()
        try engine.load(log.events)
        let analytics = engine.analytics(at: log.instant(day(20), hour: 12), zone: "UTC")
        let run = try #require(analytics.habits.first)
        // 10 daily days and 2 Mondays, all done; the Tuesdays to Sundays after the change are
        // not held against it.
        #expect(run.rates.allTime.done == 12 && run.rates.allTime.due == 12)
        #expect(run.totalDaysCompleted == 12)
    }

    @Test func aScheduleChangeReadsAndWritesItsJSON() throws {
        let json =
            #"{"id":"u1","type":"habit.updated","at":"2026-03-02T08:00:00Z","tz":"UTC","habit":"run","schedule":{"kind":"timesPerWeek","count":3}}"#
        let event = try MomentumJSON.decoder().decode(Event.self, from: Data(json.utf8))
        #expect(event.payload == Self.change("run", to: .timesPerWeek(3)))
        #expect(try MomentumJSON.decoder().decode(Event.self, from: MomentumJSON.encoder().encode(event)) == event)
        let bad =
            #"{"id":"u1","type":"habit.updated","at":"2026-03-02T08:00:00Z","tz":"UTC","habit":"run","schedule":{"kind":"timesPerWeek","count":9}}"#
        #expect(throws: DecodingError.self) { try MomentumJSON.decoder().decode(Event.self, from: Data(bad.utf8)) }
    }
}
