import Foundation
import MomentumCore
import Testing

/// Crossing the date line: dates the user never lived are skipped, never missed.
struct TravelTests {
    @Test func flyingFromLosAngelesToSydneySkipsTheLostDate() throws {
        var log = Log(zone: "America/Los_Angeles")
        log.habit("read")
        log.complete("read", days: 1...5)
        // Monday January 5th, 20:00 in LA; next log Wednesday 7th, 10:00 in Sydney
        // (Tuesday 6th, 15:00 in LA): the calendar jumped one date more than time passed.
        log.add(
            .completion(habit: "read", day: nil, value: 1, note: nil), on: day(7), hour: 10, zone: "Australia/Sydney")
        var sydney = log
        sydney.zone = "Australia/Sydney"
        let state = try sydney.state(on: day(8))
        #expect(state.skippedDays == [day(6)])
        #expect(state[habit: "read"][day(6)].state == .skipped)
        #expect(state[habit: "read"][day(7)].streak == 6)
    }

    @Test func flyingWestRepeatsADateAndSkipsNothing() throws {
        var log = Log(zone: "Australia/Sydney")
        log.habit("read")
        log.complete("read", days: 1...5)
        log.add(
            .completion(habit: "read", day: nil, value: 1, note: nil), on: day(5), hour: 20, zone: "America/Los_Angeles"
        )
        log.add(
            .completion(habit: "read", day: nil, value: 1, note: nil), on: day(6), hour: 20, zone: "America/Los_Angeles"
        )
        var home = log
        home.zone = "America/Los_Angeles"
        let state = try home.state(on: day(7))
        #expect(state.skippedDays.isEmpty)
        #expect(state[habit: "read"].current == 6)
    }

    @Test func aZoneChangeWithinTheSameDayChangesNothing() throws {
        var log = Log(zone: "Europe/London")
        log.habit("read")
        log.complete("read", days: 1...3)
        log.add(.completion(habit: "read", day: nil, value: 1, note: nil), on: day(4), hour: 9, zone: "Asia/Tokyo")
        let state = try log.state(on: day(5))
        #expect(state.skippedDays.isEmpty)
        #expect(state[habit: "read"].current == 4)
    }

    @Test func nightOwlDayStartCountsEarlyMorningForTheDayBefore() throws {
        var log = Log()
        log.habit("journal")
        log.complete("journal", on: day(1), hour: 22)
        log.complete("journal", on: day(3), hour: 1.5)  // 01:30 on the 3rd is still the 2nd
        let journal = try log.state(on: day(3), hour: 12, dayStartHour: 3)[habit: "journal"]
        #expect(journal.states(from: day(1), through: day(2)) == [.completed, .completed])
        #expect(journal.current == 2)
    }
}
