import Foundation
import MomentumCore
import Testing

/// Each day's explanation names the engine's reason for its state and the events that
/// made it (the console's calendar).
struct DayExplanationTests {
    private func explained(_ log: Log, on today: LocalDay, hour: Double = 12) throws -> [String: [DayExplanation]] {
        let state = try log.state(on: today, hour: hour)
        return DayExplanation.explain(state, events: log.events, dayStartHour: 0)
    }

    private func on(_ days: [DayExplanation]?, _ wanted: LocalDay) -> DayExplanation? {
        days?.first { $0.day == wanted }
    }

    @Test func completedDaysNameTheirCompletions() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", on: day(1))
        log.complete("read", on: day(1), hour: 18)
        let days = try explained(log, on: day(2))["read"]
        let first = try #require(on(days, day(1)))
        #expect(first.state == .completed)
        #expect(first.cause == .completion)
        #expect(first.events == ["e2", "e3"])
        #expect(first.detail == "Done: 2 completions logged.")
        #expect(on(days, day(2))?.cause == .open)
    }

    @Test func graceFreezeAndMissAreToldApart() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...10)
        log.buy(days: 1, on: day(10))
        log.complete("read", on: day(15))
        let days = try explained(log, on: day(16))["read"]
        #expect(on(days, day(11))?.cause == .grace)
        #expect(on(days, day(11))?.detail.contains("grace (1 missed day allowed)") == true)
        let frozen = try #require(on(days, day(12)))
        #expect(frozen.state == .frozen)
        #expect(frozen.cause == .freeze)
        #expect(frozen.detail.contains("spent automatically (0 left after it)"))
        #expect(on(days, day(13))?.cause == .missed)
        #expect(on(days, day(13))?.events == [])
    }

    @Test func anAcceptedFreezeNamesTheDecisionAndADeclinedOneExplainsTheMiss() throws {
        var accepted = Log()
        accepted.habit("floss", policy: .strict)
        accepted.complete("floss", days: 1...10)
        accepted.buy(days: 2, on: day(10))
        accepted.answer("floss", missed: day(11), accept: true, on: day(12))
        let frozen = try #require(on(try explained(accepted, on: day(12), hour: 20)["floss"], day(11)))
        #expect(frozen.cause == .freeze)
        #expect(frozen.events.contains(accepted.events.last!.id))
        #expect(frozen.detail.contains("accepted by the user"))

        var declined = Log()
        declined.habit("floss", policy: .strict)
        declined.complete("floss", days: 1...10)
        declined.buy(days: 2, on: day(10))
        declined.answer("floss", missed: day(11), accept: false, on: day(12))
        let missed = try #require(on(try explained(declined, on: day(12), hour: 20)["floss"], day(11)))
        #expect(missed.state == .missed)
        #expect(missed.cause == .declinedFreeze)
        #expect(missed.events == [declined.events.last!.id])
    }

    @Test func skipsPausesAndTravelNameTheirEvents() throws {
        var log = Log()
        log.habit("run")
        log.complete("run", days: 1...3)
        log.skip("run", on: day(4))
        log.add(.pause(Pause(habit: nil, from: day(6), until: day(7), note: "Lisbon")), on: day(5), hour: 21)
        log.complete("run", on: day(5))
        let days = try explained(log, on: day(8))["run"]
        let skipped = try #require(on(days, day(4)))
        #expect(skipped.cause == .skip)
        #expect(skipped.events == ["e5"])
        let paused = try #require(on(days, day(6)))
        #expect(paused.state == .paused)
        #expect(paused.cause == .pause)
        #expect(paused.events == ["e6"])
        #expect(paused.detail.contains("Lisbon"))

        var trip = Log(zone: "America/Los_Angeles")
        trip.habit("read")
        trip.complete("read", days: 1...5)
        trip.add(
            .completion(habit: "read", day: nil, value: 1, note: nil), on: day(7), hour: 10, zone: "Australia/Sydney")
        trip.zone = "Australia/Sydney"
        let travelled = try #require(on(try explained(trip, on: day(8))["read"], day(6)))
        #expect(travelled.state == .skipped)
        #expect(travelled.cause == .travel)
    }

    @Test func aCoveredDayNamesTheAmnestyAndItsReason() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...5)
        log.add(
            .amnesty(
                Amnesty(
                    id: "outage-1", start: log.instant(day(6), hour: 2), end: log.instant(day(6), hour: 20),
                    reason: "Sync was down")), on: day(7), hour: 8)
        log.complete("read", on: day(7))
        let covered = try #require(on(try explained(log, on: day(8))["read"], day(6)))
        #expect(covered.state == .covered)
        #expect(covered.cause == .amnesty)
        #expect(covered.events == [log.events[6].id])
        #expect(covered.detail.contains("Sync was down"))
    }

    @Test func daysNotDueAndBeforeTheFirstCompletionAreNeitherDoneNorMissed() throws {
        var log = Log()
        // January 5th 2026 is a Monday.
        log.habit("gym", .weekdays([.monday, .wednesday, .friday]), on: day(1))
        log.complete("gym", on: day(7))
        let days = try explained(log, on: day(8))["gym"]
        #expect(on(days, day(5))?.cause == .notStarted)
        #expect(on(days, day(6))?.cause == .notDue)
        #expect(on(days, day(6))?.state == .notDue)
        #expect(on(days, day(7))?.cause == .completion)
    }

    @Test func theEngineExplainsOnlyTheDaysAskedFor() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...40)
        var engine = UserEngine(pack: log.pack)
        try engine.load(log.events)
        let days = engine.dayExplanations(at: log.instant(day(41), hour: 12), zone: "UTC", days: 35)
        #expect(days["read"]?.count == 35)
        #expect(days["read"]?.first?.day == day(7))
        #expect(days["read"]?.last?.cause == .open)
    }
}
