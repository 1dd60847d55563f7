import Foundation
import MomentumCore
import Testing

@testable import MomentumServer

/// The events the convenience routes make from their fields: a plain check-in is made
/// directly, and must be the event that decoding its JSON form gives.
@Suite struct RouteEventTests {
    /// An instant with a sub-millisecond fraction, which the stored event rounds.
    let now = Date(timeIntervalSince1970: 1_795_300_000.123_456_7)

    @Test func aPlainCheckInIsTheEventItsJSONDecodesTo() throws {
        let cases: [[String: JSONValue]] = [
            ["habit": .string("walk")],
            ["habit": .string("walk"), "eventId": .string("e_client-1")],
            ["habit": .string(""), "eventId": .string(String(repeating: "x", count: 128))],
            ["habit": .string("läufe 🏃"), "eventId": .string("ü")],
        ]
        for fields in cases {
            let direct = try #require(Routes.plainCompletion(fields, now: now, zone: "Europe/Berlin"), "\(fields)")
            var decodedFields = fields
            decodedFields["eventId"] = .string(direct.id)
            let decoded = try Routes.decodedEvent(
                "completion", fields: decodedFields, now: now, zone: "Europe/Berlin")
            #expect(direct == decoded, "\(fields)")
            #expect(try Routes.event("completion", fields: fields, now: now, zone: "Europe/Berlin").at == decoded.at)
            if fields["eventId"] == nil { #expect(direct.id.hasPrefix("e_") && direct.id.count > 10) }
        }
    }

    /// Any other fields take the decoder, which explains what is wrong with them.
    @Test func otherFieldsAreDecoded() throws {
        let decodable: [[String: JSONValue]] = [
            ["habit": .string("walk"), "note": .string("rain")],
            ["habit": .string("walk"), "value": .number(2)],
            ["habit": .string("walk"), "day": .string("2026-11-20")],
            ["habit": .string("walk"), "at": .string("2026-11-20T08:00:00Z")],
            ["habit": .string("walk"), "tz": .string("Asia/Tokyo")],
        ]
        for fields in decodable {
            #expect(Routes.plainCompletion(fields, now: now, zone: "UTC") == nil, "\(fields)")
            var withID = fields
            withID["eventId"] = .string("e_1")
            #expect(
                try Routes.event("completion", fields: withID, now: now, zone: "UTC")
                    == Routes.decodedEvent("completion", fields: withID, now: now, zone: "UTC"))
        }
        let refused: [[String: JSONValue]] = [
            ["habit": .number(3)],
            [:],
            ["habit": .string("walk"), "eventId": .string("")],
            ["habit": .string("walk"), "eventId": .string(String(repeating: "x", count: 129))],
            ["habit": .string("walk"), "eventId": .number(7)],
            ["habit": .string("walk"), "colour": .string("red")],
        ]
        for fields in refused {
            #expect(Routes.plainCompletion(fields, now: now, zone: "UTC") == nil, "\(fields)")
            let error = try #require(throws: APIError.self) {
                try Routes.event("completion", fields: fields, now: now, zone: "UTC")
            }
            let same = try #require(throws: APIError.self) {
                try Routes.decodedEvent("completion", fields: fields, now: now, zone: "UTC")
            }
            #expect(error.code == same.code && error.message == same.message, "\(fields)")
        }
    }

    /// A bad field is named as the request names it, and its issue does not repeat it.
    @Test func badFieldsAreNamedAsTheRequestNamesThem() throws {
        let cases: [([String: JSONValue], field: String, issue: String)] = [
            (["habit": .string("walk"), "eventId": .string("")], "eventId", "must be 1…128 bytes"),
            (["habit": .string("walk"), "eventId": .number(7)], "eventId", "must be a string"),
            (["habit": .string("walk"), "value": .number(-1)], "value", "must be a number from 0 to 1000000"),
            (
                ["habit": .string("walk"), "colour": .string("red")], "colour",
                "is not a field of completion events (day, habit, note, value)"
            ),
        ]
        for (fields, field, issue) in cases {
            let error = try #require(throws: APIError.self) {
                try Routes.event("completion", fields: fields, now: now, zone: "UTC")
            }
            #expect(error.details.map(\.field) == [field], "\(fields)")
            #expect(error.details.first?.issue == issue, "\(fields)")
            #expect(error.message == "\(field): \(issue)", "\(fields)")
        }
    }
}
