import Foundation
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumServer

/// The convenience routes build their events from a request's fields without writing them
/// out as JSON and reading that back. Decoding straight from the fields must give the same
/// event, or the same error, field by field and word for word, as the round trip through
/// Foundation's `JSONDecoder`.
struct JSONValueDecoderTests {
    enum Outcome: Equatable {
        case event(Event)
        case error(String)
    }

    /// The round trip the routes used to make.
    static func viaBytes(_ value: JSONValue) -> Outcome {
        do {
            return .event(try JSONIO.decode(Event.self, from: try MomentumJSON.encode(value)))
        } catch let error as APIError {
            return .error(describe(error))
        } catch {
            return .error("\(error)")
        }
    }

    static func direct(_ value: JSONValue) -> Outcome {
        do {
            return .event(try JSONIO.decode(Event.self, from: value))
        } catch let error as APIError {
            return .error(describe(error))
        } catch {
            return .error("\(error)")
        }
    }

    static func describe(_ error: APIError) -> String {
        "\(error.status.code) \(error.code) \(error.message) \(error.details.map { "\($0.field): \($0.issue)" })"
    }

    static func fields(_ json: String) throws -> JSONValue {
        try JSONIO.decode(JSONValue.self, from: Data(json.utf8))
    }

    @Test func generatedLogsDecodeToTheSameEvents() throws {
        var options = LogGenerator.Options()
        options.days = 120
        options.habits = 7
        options.schedules = [
            .daily, .weekdays([.monday, .friday]), .timesPerWeek(3), .everyNDays(2), .monthly(day: 3),
        ]
        options.policies = [
            nil, .strict, .forgiving, StreakPolicy(grace: 2, penalty: .decrement(2), freezes: .automatic),
        ]
        options.skipRate = 0.1
        options.purchaseRate = 0.1
        options.backfillRate = 0.2
        let events = LogGenerator(options).events()
        #expect(events.count > 300)
        var types = Set<String>()
        for event in events {
            let value = try Self.fields(String(decoding: try MomentumJSON.encode(event), as: UTF8.self))
            let direct = Self.direct(value)
            #expect(direct == Self.viaBytes(value))
            #expect(direct == .event(event))
            // A pulled event pushed back is read as it was: it holds no field a push refuses.
            #expect(try JSONValueDecoder.decodeKnownFields(Event.self, from: value) == event)
            types.insert(event.payload.type)
        }
        #expect(types.isSuperset(of: ["habit.created", "completion", "skip", "purchase"]))
    }

