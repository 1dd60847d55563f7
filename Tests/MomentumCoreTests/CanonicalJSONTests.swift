import Foundation
import MomentumCore
import MomentumTestSupport
import PropertyBased
import Testing

/// `MomentumJSON.encode` writes exactly what Foundation's encoder, configured by
/// `MomentumJSON.encoder()`, writes: the same bytes for every document Momentum stores or
/// answers with, and the same errors.
struct CanonicalJSONTests {
    private func expectSameBytes<T: Encodable>(
        _ value: T, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let foundation = String(decoding: try MomentumJSON.encoder().encode(value), as: UTF8.self)
        let canonical = String(decoding: try MomentumJSON.encode(value), as: UTF8.self)
        #expect(canonical == foundation, sourceLocation: sourceLocation)
    }

    @Test func generatedLogsStatesAndSummariesEncodeAsFoundationDoes() async {
        await propertyCheck(count: 25, input: EngineInvariantTests.scenarios) { options in
            let events = LogGenerator(options).events()
            let now = EngineInvariantTests.now(after: options)
            try! expectSameBytes(events)
            try! expectSameBytes(try! UserEngine.evaluate(events, now: now))
            var user = MomentumUser(pack: .habits, dayStartHour: 0)
            for event in events { _ = try? user.append(event) }
            try! expectSameBytes(user.summary(at: now))
            try! expectSameBytes(user.unlocks)
        }
    }

    @Test func catalogsAndPacksEncodeAsFoundationDoes() throws {
        try expectSameBytes(MessageCatalog.standard)
        try expectSameBytes(CelebrationCatalog.standard)
        try expectSameBytes(AffirmationCatalog.standard)
        try expectSameBytes(StoreCatalog.standard)
        for pack in RulePack.bundled.values { try expectSameBytes(pack) }
    }

    @Test func stringsAreEscapedAsFoundationEscapesThem() throws {
        let strings = [
            "", "plain", "quote \" backslash \\ slash /", "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}",
            "del \u{7F} line separator \u{2028}", "é 😀 ñ 中文", "\"\"\\\\", "<script>alert(1)</script>",
        ]
        try expectSameBytes(strings)
        for string in strings { try expectSameBytes(string) }
    }

    @Test func numbersAreWrittenAsFoundationWritesThem() throws {
        let doubles: [Double] = [
            0, -0.0, 1, -1, 0.5, 0.1, 1e-7, 2.5e-5, 100, 1e15, 1e16, 1e21, 123_456_789.123, 3e300,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.0 / 3, -2.75,
        ]
        try expectSameBytes(doubles)
        try expectSameBytes([Float(1), 0.1, 1e21, -0.0])
        try expectSameBytes([Int.min, -10, -1, 0, 1, 9, 10, 99, 100, Int.max])
        try expectSameBytes([UInt64.max, 0])
        try expectSameBytes([Int8.min, Int8.max])
        try expectSameBytes([UInt8.max])
        try expectSameBytes([true, false])
    }

    @Test func dictionariesSortTheirKeysByBytes() throws {
        try expectSameBytes([
            "a10": 1, "a2": 2, "B": 3, "a_": 4, "aB": 5, "ab": 6, "é": 7, "e": 8, "Z": 10, "": 12, "１": 15, "9": 18,
        ])
        try expectSameBytes([3: "a", 10: "b", -1: "c"])
        try expectSameBytes(["nested": ["z": [1, 2], "a": []], "empty": [:]])
    }

