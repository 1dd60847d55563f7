import Foundation
import MomentumAPI
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The events the convenience routes make of their bodies: one decoding, into an
/// `EventRequest`, gives the event that the same fields pushed as an event decode to.
@Suite struct RouteEventTests {
    /// An instant with a sub-millisecond fraction, which the stored event rounds.
    let now = Date(timeIntervalSince1970: 1_795_300_000.123_456_7)

    func request(_ body: String, _ route: EventRequest.Route) throws -> EventRequest {
        try JSONIO.decodeBody(
            EventRequest.self, from: Data(body.utf8), userInfo: [EventRequest.routeKey: route], emptyIsObject: true)
    }

    /// The event a push would carry for the same fields: the body with `type`, `id`, `at`,
    /// `tz` and the path's fields added.
    func pushed(_ body: String, _ route: EventRequest.Route, id: String, zone: String) throws -> Event {
        var object =
            try JSONSerialization.jsonObject(with: Data((body.isEmpty ? "{}" : body).utf8)) as? [String: Any] ?? [:]
        object["type"] = route.type
        object["id"] = object.removeValue(forKey: "eventId") ?? id
        object["at"] = object["at"] ?? RFC3339.format(now)
        object["tz"] = object["tz"] ?? zone
        for (field, value) in route.defaults.merging(route.path, uniquingKeysWith: { $1 }) where object[field] == nil {
            object[field] = value
        }
        return try MomentumJSON.decoder().decode(Event.self, from: JSONSerialization.data(withJSONObject: object))
    }

    @Test func aBodyMakesTheEventItsFieldsDecodeTo() throws {
        let checkIn = EventRequest.Route(type: "completion", path: ["habit": "walk"])
        let cases: [(String, EventRequest.Route)] = [
            ("", checkIn),
            ("{}", checkIn),
            (#"{"eventId": "e_client-1"}"#, checkIn),
            (#"{"habit": "walk", "note": "rain", "value": 2.5, "day": "2026-11-20"}"#, checkIn),
            (#"{"at": "2026-11-20T08:00:00+09:00", "tz": "Asia/Tokyo"}"#, checkIn),
            (#"{"eventId": "\#(String(repeating: "x", count: 128))"}"#, checkIn),
            (#"{"note": "läufe 🏃"}"#, EventRequest.Route(type: "skip", path: ["habit": "walk"])),
            (
                #"{"name": "Read", "schedule": {"kind": "weekdays", "days": ["monday", "wednesday"]}}"#,
                .init(type: "habit.created", defaults: ["habit": "h_1"])
            ),
            (#"{"habit": "read", "name": "Read"}"#, .init(type: "habit.created", defaults: ["habit": "h_1"])),
            (#"{"name": "Read more", "difficulty": "hard"}"#, .init(type: "habit.updated", path: ["habit": "read"])),
            ("", .init(type: "habit.archived", path: ["habit": "read"])),
            (
                #"{"name": "Ollie", "dates": {"born": "2019-04-02"}}"#,
                .init(type: "subject", defaults: ["subject": "s_1"])
            ),
            (#"{"days": 3}"#, .init(type: "purchase", envelope: ["eventId"])),
        ]
        for (body, route) in cases {
            let event = try request(body, route).event(id: "e_server", now: now, zone: "Europe/Berlin")
            #expect(event == (try pushed(body, route, id: "e_server", zone: "Europe/Berlin")), "\(route.type) \(body)")
        }
    }

    /// A bad field is named as the request names it, its issue does not repeat it, and a
    /// field the route does not take is refused naming those it does.
    @Test func badFieldsAreNamedAsTheRequestNamesThem() throws {
        let checkIn = EventRequest.Route(type: "completion", path: ["habit": "walk"])
        let cases: [(String, EventRequest.Route, field: String, issue: String)] = [
            (#"{"eventId": ""}"#, checkIn, "eventId", "must be 1…128 bytes"),
            (#"{"eventId": "\#(String(repeating: "x", count: 129))"}"#, checkIn, "eventId", "must be 1…128 bytes"),
            (#"{"eventId": 7}"#, checkIn, "eventId", "must be a string"),
            (#"{"value": -1}"#, checkIn, "value", "must be a number from 0 to 1000000"),
            (#"{"value": "two"}"#, checkIn, "value", "must be a number"),
            (#"{"day": "2300-01-01"}"#, checkIn, "day", "2300-01-01 must be a date from 1970-01-01 to 2199-12-31"),
            (
                #"{"at": "noon"}"#, checkIn, "at",
                "'noon' is not an RFC 3339 timestamp such as 2026-03-14T08:30:00-04:00"
            ),
            (#"{"colour": "red"}"#, checkIn, "colour", "is not a field here (at, day, eventId, note, tz, value)"),
            (#"{"habit": "read"}"#, checkIn, "habit", "is given by the path ('walk'); leave it out"),
            (#"{"habit": 3}"#, checkIn, "habit", "is given by the path ('walk'); leave it out"),
            (#"{"type": "skip"}"#, checkIn, "type", "is set by the endpoint (send a client event id as 'eventId')"),
            (#"{"id": "e_1"}"#, checkIn, "id", "is set by the endpoint (send a client event id as 'eventId')"),
            (
                #"{"at": "2026-11-20T08:00:00Z"}"#, .init(type: "purchase", envelope: ["eventId"]), "at",
                "is not a field here (days, eventId, item)"
            ),
            (
                "{}", .init(type: "purchase", envelope: ["eventId"]), "item",
                "is required: name a store item, or a number of days"
            ),
            (
                #"{"name": "Walk", "schedule": {"kind": "daily", "colour": 1}}"#,
                .init(type: "habit.created", defaults: ["habit": "h_1"]), "schedule.colour", ""
            ),
            ("[]", checkIn, "body", "must be an object"),
        ]
        for (body, route, field, issue) in cases {
            let error = try #require(throws: APIError.self, "\(body)") { try request(body, route) }
            #expect(error.details.map(\.field) == [field], "\(body): \(error.message)")
            if !issue.isEmpty {
                #expect(error.details.first?.issue == issue, "\(body)")
                #expect(error.message == "\(field): \(issue)", "\(body)")
            }
        }
    }

    /// A retry of a request whose event the server filled in (`at`, `tz`, a new habit's
    /// id) is recognised; one that says otherwise is not.
    @Test func aRetryIsRecognisedByWhatTheClientGave() throws {
        let create = EventRequest.Route(type: "habit.created", defaults: ["habit": "h_first"])
        let body = #"{"eventId": "e_c1", "name": "Read"}"#
        let stored = try request(body, create).event(id: "x", now: now, zone: "Europe/Berlin")
        let again = EventRequest.Route(type: "habit.created", defaults: ["habit": "h_second"])
        #expect(EventIngest.isRetry(of: stored, body: try request(body, again), route: again))
        let renamed = try request(#"{"eventId": "e_c1", "name": "Write"}"#, again)
        #expect(!EventIngest.isRetry(of: stored, body: renamed, route: again))
        let ownID = try request(#"{"eventId": "e_c1", "habit": "mine", "name": "Read"}"#, again)
        #expect(!EventIngest.isRetry(of: stored, body: ownID, route: again))
        let later = try request(#"{"eventId": "e_c1", "name": "Read", "tz": "Asia/Tokyo"}"#, again)
        #expect(!EventIngest.isRetry(of: stored, body: later, route: again))
    }
}
