import Foundation
import MomentumCore
import MomentumTestSupport
import PropertyBased
import Testing

/// Events from the future (issue 47): an event of a type this engine does not know, or
/// with fields its type does not have, is kept as sent, changes nothing, and a later engine
/// that knows it applies it from history; what it may carry is bounded.
struct EventForwardCompatibilityTests {
    static let header = """
        {"id":"h","type":"habit.created","at":"2026-01-01T07:00:00Z","tz":"UTC","habit":"read","name":"Read"}
        """

    func decode(_ line: String, vocabulary: Set<String>? = nil) throws -> Event {
        let decoder = JSONDecoder()
        if let vocabulary { decoder.userInfo[Event.vocabularyKey] = vocabulary }
        return try decoder.decode(Event.self, from: Data(line.utf8))
    }

    /// The JSON object `text` holds, for comparing documents whatever their key order.
    func object(_ text: some DataProtocol) throws -> NSDictionary {
        try #require(JSONSerialization.jsonObject(with: Data(text)) as? NSDictionary)
    }

    @Test func anUnknownTypeDecodesAndIsWrittenBackAsSent() throws {
        let line = #"""
            {"id":"m1","type":"mood.logged","at":"2026-01-02T09:00:00Z","tz":"UTC","mood":"great","score":7.5,"tags":["sun",null,true,{"deep":[1,-2,9007199254740991]}],"note":"é \"quoted\" \n"}
            """#
        let event = try decode(line)
        #expect(event.payload == .unknown(type: "mood.logged"))
        #expect(event.payload.type == "mood.logged")
        #expect(event.unknownFields["mood"] == .string("great"))
        #expect(event.unknownFields["score"] == .number(7.5))
        #expect(event.unknownFields.count == 4)
        // Both encoders (the store's canonical one and Foundation's) write what was sent.
        let canonical = try MomentumJSON.encodeBytes(event)
        #expect(try object(canonical) == object(Data(line.utf8)))
        #expect(try MomentumJSON.encoder().encode(event) == Data(canonical))
        #expect(EventLog.encode([event]) == Data(canonical + [UInt8(ascii: "\n")]))
        #expect(try decode(String(decoding: canonical, as: UTF8.self)) == event)
    }

    @Test func unknownFieldsOfAKnownTypeAreKeptAndWrittenBack() throws {
        let line = #"""
            {"id":"c1","type":"completion","at":"2026-01-02T09:00:00Z","tz":"UTC","habit":"read","vaule":2,"mood":{"level":3}}
            """#
        let event = try decode(line)
        #expect(event.payload == .completion(habit: "read", day: nil, value: 1, note: nil))
        #expect(event.unknownFields == ["vaule": .number(2), "mood": .object(["level": .number(3)])])
        let canonical = try MomentumJSON.encodeBytes(event)
        #expect(try object(canonical) == object(Data(line.utf8)))
        #expect(try MomentumJSON.encoder().encode(event) == Data(canonical))
        // A completion without unknown fields still takes the fast path, byte for byte.
        var plain = event
        plain.unknownFields = [:]
        #expect(try MomentumJSON.encodeBytes(plain) == Array(try MomentumJSON.encoder().encode(plain)))
    }

    @Test func anEventMadeInCodeNeverWritesAFieldTwice() throws {
        let event = Event(
            id: "c1", at: Date(timeIntervalSince1970: 1_767_344_400), timeZone: "UTC",
            payload: .completion(habit: "read", day: nil, value: 1, note: nil),
            unknownFields: ["habit": .string("other"), "id": .string("x"), "extra": .number(.nan)])
        let written = try object(try MomentumJSON.encodeBytes(event))
        #expect(written["habit"] as? String == "read")
        #expect(written["id"] as? String == "c1")
        #expect(written["extra"] is NSNull)
        #expect(try MomentumJSON.encoder().encode(event).count == MomentumJSON.encodeBytes(event).count)
    }

    /// The log with and without events from the future, in another zone and out of order,
    /// gives the same state and the same achievements.
    @Test func anUnknownEventChangesNothing() throws {
        let known = [
            Self.header,
            #"{"id":"a","type":"completion","at":"2026-01-02T09:00:00Z","tz":"UTC","habit":"read"}"#,
            #"{"id":"b","type":"completion","at":"2026-01-03T09:00:00Z","tz":"UTC","habit":"read"}"#,
            #"{"id":"p","type":"purchase","at":"2026-01-03T10:00:00Z","tz":"UTC","days":1}"#,
            #"{"id":"c","type":"completion","at":"2026-01-05T09:00:00Z","tz":"UTC","habit":"read"}"#,
        ]
        let future = [
            #"{"id":"u1","type":"mood.logged","at":"2026-01-01T08:00:00Z","tz":"Pacific/Kiritimati","mood":"ok"}"#,
            #"{"id":"u2","type":"habit.teleported","at":"2026-01-04T23:00:00Z","tz":"Asia/Tokyo","habit":"read"}"#,
            #"{"id":"u3","type":"mood.logged","at":"2026-01-05T12:00:00Z","tz":"America/Los_Angeles"}"#,
        ]
        let now = try #require(RFC3339.parse("2026-01-06T12:00:00Z"))
        func engines(_ lines: [String]) throws -> (UserEngine, MomentumUser) {
            var engine = UserEngine()
            try engine.load(jsonl: Data(lines.joined(separator: "\n").utf8), now: now)
            var user = MomentumUser()
            user.replay(try lines.map { try decode($0) }, now: now)
            return (engine, user)
        }
        var (plain, plainUser) = try engines(known)
        var (mixed, mixedUser) = try engines(known + future)
        #expect(mixed.eventCount == plain.eventCount + 3)
        #expect(mixed.unknownEventTypes == ["mood.logged", "habit.teleported"])
        #expect(mixed.state(at: now) == plain.state(at: now))
        #expect(mixed.latestZone == "UTC")
        #expect(mixedUser.unlocks == plainUser.unlocks)
        #expect(mixedUser.state(at: now) == plainUser.state(at: now))
        // Appended one by one as they arrive, the same.
        var live = plain
        for line in future {
            #expect(try live.append(try decode(line), now: now) == .applied)
        }
        #expect(live.state(at: now) == plain.state(at: now))
        // And a removal of one is taken like any other removal.
        let removal = #"{"id":"r","type":"removal","at":"2026-01-06T10:00:00Z","tz":"UTC","event":"u3"}"#
        #expect(try live.append(try decode(removal), now: now) == .applied)
        #expect(live.state(at: now).habits == plain.state(at: now).habits)
    }

    /// An engine of an earlier release, which does not know `habit.archived`, keeps the
    /// event and ignores it; the log it stores, read by today's engine, archives the habit
    /// exactly as if today's engine had received it.
    @Test func aLaterEngineAppliesFromHistoryWhatAnEarlierOneKept() throws {
        let lines = [
            Self.header,
            #"{"id":"a","type":"completion","at":"2026-01-02T09:00:00Z","tz":"UTC","habit":"read"}"#,
            #"{"id":"x","type":"habit.archived","at":"2026-01-03T09:00:00Z","tz":"UTC","habit":"read","why":"done"}"#,
            #"{"id":"d","type":"milestone.deleted","at":"2026-01-03T09:30:00Z","tz":"UTC","milestone":"m"}"#,
        ]
        let now = try #require(RFC3339.parse("2026-01-08T12:00:00Z"))
        let earlier = Set(Event.fieldsByType.keys).subtracting(["habit.archived", "milestone.deleted"])
        let kept = try lines.map { try decode($0, vocabulary: earlier) }
        #expect(kept[2].payload == .unknown(type: "habit.archived"))
        #expect(kept[2].unknownFields == ["habit": .string("read"), "why": .string("done")])
        #expect(kept[3].payload == .unknown(type: "milestone.deleted"))
        var old = UserEngine()
        try old.load(kept, now: now)
        #expect(old.state(at: now).habits.first?.archivedDay == nil)

        // What the earlier engine stored is what the device sent (the habit's creation
        // aside, whose defaults are written out).
        let stored = try kept.map { String(decoding: try MomentumJSON.encodeBytes($0), as: UTF8.self) }
        for (sent, written) in zip(lines, stored).dropFirst() {
            #expect(try object(Data(written.utf8)) == object(Data(sent.utf8)))
        }
        let replayed = try stored.map { try decode($0) }
        #expect(replayed[2].payload == .habitArchived(habit: "read"))
        #expect(replayed[2].unknownFields == ["why": .string("done")])
        #expect(replayed[3].payload == .milestoneDeleted(milestone: "m"))
        var current = UserEngine()
        try current.load(replayed, now: now)
        var direct = UserEngine()
        try direct.load(try lines.map { try decode($0) }, now: now)
        let state = current.state(at: now)
        #expect(state.habits.first?.archivedDay == LocalDay(year: 2026, month: 1, day: 3))
        #expect(state == direct.state(at: now))
        #expect(state != old.state(at: now))
    }

    @Test func anUnknownEventIsCheckedForItsEnvelope() throws {
        let base = #"{"id":"u","type":"mood.logged","at":"2026-01-02T09:00:00Z","tz":"UTC"}"#
        var engine = UserEngine()
        try engine.load(jsonl: Data(Self.header.utf8), now: nil)
        let now = try #require(RFC3339.parse("2026-01-06T12:00:00Z"))
        let badZone = try decode(base.replacingOccurrences(of: "\"UTC\"", with: "\"Mars/Base\""))
        #expect(throws: MomentumError.self) { try engine.append(badZone, now: now) }
        let future = try decode(base.replacingOccurrences(of: "2026-01-02", with: "2026-02-02"))
        #expect(throws: MomentumError.self) { try engine.append(future, now: now) }
        let control = try decode(base.replacingOccurrences(of: #""id":"u""#, with: #""id":"u\u0007""#))
        #expect(throws: MomentumError.self) { try engine.append(control, now: now) }
        for line in [
            #"{"type":"mood.logged","at":"2026-01-02T09:00:00Z","tz":"UTC"}"#,
            #"{"id":"","type":"mood.logged","at":"2026-01-02T09:00:00Z","tz":"UTC"}"#,
            #"{"id":"u","type":"mood.logged","at":"noon","tz":"UTC"}"#,
            #"{"id":"u","type":"mood.logged","at":"2026-01-02T09:00:00Z"}"#,
            #"{"id":"u","type":"mood.logged","at":"2300-01-02T09:00:00Z","tz":"UTC"}"#,
        ] {
            #expect(throws: DecodingError.self, "\(line)") { try decode(line) }
        }
    }

    /// Everything an event carries for a later engine is bounded, and each bound is
    /// refused with the field and the reason.
    @Test func whatAnEventCarriesForALaterEngineIsBounded() throws {
        func line(type: String = "mood.logged", _ fields: String) -> String {
            #"{"id":"u","type":"\#(type)","at":"2026-01-02T09:00:00Z","tz":"UTC"\#(fields)}"#
        }
        func nested(_ depth: Int) -> String {
            String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        }
        func manyFields(_ count: Int) -> String { (0..<count).map { #","f\#($0)":1"# }.joined() }
        let accepted = [
            line(type: "a", ""), line(type: "a.b_c-9", ""), line(type: "a" + String(repeating: "b", count: 63), ""),
            line(#","x":\#(nested(EventLimits.maximumUnknownFieldDepth))"#),
            line(manyFields(EventLimits.maximumUnknownFields)),
            line(#","big":-9007199254740991,"small":1e-300"#),
            line(#","s":"\#(String(repeating: "x", count: 8_000))""#),
        ]
        for text in accepted { #expect(throws: Never.self, "\(text.prefix(120))") { try decode(text) } }
        let refused: [(String, String)] = [
            (line(type: "Mood", ""), "is not an event type"),
            (line(type: "1mood", ""), "is not an event type"),
            (line(type: "", ""), "is not an event type"),
            (line(type: "mood logged", ""), "is not an event type"),
            (line(type: "a" + String(repeating: "b", count: 64), ""), "is not an event type"),
            (line(type: "moöd", ""), "is not an event type"),
            (line(#","x":\#(nested(EventLimits.maximumUnknownFieldDepth + 1))"#), "nests more than 8"),
            (line(#","x":\#(nested(5_000))"#), ""),
            (line(manyFields(EventLimits.maximumUnknownFields + 1)), "at most 32 fields"),
            (line(#","big":9007199254740992"#), "must be finite"),
            (line(#","big":1e400"#), "must be finite"),
            (line(#","big":-1e400"#), "must be finite"),
            (line(#","s":"\#(String(repeating: "x", count: 8_200))""#), "8192 bytes"),
            (line(#","many":[\#(Array(repeating: "0", count: 600).joined(separator: ","))]"#), "512 values"),
            (line(type: "completion", #","habit":"read","vaule":1e400"#), "must be finite"),
        ]
        for (text, reason) in refused {
            do {
                _ = try decode(text)
                Issue.record("accepted \(text.prefix(120))")
            } catch let error as DecodingError {
                #expect(reason.isEmpty || "\(error)".contains(reason), "\(text.prefix(120)): \(error)")
            }
        }
    }

    /// Decoding is total: any JSON a device may send, however extreme (deep nesting,
    /// huge or tiny numbers, long strings, many keys), either decodes to an event that
    /// writes back to itself or is refused with a `DecodingError`, never a trap.
    @Test func decodingIsTotalAndRoundTrips() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...Int.max - 1)) { seed in
            var random = SplitMix64(seed: UInt64(seed))
            var fields = ""
            for index in 0..<random.next(upTo: 40) {
                fields += #","k\#(index)\#(random.next(upTo: 3) == 0 ? "é" : "")":"# + Self.value(&random, depth: 0)
            }
            let type = ["mood.logged", "completion", "x", "Bad Type"][random.next(upTo: 4)]
            let habit = type == "completion" ? #","habit":"read""# : ""
            let text = #"{"id":"u","type":"\#(type)","at":"2026-01-02T09:00:00Z","tz":"UTC"\#(habit)\#(fields)}"#
            do {
                let event = try decode(text)
                let written = try MomentumJSON.encodeBytes(event)
                #expect(try decode(String(decoding: written, as: UTF8.self)) == event)
                #expect(try MomentumJSON.encoder().encode(event) == Data(written))
                var engine = UserEngine()
                try engine.load(jsonl: Data(Self.header.utf8))
                _ = try? engine.append(event, now: RFC3339.parse("2026-01-03T00:00:00Z"))
            } catch is DecodingError {
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// A random JSON value, often extreme.
    static func value(_ random: inout SplitMix64, depth: Int) -> String {
        switch random.next(upTo: depth > 12 ? 6 : 9) {
        case 0: return "null"
        case 1: return random.next(upTo: 2) == 0 ? "true" : "false"
        case 2:
            let numbers = [
                "0", "-0", "1e308", "1e309", "-1e400", "4.9e-324", "9007199254740991", "9007199254740993",
                "123456789012345678901234567890", "0.1", "-2.5E+3", "1E2",
            ]
            return numbers[random.next(upTo: numbers.count)]
        case 3: return "\(Double(Int64(bitPattern: random.next()) >> 12) / 1024)"
        case 4: return #""\#(String(repeating: "ab\\u00e9\\n", count: random.next(upTo: 3_000)))""#
        case 5: return #""\#(random.next())""#
        case 6:
            return "[" + (0..<random.next(upTo: 6)).map { _ in value(&random, depth: depth + 1) }.joined(separator: ",")
                + "]"
        case 7:
            return "{"
                + (0..<random.next(upTo: 6)).map { #""n\#($0)":"# + value(&random, depth: depth + 1) }
                .joined(separator: ",") + "}"
        default:
            let deep = random.next(upTo: 2_000)
            return String(repeating: "[", count: deep) + String(repeating: "]", count: deep)
        }
    }
}

extension SplitMix64 {
    /// A number from 0 to `bound` − 1.
    mutating func next(upTo bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