    private struct Optionals: Codable {
        var present: Int? = 1
        var absent: String?
        var date = Date(timeIntervalSince1970: 1_767_225_600.123)
        var dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -86_400.5)]
        var data = Data([0, 1, 2, 255])
        var url = URL(string: "https://example.com/a?b=c")!
        var arrayOfOptionals: [Int?] = [1, nil, 3]
    }

    /// A type that encodes itself by hand with nested containers and super encoders.
    private struct HandWritten: Encodable {
        enum Keys: String, CodingKey { case inner, list, zeta, alpha }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try container.encode("last", forKey: .zeta)
            try inner.encode(2, forKey: .zeta)
            try inner.encodeNil(forKey: .alpha)
            try list.encode(1)
            var deeper = list.nestedUnkeyedContainer()
            try deeper.encode("x")
            var keyed = list.nestedContainer(keyedBy: Keys.self)
            try keyed.encode(true, forKey: .alpha)
            try container.encode(1.5, forKey: .alpha)
            try Optionals().encode(to: container.superEncoder())
        }
    }

    private struct SingleValue: Encodable {
        let wrapped: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(wrapped)
        }
    }

    /// Keys written out of order, one of them twice (the last value wins), with nested values.
    private struct Reordered: Encodable {
        enum Keys: String, CodingKey { case b, a, c, é, z }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("first", forKey: .b)
            try container.encode(["x": [1, 2], "w": [3]], forKey: .z)
            try container.encode(1, forKey: .a)
            try container.encode(Optionals(), forKey: .é)
            try container.encode("second", forKey: .b)
            try container.encode([SingleValue(wrapped: ["s"])], forKey: .c)
        }
    }

    /// A non-finite number in a nested container filled by hand.
    private struct LateNaN: Encodable {
        enum Keys: String, CodingKey { case inner, x }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            try inner.encode(Double.nan, forKey: .x)
        }
    }

    /// A single value that wraps a value encoding nothing.
    private struct WrapsNothing: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Nothing())
        }
    }

    private struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    @Test func specialTypesNestingAndSingleValuesEncodeAsFoundationDoes() throws {
        try expectSameBytes(Optionals())
        try expectSameBytes(HandWritten())
        try expectSameBytes(Reordered())
        try expectSameBytes(["list": [Reordered(), Reordered()]])
        try expectSameBytes([SingleValue(wrapped: ["a", "b"])])
        try expectSameBytes(["empty": Nothing()])
        try expectSameBytes(WrapsNothing())
        try expectSameBytes(["wrapped": WrapsNothing()])
        try expectSameBytes(Optional<Int>.none)
        let instants: [Double] = [
            0, -0.5, 0.9996, 59.9995, -86_400.0001, 1_767_225_599.999, 1_767_225_600.0004, -62_135_596_800,
            -62_167_219_200, 253_402_300_799.999, 253_402_300_800, 1e12, -1e12,
        ]
        try expectSameBytes(instants.map { Date(timeIntervalSince1970: $0) })
        try expectSameBytes(
            [-800_000, -719_528, -1, 0, 1, 20_000, 2_932_896, 2_932_897, 3_000_000].map { LocalDay(number: $0) })
        try expectSameBytes(Date(timeIntervalSince1970: 1_700_000_000))
    }

    private struct Measurement: Encodable {
        var label = "x"
        var values: [Double]
    }

    @Test func refusesWhatFoundationRefusesWithTheSamePath() {
        func paths(_ value: some Encodable) -> (String, String) {
            func path(_ body: () throws -> Data) -> String {
                do {
                    _ = try body()
                    return "no error"
                } catch EncodingError.invalidValue(_, let context) {
                    return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(
                        separator: ".")
                } catch {
                    return "other error: \(error)"
                }
            }
            return (
                path { try MomentumJSON.encode(value) }, path { try MomentumJSON.encoder().encode(value) }
            )
        }
        let nested = paths(["list": [Measurement(values: [1, .nan])]])
        #expect(nested.0 == nested.1)
        #expect(nested.0 == "list.0.values.1")
        let infinite = paths(Double.infinity)
        #expect(infinite.0 == infinite.1)
        // After the fast path gave up (a nested container), the error still has its full path
        // (Foundation's leaves the nested container's key out: "outer.x").
        let late = paths(["outer": LateNaN()])
        #expect(late.0 == "outer.inner.x")
        #expect(late.1.hasPrefix("outer"))
        let empty = paths(Nothing())
        #expect(empty.0 == empty.1)
        #expect(empty.0 == "")
    }
}
