import Foundation
import MomentumAPI
import MomentumCore
import Testing

/// Groups ("Morning routine"), the order habits are shown in, and archiving undone.
struct GroupsAndOrderTests {
    @Test func groupsAreSetChangedAndClearedAndWrittenLikeTheOtherFields() throws {
        var log = Log()
        log.add(.habitCreated(HabitDefinition(id: "stretch", name: "Stretch", group: "Morning routine")), on: day(1))
        log.habit("read")
        log.add(.habitUpdated(HabitChanges(habit: "read", group: "Evening")), on: day(2))
        log.add(.habitUpdated(HabitChanges(habit: "stretch", group: "")), on: day(3))
        let state = try log.state(on: day(3))
        #expect(state[habit: "stretch"].definition.group == nil)
        #expect(state[habit: "read"].definition.group == "Evening")
        // The hand-written JSON of a habit's state is Foundation's, group included.
        let habit = state[habit: "read"]
        let direct = try MomentumJSON.encodeBytes(habit)
        let decoded = try MomentumJSON.decoder().decode(HabitState.self, from: Data(direct))
        #expect(decoded == habit)
        #expect(String(decoding: direct, as: UTF8.self).contains(#""group":"Evening""#))
        var long = Log()
        long.add(
            .habitCreated(HabitDefinition(id: "x", name: "X", group: String(repeating: "g", count: 101))), on: day(1))
        let error = #expect(throws: EventLogError.self) { try long.state(on: day(1)) }
        #expect(error?.errors.first?.field == "group")
    }

    @Test func theLatestOrderHoldsAndHabitsItLeavesOutFollowInCreationOrder() throws {
        var log = Log()
        for id in ["a", "b", "c", "d"] { log.habit(id) }
        #expect(try log.state(on: day(1)).order == ["a", "b", "c", "d"])
        log.add(.order(habits: ["c", "a"]), on: day(2))
        #expect(try log.state(on: day(2)).order == ["c", "a", "b", "d"])
        log.add(.order(habits: ["d", "c", "b", "a"]), on: day(3))
        let state = try log.state(on: day(3))
        #expect(state.order == ["d", "c", "b", "a"])
        // The dashboard lists habits in that order; the engine keeps creation order (the
        // order habits draw on the freeze pool).
        #expect(TodayReport(state).habits.map(\.definition.id) == ["d", "c", "b", "a"])
        #expect(state.habits.map(\.definition.id) == ["a", "b", "c", "d"])

        var unknown = Log()
        unknown.habit("a")
        unknown.add(.order(habits: ["a", "ghost"]), on: day(1))
        let error = #expect(throws: EventLogError.self) { try unknown.state(on: day(1)) }
        #expect(error?.errors.first?.code == .unknownHabit)
        let twice = #"{"id":"o1","type":"order","at":"2026-01-02T09:00:00Z","tz":"UTC","habits":["a","a"]}"#
        #expect(throws: DecodingError.self) { try MomentumJSON.decoder().decode(Event.self, from: Data(twice.utf8)) }
    }

    /// Archived on day 5, back on day 9: days 5–8 show as archived and neither extend nor
    /// break the streak; a check-in while archived is refused; from day 9 it counts again.
    @Test func anUnarchivedHabitGoesOnFromItsStreak() throws {
        var log = Log()
        log.habit("run", policy: .strict)
        log.complete("run", days: 1...4)
        log.add(.habitArchived(habit: "run"), on: day(5), hour: 8)
        log.complete("run", on: day(6))
        log.add(.habitUnarchived(habit: "run"), on: day(9), hour: 8)
        log.complete("run", on: day(9))
        let state = try log.state(on: day(10))
        let run = state[habit: "run"]
        #expect(run.archivedDay == nil)
        #expect(
            run.states(from: day(4), through: day(10)) == [
                .completed, .archived, .archived, .archived, .archived, .completed, .pending,
            ])
        #expect(run.current == 5)
        #expect(state.rejected.map(\.code) == [.habitArchived])
        // Unarchiving a habit that is not archived changes nothing.
        var again = log
        again.add(.habitUnarchived(habit: "run"), on: day(10), hour: 8)
        var expected = state
        expected.now = again.instant(day(10), hour: 12)
        #expect(try again.state(on: day(10)).habits == state.habits)
    }

    /// A weekly habit unarchived mid-week starts a fresh week, counted from that day.
    @Test func aWeeklyHabitUnarchivedMidWeekStartsAFreshPeriod() throws {
        var log = Log()
        // 2026-01-05 is a Monday.
        log.habit("gym", .timesPerWeek(3), policy: .strict, on: day(5))
        log.complete("gym", on: day(5))
        log.add(.habitArchived(habit: "gym"), on: day(6), hour: 8)
        log.add(.habitUnarchived(habit: "gym"), on: day(15), hour: 8)
        log.complete("gym", on: day(15))
        let state = try log.state(on: day(15), hour: 20)
        let period = try #require(state[habit: "gym"].today.period)
        // Thursday 15 January to Sunday 18: three days needed of four.
        #expect(period.start == day(12) && period.end == day(18))
        #expect(period.requiredDays == 3 && period.completedDays == 1)
    }
}
