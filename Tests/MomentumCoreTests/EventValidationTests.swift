import Foundation
import MomentumCore
import Testing

/// Bad input gets a clear error naming the line, the field and the reason, and loses nothing.
struct EventValidationTests {
    static let header = """
        {"id":"h","type":"habit.created","at":"2026-01-01T07:00:00Z","tz":"UTC","habit":"read","name":"Read"}
        """

    func errors(_ lines: [String], now: String = "2026-01-10T12:00:00Z") -> [MomentumError] {
        let data = Data(([Self.header] + lines).joined(separator: "\n").utf8)
        do {
            var engine = UserEngine()
            try engine.load(jsonl: data, now: RFC3339.parse(now))
            return []
        } catch {
            return error.errors
        }
    }

    @Test func malformedLinesAreReportedWithLineAndReason() {
        let found = errors([
            #"{"id":"a","type":"completion","at":"2026-01-02T09:00:00Z","tz":"UTC","habit":"read","vaule":{"a":1e400}}"#,
            #"{"id":"b","type":"completion","at":"yesterday","tz":"UTC","habit":"read"}"#,
            #"{"id":"c","type":"completion","at":"2026-01-02T09:00:00Z","tz":"UTC","habit":"read","value":"two"}"#,
            #"{"id":"d","type":"Teleport!","at":"2026-01-02T09:00:00Z","tz":"UTC"}"#,
            #"not json"#,
            #"{"id":"f","type":"completion","at":"2026-01-02T09:00:00Z","tz":"UTC"}"#,
        ])
        #expect(found.map(\.line) == [2, 3, 4, 5, 6, 7])
        #expect(found.allSatisfy { $0.code == .malformedEvent })
        #expect(found[0].message.contains("must be finite and at most 9007199254740991 in magnitude"))
        #expect(found[0].field == "vaule.a")
        #expect(found[1].message.contains("not an RFC 3339 timestamp"))
        #expect(found[2].field == "value")
        #expect(found[3].message.contains("'Teleport!' is not an event type"))
        #expect(found[5].field == "habit")
    }

    @Test func rulesAreCheckedWithClearCodes() {
        let found = errors([
            #"{"id":"a","type":"completion","at":"2026-01-02T09:00:00Z","tz":"Mars/Base","habit":"read"}"#,
            #"{"id":"b","type":"completion","at":"2026-01-11T09:00:00Z","tz":"UTC","habit":"read"}"#,
            #"{"id":"c","type":"completion","at":"2026-01-05T09:00:00Z","tz":"UTC","habit":"read","day":"2026-01-02"}"#,
            #"{"id":"d","type":"completion","at":"2026-01-05T09:00:00Z","tz":"UTC","habit":"write"}"#,
            #"{"id":"e","type":"purchase","at":"2026-01-05T09:00:00Z","tz":"UTC","item":"freeze-7"}"#,
            #"{"id":"f","type":"completion","at":"2026-01-05T09:00:00Z","tz":"UTC","habit":"read","day":"2026-01-06"}"#,
            #"{"id":"h","type":"habit.created","at":"2026-01-05T09:00:00Z","tz":"UTC","habit":"read","name":"Again"}"#,
            #"{"id":"i","type":"completion","at":"2026-01-05T09:00:00Z","tz":"UTC","habit":"read","value":-1}"#,
        ])
        #expect(found.map(\.line) == Array(2...9))
        #expect(
            found.map(\.code) == [
                .unknownTimeZone, .futureTimestamp, .outsideBackfillWindow, .unknownHabit, .unknownStoreItem,
                .invalidEvent,
                .duplicateHabit, .malformedEvent,
            ])
    }

    @Test func aBadLogEvaluatesNothing() throws {
        var engine = UserEngine()
        let good = Data((Self.header + "\n").utf8)
        try engine.load(numbered: try EventLog.parse(good))
        let bad = Data((Self.header + "\n{broken\n").utf8)
        #expect(throws: EventLogError.self) { try engine.load(numbered: try EventLog.parse(bad)) }
        #expect(engine.eventCount == 1)
    }

    @Test func commentsAndBlankLinesAreIgnored() throws {
        let data = Data("# a comment\n\n\(Self.header)\n   \n".utf8)
        let parsed = try EventLog.parse(data)
        #expect(parsed.map(\.line) == [3])
    }

    @Test func eventsRoundTripThroughJSONL() throws {
        var log = Log(zone: "Asia/Kathmandu")
        log.habit(
            "water", .timesPerWeek(4), policy: StreakPolicy(grace: 2, penalty: .decrement(2), freezes: .offered),
            target: Target(comparison: .atLeast, amount: 8, unit: "glasses"), weekStart: .sunday)
        log.complete("water", on: day(1), value: 2.5, note: "ünïcode ✓ \"quoted\"")
        log.skip(nil, on: day(2))
        log.buy("freeze-5", on: day(2))
        log.buy(days: 3, on: day(2))
        log.answer("water", missed: day(1), accept: false, on: day(2))
        log.add(.removal(event: "e2"), on: day(3))
        log.add(
            .habitUpdated(HabitChanges(habit: "water", name: "Water", category: "health", difficulty: .hard)),
            on: day(3))
        log.add(.habitArchived(habit: "water"), on: day(4))
        let reparsed = try EventLog.parse(EventLog.encode(log.events)).map(\.event)
        #expect(reparsed == log.events)
    }
}

