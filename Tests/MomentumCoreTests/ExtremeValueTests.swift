import Foundation
import MomentumCore
import MomentumTestSupport
import PropertyBased
import Testing

/// Extreme numbers and dates in every numeric field of every event type: outside
/// ``EventLimits`` they are refused when decoded (never a trap), and inside them every read
/// the server makes completes.
struct ExtremeValueTests {
    /// A numeric field of an event type: the event's JSON with `@@` where the number goes,
    /// the range the documentation allows, and whether it takes whole numbers only.
    struct Field: Sendable, CustomStringConvertible {
        var key: String
        var json: String
        var range: ClosedRange<Double>
        var whole = false
        var exclusiveLower = false
        var description: String { json }

        func accepts(_ value: Double) -> Bool {
            value.isFinite && range.contains(value) && (!exclusiveLower || value > range.lowerBound)
                && (!whole || value.rounded() == value)
        }
    }

    static let head = #""id":"x","at":"2026-06-15T08:00:00Z","tz":"UTC""#
    static let created = #"{\#(head),"type":"habit.created","habit":"h","name":"H","#
    static let updated = #"{\#(head),"type":"habit.updated","habit":"h","#
    static let value = 0...EventLimits.maximumValue
    static let amount = 0...EventLimits.maximumAmount