    @Test(arguments: [
        // Valid, of every type the routes make.
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00-04:00","tz":"America/New_York","habit":"walk"}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","value":2.5,"note":"ok","day":"2026-03-13"}"#,
        #"{"type":"skip","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","day":"2026-03-14"}"#,
        #"{"type":"purchase","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","days":3}"#,
        #"{"type":"freeze.accepted","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","day":"2026-03-13"}"#,
        #"{"type":"habit.created","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","name":"Walk","schedule":{"timesPerWeek":3},"target":{"atLeast":5,"unit":"km"},"policy":"strict","difficulty":"hard","category":"fitness"}"#,
        #"{"type":"habit.updated","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","name":"Stroll","policy":{"grace":2,"penalty":"reset","freezes":"never"}}"#,
        #"{"type":"log","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","kind":"meal","item":"kibble","value":120}"#,
        #"{"type":"subject","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","subject":"rex","name":"Rex","dates":{"birthday":"2020-05-01"}}"#,
        #"{"type":"goal","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","goal":"bike","name":"Bike","target":400}"#,
        #"{"type":"contribution","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","goal":"bike","amount":12.5}"#,
        #"{"type":"stage","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","method":"couch-to-5k","from":"week-1","to":"week-2"}"#,
        // Wrong types, missing and null fields, numbers that do not fit.
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC"}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":5}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":null}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","value":"two"}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","value":-1}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","value":null}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","day":"14.3.2026"}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","day":20260314}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","note":["a"]}"#,
        #"{"type":"completion","id":"e1","at":"yesterday","tz":"UTC","habit":"walk"}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":7,"habit":"walk"}"#,
        #"{"type":"completion","id":"","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk"}"#,
        #"{"type":"completion","id":17,"at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk"}"#,
        #"{"type":"completion","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","colour":"red"}"#,
        #"{"type":"purchase","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","days":true}"#,
        #"{"type":"purchase","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC"}"#,
        #"{"type":"habit.created","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","name":"Walk","schedule":"sometimes"}"#,
        #"{"type":"habit.created","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","name":"Walk","schedule":{"timesPerWeek":"3"}}"#,
        #"{"type":"habit.created","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","name":"Walk","schedule":{"weekdays":["mon",5]}}"#,
        #"{"type":"habit.created","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","name":"Walk","target":{"atLeast":"five"}}"#,
        #"{"type":"habit.created","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","name":"Walk","policy":{"grace":-1}}"#,
        #"{"type":"habit.created","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk"}"#,
        #"{"type":"subject","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","subject":"rex","name":"Rex","dates":{"birthday":5}}"#,
        #"{"type":"subject","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","subject":"rex","name":"Rex","dates":["2020-05-01"]}"#,
        #"{"type":"teleport","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC"}"#,
        #"{"type":3,"id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC"}"#,
        #"["not", "an", "object"]"#,
    ])
    func fieldsDecodeToTheSameEventOrTheSameError(_ json: String) throws {
        let value = try Self.fields(json)
        let direct = Self.direct(value)
        #expect(direct == Self.viaBytes(value))
        if case .event(let event) = direct {
            #expect(try JSONValueDecoder.decodeKnownFields(Event.self, from: value) == event)
            // Written out again, it holds no field a push refuses.
            let written = try Self.fields(String(decoding: try MomentumJSON.encode(event), as: UTF8.self))
            #expect(try JSONValueDecoder.decodeKnownFields(Event.self, from: written) == event)
        }
    }

    /// Where an integer is wanted, a fraction or a number too large names the field
    /// (`JSONDecoder` alone called the whole body unreadable JSON).
    @Test(arguments: ["1.5", "1e20", "-0.25"])
    func aNumberThatIsNotAnIntegerNamesItsField(_ days: String) throws {
        let value = try Self.fields(
            #"{"type":"purchase","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","days":\#(days)}"#)
        #expect(
            Self.direct(value) == .error(#"422 invalid_input days: must be an integer ["days: must be an integer"]"#))
        // JSONIO.decode(_:from: Data) finds the field the same way when JSONDecoder names none.
        #expect(Self.viaBytes(value) == Self.direct(value))
    }

    /// A value outside an enumeration names the values it takes (`JSONDecoder` named the
    /// Swift type: "Cannot initialize Difficulty from invalid String value impossible").
    @Test func aValueOutsideAnEnumerationNamesTheValuesItTakes() throws {
        let value = try Self.fields(
            #"{"type":"habit.created","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","name":"Walk","difficulty":"impossible"}"#
        )
        let error = try #require(throws: APIError.self) { try JSONIO.decode(Event.self, from: value) }
        let issue = #""impossible" is not one of easy, medium, hard"#
        #expect(error.message == "difficulty: \(issue)")
        #expect(error.details.map(\.field) == ["difficulty"] && error.details.map(\.issue) == [issue])
    }

    struct Outer: Decodable, Equatable {
        struct Item: Decodable, Equatable { var name: String; var note: String? }
        var counts: [String: Int]
        var items: [Item]
        var label: String?
    }

    /// Decoding with unknown fields refused names the first field no decoding asked for, at
    /// any depth, with the fields known there; a dictionary's keys are all its own.
    @Test(
        arguments: [
            (#"{"counts": {"any": 1, "key": 2}, "items": [{"name": "a"}], "label": "x"}"#, nil),
            (#"{"counts": {}, "items": [], "colour": 1}"#, "colour: is not a field here (counts, items, label)"),
            (
                #"{"counts": {}, "items": [{"name": "a"}, {"name": "b", "nite": "c"}]}"#,
                "items[1].nite: is not a field here (name, note)"
            ),
            (
                #"{"counts": {}, "items": [], "label": null, "zzz": 0, "aaa": 0}"#,
                "aaa: is not a field here (counts, items, label)"
            ),
        ] as [(String, String?)])
    func unknownFieldsAreNamedWhereTheyAre(_ json: String, _ expected: String?) throws {
        let value = try Self.fields(json)
        do {
            let decoded = try JSONValueDecoder.decodeKnownFields(Outer.self, from: value)
            #expect(expected == nil, "decoded \(decoded)")
            // Without the check, the same value decodes to the same thing.
            #expect(try JSONValueDecoder.decode(Outer.self, from: value) == decoded)
        } catch let error as DecodingError {
            #expect(JSONIO.apiError(error).message == expected)
        }
    }
}