/// Regression: a purchase checked against the wallet before it is kept in the log.
struct SimultaneousPurchaseTests {
    @Test func aSecondPurchaseAtTheSameInstantIsRefusedNotCrashing() throws {
        var engine = UserEngine(pack: .habits)
        let zone = "UTC"
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        try engine.append(
            Event(id: "h", at: start, timeZone: zone, payload: .habitCreated(HabitDefinition(id: "read", name: "Read")))
        )
        for day in 0..<30 {
            try engine.append(
                Event(
                    id: "c\(day)", at: start.addingTimeInterval(Double(day) * 86_400 + 72_000), timeZone: zone,
                    payload: .completion(habit: "read", day: nil, value: 1, note: nil)))
        }
        let instant = start.addingTimeInterval(29 * 86_400 + 79_200)
        let first = try engine.append(
            Event(id: "b1", at: instant, timeZone: zone, payload: .purchase(item: "freeze-5", days: nil)))
        let second = try engine.append(
            Event(id: "b2", at: instant, timeZone: zone, payload: .purchase(item: "freeze-5", days: nil)))
        #expect(first == .applied)
        guard case .rejected(let error) = second else {
            Issue.record("expected the second purchase to be refused, got \(second)")
            return
        }
        #expect(error.code == .insufficientDiamonds)
        // What the log holds under an id: the kept purchase; not the refused one.
        #expect(engine.event(id: "b1")?.payload == .purchase(item: "freeze-5", days: nil))
        #expect(engine.event(id: "b2") == nil)
        #expect(engine.event(id: "nowhere") == nil)
        // A removed event is still stored under its id (so a retry of it is a duplicate).
        try engine.append(Event(id: "r", at: instant, timeZone: zone, payload: .removal(event: "c29")))
        #expect(engine.event(id: "c29")?.at == start.addingTimeInterval(29 * 86_400 + 72_000))
        #expect(try engine.append(engine.event(id: "c29")!) == .duplicate)
    }

    @Test func aLaterPurchaseThatSortsFirstDoesNotDisplaceAnAcceptedOne() throws {
        var engine = UserEngine(pack: .habits)
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        try engine.append(
            Event(
                id: "h", at: start, timeZone: "UTC", payload: .habitCreated(HabitDefinition(id: "read", name: "Read"))))
        for day in 0..<30 {
            try engine.append(
                Event(
                    id: "c\(day)", at: start.addingTimeInterval(Double(day) * 86_400 + 72_000), timeZone: "UTC",
                    payload: .completion(habit: "read", day: nil, value: 1, note: nil)))
        }
        let instant = start.addingTimeInterval(29 * 86_400 + 79_200)
        // "z" arrives first; "a" arrives second but sorts before it at the same instant.
        let first = try engine.append(
            Event(id: "z", at: instant, timeZone: "UTC", payload: .purchase(item: "freeze-5", days: nil)))
        let second = try engine.append(
            Event(id: "a", at: instant, timeZone: "UTC", payload: .purchase(item: "freeze-5", days: nil)))
        #expect(first == .applied)
        guard case .rejected = second else {
            Issue.record("the later purchase displaced the accepted one: \(second)")
            return
        }
        let state = engine.state(at: instant.addingTimeInterval(60))
        #expect(state.rejected.isEmpty)
        #expect(state.ledger.filter { $0.source == .purchase }.map(\.event) == ["z"])
    }
}
