import Foundation
import MomentumCore
import Testing

/// Pauses (vacations): their days neither extend nor break a streak, spend no freeze and
/// show as their own state; a pause cannot reach back past the backfill window, so a
/// broken streak is not repaired after the fact; a resume ends one early.
struct PauseTests {
    static func pause(_ habit: String? = nil, _ from: Int, _ until: Int, note: String? = nil) -> Event.Payload {
        .pause(Pause(habit: habit, from: day(from), until: day(until), note: note))
    }

    @Test func pausedDaysNeitherExtendNorBreakAStreakAndSpendNoFreeze() throws {
        var log = Log()
        log.habit("run", policy: StreakPolicy(grace: 0, penalty: .reset, freezes: .automatic))
        log.habit("read", policy: StreakPolicy(grace: 0, penalty: .reset, freezes: .automatic))
        log.complete("run", days: 1...10)
        log.complete("read", days: 1...10)
        // The ten-day rewards pay for one freeze day.
        log.buy(days: 1, on: day(10), hour: 21)
        log.add(Self.pause("run", 11, 13, note: "Lisbon"), on: day(10), hour: 22)
        log.complete("run", days: 14...15)
        log.complete("read", days: 14...15)
        let state = try log.state(on: day(15), hour: 20)
        #expect(
            state[habit: "run"].states(from: day(10), through: day(15)) == [
                .completed, .paused, .paused, .paused, .completed, .completed,
            ])
        #expect(state[habit: "run"].current == 12)
        #expect(state[habit: "run"][day(12)].streak == 10)
        // The other habit was not paused: its first missed day spends the freeze, the next
        // breaks it.
        #expect(state[habit: "read"].states(from: day(11), through: day(13)) == [.frozen, .missed, .missed])
        #expect(state.wallet.freezes == 0)
        #expect(state.ledger.filter { $0.source == .freezeUsed }.count == 1)
        #expect(
            state.pauses == [
                PausePeriod(id: "e24", habit: "run", from: day(11), until: day(13), note: "Lisbon", resumed: false)
            ])
    }

    @Test func aPauseOfEveryHabitCoversHabitsMadeDuringIt() throws {
        var log = Log()
        log.habit("run")
        log.complete("run", days: 1...3)
        log.add(Self.pause(nil, 4, 10), on: day(3), hour: 21)
        log.habit("swim", on: day(5))
        let state = try log.state(on: day(7))
        #expect(state[habit: "run"].states(from: day(4), through: day(7)) == [.paused, .paused, .paused, .paused])
        #expect(state[habit: "swim"].states(from: day(5), through: day(7)) == [.paused, .paused, .paused])
        #expect(state[habit: "run"].today.state == .paused)
        #expect(state[habit: "run"].current == 3)
        #expect(state.freezeOffers.isEmpty)
    }

    /// A done day stays done: doing the habit on vacation still counts.
    @Test func aCompletionOnAPausedDayCounts() throws {
        var log = Log()
        log.habit("run")
        log.complete("run", days: 1...2)
        log.add(Self.pause("run", 3, 6), on: day(2), hour: 21)
        log.complete("run", on: day(4))
        let state = try log.state(on: day(7))
        #expect(state[habit: "run"].states(from: day(3), through: day(6)) == [.paused, .completed, .paused, .paused])
        #expect(state[habit: "run"].current == 3)
    }

    /// A weekly quota needs no more days than the week has outside its pause.
    @Test func aPausedWeekNeedsOnlyTheDaysItHasLeft() throws {
        var log = Log()
        // 2026-01-05 is a Monday: day 5.
        log.habit("gym", .timesPerWeek(3), policy: .strict, on: day(5))
        log.complete("gym", on: day(5))
        log.complete("gym", on: day(6))
        log.add(Self.pause("gym", 7, 11), on: day(6), hour: 21)
        log.complete("gym", on: day(12))
        log.complete("gym", on: day(13))
        let state = try log.state(on: day(13), hour: 20)
        // Monday and Tuesday done, Wednesday–Sunday paused: the week needs 2 days and has them.
        #expect(state[habit: "gym"][day(11)].streak == 1)
        #expect(state[habit: "gym"].current == 1)
        #expect(state[habit: "gym"].states(from: day(7), through: day(11)).allSatisfy { $0 == .paused })
    }

    /// The habits pack accepts completions one day back: a pause may begin yesterday, not
    /// the day before, so a day already missed cannot be paused away later.
    @Test func aPauseCannotReachPastTheBackfillWindow() throws {
        var log = Log()
        log.habit("run", policy: .strict)
        log.complete("run", days: 1...5)
        log.add(Self.pause("run", 6, 9), on: day(8))
        let error = #expect(throws: EventLogError.self) { try log.state(on: day(8)) }
        let refusal = try #require(error?.errors.first)
        #expect(refusal.code == .outsideBackfillWindow)
        #expect(refusal.field == "from")
        #expect(refusal.message.contains("a pause may begin at most 1 day back"))

        var yesterday = Log()
        yesterday.habit("run", policy: .strict)
        yesterday.complete("run", days: 1...5)
        yesterday.add(Self.pause("run", 6, 9), on: day(7))
        let state = try yesterday.state(on: day(8))
        #expect(state[habit: "run"].states(from: day(6), through: day(8)) == [.paused, .paused, .paused])
        #expect(state[habit: "run"].current == 5)
    }

    @Test func aResumeEndsAPauseFromItsDayOn() throws {
        var log = Log()
        log.habit("run", policy: .strict)
        log.complete("run", days: 1...3)
        log.add(Self.pause("run", 4, 20), on: day(3), hour: 21)
        log.add(.resume(pause: "e5"), on: day(6), hour: 8)
        log.complete("run", on: day(6))
        let state = try log.state(on: day(8))
        #expect(
            state[habit: "run"].states(from: day(4), through: day(8)) == [
                .paused, .paused, .completed, .missed, .pending,
            ])
        #expect(state.pauses.map(\.until) == [day(5)])
        #expect(state.pauses.first?.resumed == true)
    }

    /// Appended one at a time, as devices send them: the same state as the whole log, a
    /// resume of a pause that is not stored refused, a removed pause un-pausing its days.
    @Test func appendedPausesEqualTheWholeLogAndCanBeRemoved() throws {
        var log = Log()
        log.habit("run", policy: .strict)
        log.complete("run", days: 1...6)
        log.add(Self.pause("run", 7, 9), on: day(7), hour: 6)
        log.complete("run", on: day(10))
        var engine = UserEngine()
        for event in log.events { try engine.append(event, now: event.at) }
        #expect(engine.state(at: log.instant(day(10), hour: 12)) == (try log.state(on: day(10))))
        #expect(engine.state(at: log.instant(day(10), hour: 12))[habit: "run"].current == 7)

        let stranger = Event(
            id: "r1", at: log.instant(day(10), hour: 13), timeZone: "UTC", payload: .resume(pause: "e1"))
        let error = #expect(throws: MomentumError.self) { try engine.append(stranger, now: stranger.at) }
        #expect(error?.field == "pause")

        let removal = Event(
            id: "x1", at: log.instant(day(10), hour: 14), timeZone: "UTC", payload: .removal(event: "e8"))
        try engine.append(removal, now: removal.at)
        let state = engine.state(at: log.instant(day(10), hour: 15))
        #expect(state[habit: "run"].states(from: day(7), through: day(9)) == [.missed, .missed, .missed])
        #expect(state[habit: "run"].current == 1)
        #expect(state.pauses.isEmpty)
    }

    @Test func pausesReadAndWriteTheirJSONAndRefuseBadRanges() throws {
        let json =
            #"{"id":"p1","type":"pause","at":"2026-12-19T20:00:00Z","tz":"UTC","habit":"run","from":"2026-12-20","until":"2027-01-03","note":"Lisbon"}"#
        let event = try MomentumJSON.decoder().decode(Event.self, from: Data(json.utf8))
        #expect(event.payload == Self.pauseOn("run", "2026-12-20", "2027-01-03", note: "Lisbon"))
        let again = try MomentumJSON.decoder().decode(Event.self, from: try MomentumJSON.encoder().encode(event))
        #expect(again == event)
        func refusal(_ fields: String) -> String {
            let text = #"{"id":"p1","type":"pause","at":"2026-12-19T20:00:00Z","tz":"UTC",\#(fields)}"#
            do {
                _ = try MomentumJSON.decoder().decode(Event.self, from: Data(text.utf8))
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal(#""from":"2026-12-20","until":"2026-12-19""#).contains("is before from"))
        #expect(refusal(#""from":"2026-01-01","until":"2027-01-03""#).contains("at most 366 days"))
        #expect(refusal(#""from":"2026-12-20""#).contains("until"))
        #expect(refusal(#""from":"1800-01-01","until":"1800-01-02""#).contains("from"))
        // A field a pause does not have is kept for a later engine, not refused (the push
        // answer warns of it).
        #expect(refusal(#""from":"2026-12-20","until":"2026-12-21","day":"2026-12-20""#) == "accepted")
        let extra =
            #"{"id":"p2","type":"pause","at":"2026-12-19T20:00:00Z","tz":"UTC","from":"2026-12-20","until":"2026-12-21","day":"2026-12-20"}"#
        #expect(
            try MomentumJSON.decoder().decode(Event.self, from: Data(extra.utf8)).unknownFields == [
                "day": .string("2026-12-20")
            ])
        let resume = #"{"id":"r1","type":"resume","at":"2026-12-22T08:00:00Z","tz":"UTC","pause":"p1"}"#
        #expect(try MomentumJSON.decoder().decode(Event.self, from: Data(resume.utf8)).payload == .resume(pause: "p1"))
    }

    static func pauseOn(_ habit: String?, _ from: String, _ until: String, note: String? = nil) -> Event.Payload {
        .pause(Pause(habit: habit, from: LocalDay(iso8601: from)!, until: LocalDay(iso8601: until)!, note: note))
    }
}