    static let fields: [Field] = [
        Field(key: "value", json: #"{\#(head),"type":"completion","habit":"h","value":@@}"#, range: value),
        Field(key: "atLeast", json: created + #""target":{"atLeast":@@}}"#, range: value, exclusiveLower: true),
        Field(key: "atMost", json: created + #""target":{"atMost":@@}}"#, range: value),
        Field(key: "atLeast", json: updated + #""target":{"atLeast":@@}}"#, range: value, exclusiveLower: true),
        Field(key: "atMost", json: updated + #""target":{"atMost":@@}}"#, range: value),
        Field(
            key: "count", json: created + #""schedule":{"kind":"timesPerWeek","count":@@}}"#, range: 1...7, whole: true),
        Field(
            key: "count", json: created + #""schedule":{"kind":"timesPerMonth","count":@@}}"#, range: 1...31,
            whole: true),
        Field(
            key: "interval", json: created + #""schedule":{"kind":"everyNDays","interval":@@}}"#, range: 1...366,
            whole: true),
        Field(key: "day", json: created + #""schedule":{"kind":"monthly","day":@@}}"#, range: 1...31, whole: true),
        Field(
            key: "month", json: created + #""schedule":{"kind":"yearly","month":@@,"day":1}}"#, range: 1...12,
            whole: true),
        Field(
            key: "day", json: created + #""schedule":{"kind":"yearly","month":1,"day":@@}}"#, range: 1...31, whole: true
        ),
        Field(
            key: "grace", json: created + #""policy":{"grace":@@,"penalty":"reset"}}"#,
            range: 0...Double(EventLimits.maximumGrace), whole: true),
        Field(
            key: "decrement", json: updated + #""policy":{"penalty":{"decrement":@@}}}"#,
            range: 1...Double(EventLimits.maximumDecrement), whole: true),
        Field(
            key: "value", json: #"{\#(head),"type":"log","kind":"weight","value":@@}"#,
            range: -EventLimits.maximumLogValue...EventLimits.maximumLogValue),
        Field(
            key: "target", json: #"{\#(head),"type":"goal","goal":"g","name":"G","target":@@}"#, range: amount,
            exclusiveLower: true),
        Field(
            key: "amount", json: #"{\#(head),"type":"contribution","goal":"g","amount":@@}"#, range: amount,
            exclusiveLower: true),
        Field(
            key: "days", json: #"{\#(head),"type":"purchase","days":@@}"#,
            range: 1...Double(EventLimits.maximumPurchaseDays), whole: true),
    ]

    /// Numbers as JSON text: ±huge, 0, negative, fractions, the bounds and one past them,
    /// `Int.max`, `Int32.max`, 1e308, and what JSON cannot hold (NaN, ∞, 1e309).
    static let numbers = [
        "0", "-0", "1", "-1", "0.5", "5e-324", "7", "8", "12", "13", "30", "31", "32", "366", "367", "3650", "3651",
        "3660", "3661", "1000000", "1000000.5", "1000001", "1000000000", "1000000001", "1e19", "-1e19", "1e308",
        "-1e308", "1e309", "-1e309", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "2147483647", "2147483648", "-2147483648", "NaN", "Infinity", "-Infinity",
    ]

    /// A date field of an event type (`@@` where the date goes) and the days it may name.
    struct DateField: Sendable, CustomStringConvertible {
        var key: String
        var json: String
        var range: ClosedRange<LocalDay>
        var description: String { json }
    }

    static let dateFields: [DateField] = [
        DateField(key: "start", json: created + #""start":"@@"}"#, range: EventLimits.days),
        DateField(key: "day", json: #"{\#(head),"type":"completion","habit":"h","day":"@@"}"#, range: EventLimits.days),
        DateField(key: "day", json: #"{\#(head),"type":"skip","day":"@@"}"#, range: EventLimits.days),
        DateField(key: "day", json: #"{\#(head),"type":"log","kind":"walk","day":"@@"}"#, range: EventLimits.days),
        DateField(
            key: "day", json: #"{\#(head),"type":"contribution","goal":"g","amount":1,"day":"@@"}"#,
            range: EventLimits.days),
        DateField(
            key: "day", json: #"{\#(head),"type":"freeze.accepted","habit":"h","day":"@@"}"#, range: EventLimits.days),
        DateField(
            key: "dates", json: #"{\#(head),"type":"subject","subject":"s","name":"S","dates":{"born":"@@"}}"#,
            range: EventLimits.subjectDays),
    ]

    static let dates = [
        "0000-01-01", "0001-01-01", "1899-12-31", "1900-01-01", "1969-12-31", "1970-01-01", "2026-06-15",
        "2199-12-31", "2200-01-01", "9999-12-31",
    ]

    static func decode(_ json: String) throws -> Event {
        try MomentumJSON.decoder().decode(Event.self, from: Data(json.utf8))
    }

    @Test func everyNumericFieldRefusesValuesOutsideItsBoundsWhenDecoded() async {
        await propertyCheck(
            count: 400, input: Gen.int(in: 0...Self.fields.count - 1), Gen.int(in: 0...Self.numbers.count - 1)
        ) { f, n in
            let field = Self.fields[f]
            let text = Self.numbers[n]
            let json = field.json.replacingOccurrences(of: "@@", with: text)
            let number = Double(text) ?? .nan
            let wellFormed = !["NaN", "Infinity", "-Infinity"].contains(text)
            if wellFormed, field.accepts(number) {
                #expect(throws: Never.self, "\(json)") { try Self.decode(json) }
            } else {
                let error = #expect(throws: DecodingError.self, "\(json)") { try Self.decode(json) }
                // (Foundation reports a whole-number field that is not an `Int`, a fraction or
                // 1e19, as "not valid JSON", without the field.)
                if wellFormed, number.isFinite, !field.whole || Int(exactly: number) != nil {
                    #expect(String(describing: error).contains(field.key), "\(json): \(String(describing: error))")
                }
            }
        }
    }

    @Test func everyDateFieldRefusesDaysOutsideItsBoundsWhenDecoded() async {
        await propertyCheck(
            count: 200, input: Gen.int(in: 0...Self.dateFields.count - 1), Gen.int(in: 0...Self.dates.count - 1)
        ) { f, d in
            let field = Self.dateFields[f]
            let json = field.json.replacingOccurrences(of: "@@", with: Self.dates[d])
            if let day = LocalDay(iso8601: Self.dates[d]), field.range.contains(day) {
                #expect(throws: Never.self, "\(json)") { try Self.decode(json) }
            } else {
                let error = #expect(throws: DecodingError.self, "\(json)") { try Self.decode(json) }
                #expect(String(describing: error).contains(field.key), "\(json)")
            }
        }
    }

    /// In-bounds extremes, for the log the reads are run over.
    static let extremes = ["5e-324", "0.5", "1", "1000000"]
    static let bigAmounts = ["5e-324", "1", "1000000000"]

    /// A log holding extreme in-bound values in every numeric field, pushed at
    /// ``FuzzReadPipeline/now`` (the first line chooses the pack).
    static func extremeLog(_ choice: [Int]) -> String {
        func pick(_ list: [String], _ i: Int) -> String { list[choice[i % choice.count] % list.count] }
        let schedules = [
            #"{"kind":"daily"}"#, #"{"kind":"timesPerWeek","count":7}"#, #"{"kind":"timesPerMonth","count":31}"#,
            #"{"kind":"everyNDays","interval":366}"#, #"{"kind":"monthly","day":31}"#,
            #"{"kind":"yearly","month":2,"day":29}"#, #"{"kind":"weekdays","days":["sunday"]}"#,
        ]
        let policies = [
            #""strict""#, #"{"grace":30,"penalty":{"decrement":3660},"freezes":"offered"}"#,
            #"{"grace":0,"penalty":"reset","freezes":"automatic"}"#,
        ]
        let starts = ["1970-01-01", "2026-06-01", "2026-06-15", "2199-12-31"]
        var lines: [String] = []
        var serial = 0
        func add(_ at: String, _ body: String) {
            serial += 1
            lines.append(#"{"id":"e\#(serial)","at":"\#(at)","tz":"UTC",\#(body)}"#)
        }
        let early = "2026-06-14T09:00:00Z"
        let late = "2026-06-15T11:00:00Z"
        add(
            early,
            #""type":"habit.created","habit":"a","name":"A","schedule":\#(pick(schedules, 0)),"policy":\#(pick(policies, 1)),"target":{"atLeast":\#(pick(Self.extremes, 2))},"start":"\#(pick(starts, 3))""#
        )
        add(
            early,
            #""type":"habit.created","habit":"b","name":"B","policy":"strict","target":{"atMost":\#(pick(["0"] + Self.extremes, 4))},"weekStart":"sunday","difficulty":"hard","start":"\#(pick(starts, 5))""#
        )
        for (i, at) in [early, late].enumerated() {
            add(at, #""type":"completion","habit":"a","value":\#(pick(["0"] + Self.extremes, 6 + i))"#)
            add(
                at,
                #""type":"completion","habit":"b","value":\#(pick(["0"] + Self.extremes, 8 + i)),"day":"2026-06-14""#)
        }
        add(late, #""type":"skip","day":"2026-06-14""#)
        add(late, #""type":"purchase","days":\#(pick(["1", "365", "3650"], 10))"#)
        add(
            late,
            #""type":"habit.updated","habit":"a","target":{"atMost":1000000},"policy":{"grace":30,"penalty":{"decrement":1}}"#
        )
        add(
            late,
            #""type":"subject","subject":"ollie","name":"Ollie","kind":"dog","dates":{"born":"\#(pick(["1900-01-01", "2026-01-01", "2199-12-31"], 11))","gotcha":"\#(pick(["1900-01-01", "2026-06-15"], 12))"}"#
        )
        add(
            late,
            #""type":"log","kind":"weight","value":\#(pick(["-1000000000", "0", "1000000000"], 13)),"subject":"ollie""#)
        add(late, #""type":"log","kind":"potty","item":"outdoor","day":"2026-06-14""#)
        add(late, #""type":"goal","goal":"g","name":"G","category":"vacation","target":\#(pick(Self.bigAmounts, 14))"#)
        for i in 0..<3 {
            add(late, #""type":"contribution","goal":"g","amount":\#(pick(Self.bigAmounts, 15 + i))"#)
        }
        add(late, #""type":"stage","method":"meditation","to":"beginner""#)
        // Pauses (every habit, as long as one may last), their end, a schedule changed to
        // another extreme, groups, the order, and a habit archived and brought back.
        add(
            late,
            #""type":"pause","from":"2026-06-14","until":"\#(pick(["2026-06-14", "2026-07-01", "2027-06-14"], 18))","note":"away""#
        )
        add("2026-06-15T12:00:00Z", #""type":"resume","pause":"e\#(serial)""#)
        add(
            late,
            #""type":"habit.updated","habit":"a","schedule":\#(pick(schedules, 19)),"group":"\#(pick(["", "G", String(repeating: "g", count: 100)], 20))""#
        )
        add(late, #""type":"order","habits":["b","a"]"#)
        add(early, #""type":"habit.archived","habit":"b""#)
        add(late, #""type":"habit.unarchived","habit":"b""#)
        return lines.joined(separator: "\n")
    }

    @Test func inBoundExtremesInEveryFieldPassEveryReadOfEveryPack() async {
        await propertyCheck(count: 40, input: Gen.int(in: 0...3), Gen.int(in: 0...Int.max - 1)) { pack, seed in
            var rng = SplitMix64(seed: UInt64(seed))
            let choice = (0..<21).map { _ in Int(rng.next() % 1_000) }
            let log = Self.extremeLog(choice)
            let input = [Array("hosg".utf8)[pack]] + Array(log.utf8)
            let outcome = FuzzReadPipeline.run(input)
            #expect(outcome.decoded == log.split(separator: "\n").count, "\(log)")
            #expect(outcome.applied > 0)
            #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        }
    }

    /// Fuzz finding F2: a calendar window that starts after an archived habit's last day.
    @Test func calendarWindowAfterAnArchivedHabitsLastDayDoesNotTrap() throws {
        var log = Log()
        log.habit("read", on: day(1))
        log.complete("read", days: 1...2)
        log.add(.habitArchived(habit: "read"), on: day(3))
        var engine = UserEngine()
        try engine.load(log.events)
        let state = engine.state(at: log.instant(day(20), hour: 12), calendarDays: 7)
        #expect(state[habit: "read"].calendar.isEmpty)
        #expect(engine.state(at: log.instant(day(20), hour: 12)).habits.first?.calendar.count == 2)
    }

    // MARK: - The reported crash

    /// A strict habit with an `atLeast` target, completed with `value` on days 1–10, 12–20
    /// and 22–30 of 2026: two breaks in 60 days.
    static func twoBreaks(target: Double, value: Double) -> [Event] {
        var log = Log()
        log.habit("water", policy: .strict, target: Target(comparison: .atLeast, amount: target, unit: "glasses"))
        for n in 1...30 where n != 11 && n != 21 { log.complete("water", on: day(n), value: value) }
        return log.events
    }

    @Test func coachingAfterTwoBreaksWithATargetBeyondIntDoesNotTrap() throws {
        // Built in code, not decoded: the conversion itself must be total.
        var engine = UserEngine()
        try engine.load(Self.twoBreaks(target: 1e19, value: 1e19))
        let analytics = engine.analytics(at: Log().instant(day(31), hour: 12))
        let recovery = try #require(analytics.habits.first?.coaching.recovery)
        #expect(recovery.recentBreaks == 2)
        let easier = try #require(recovery.guidance.first { $0.kind == .easierTarget })
        #expect(easier.suggestedTarget?.amount == 5e18)
        #expect(easier.message.contains("instead of 1e+19 glasses"))
    }

    @Test func targetAndValuesOf1e19AreRefusedAndTheLargestAllowedAreCoached() throws {
        let created =
            #"{"id":"c","type":"habit.created","at":"2026-01-01T07:00:00Z","tz":"UTC","habit":"water","name":"Water","policy":"strict","target":{"atLeast":@@,"unit":"glasses"}}"#
        #expect(throws: DecodingError.self) { try Self.decode(created.replacingOccurrences(of: "@@", with: "1e19")) }
        let completion =
            #"{"id":"v","type":"completion","at":"2026-01-02T09:00:00Z","tz":"UTC","habit":"water","value":1e19}"#
        #expect(throws: DecodingError.self) { try Self.decode(completion) }

        // The largest allowed, decoded from JSON, through the user's every habit read.
        let largest = EventLimits.formatForTests(EventLimits.maximumValue)
        var lines = [created.replacingOccurrences(of: "@@", with: largest)]
        for n in 1...30 where n != 11 && n != 21 {
            let date = day(n).description
            lines.append(
                #"{"id":"v\#(n)","type":"completion","at":"\#(date)T09:00:00Z","tz":"UTC","habit":"water","value":\#(largest)}"#
            )
        }
        var user = MomentumUser()
        for line in lines { try user.append(try Self.decode(line)) }
        let now = Log().instant(day(31), hour: 12)
        _ = user.advance(to: now)
        _ = user.summary(at: now, preferences: CelebrationPreferences(style: .full))
        var streaks = user.streaks
        let analytics = streaks.analytics(at: now)
        _ = try MomentumJSON.encodeBytes(analytics)
        let recovery = try #require(analytics.habits.first?.coaching.recovery)
        #expect(recovery.recentBreaks == 2)
        let easier = try #require(recovery.guidance.first { $0.kind == .easierTarget })
        #expect(easier.message.contains("aim for 500000 glasses instead of 1000000 glasses"))
    }
}

extension EventLimits {
    /// A bound as JSON text.
    static func formatForTests(_ value: Double) -> String { String(Int(exactly: value)!) }
}
