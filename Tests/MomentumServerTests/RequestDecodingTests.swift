import Foundation
import MomentumAPI
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Request bodies are decoded once, by `JSONDecoder`, into their typed requests; when a
/// body is refused, the answer names the field at fault with what the contract says of it.
struct RequestDecodingTests {
    static func decode<T: Decodable>(
        _ type: T.Type, _ json: String, _ method: String, _ path: String,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) throws -> T {
        try JSONIO.decodeBody(
            type, from: Data(json.utf8), userInfo: userInfo,
            contract: { RequestContract.shared.body(method: method, path: path) })
    }

    /// The message of the error decoding `json` gives, or `nil` when it decodes.
    static func refusal<T: Decodable>(
        _ type: T.Type, _ json: String, _ method: String, _ path: String,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) -> String? {
        do {
            _ = try decode(type, json, method, path, userInfo: userInfo)
            return nil
        } catch let error as APIError {
            #expect(error.details.map { "\($0.field): \($0.issue)" } == [error.message])
            return error.message
        } catch {
            return "\(error)"
        }
    }

    static let purchase = [EventRequest.routeKey: EventRequest.Route(type: "purchase", envelope: ["eventId"])]

    /// Every operation that takes a JSON body has its shape in the contract, and a path
    /// finds its operation with a literal segment before a template.
    @Test func theContractKnowsEveryJSONBody() throws {
        let contract = RequestContract.shared
        let habits = try #require(contract.body(method: "POST", path: "/v1/habits"))
        #expect(habits.fields["difficulty"]?.choices == ["easy", "medium", "hard"])
        let checkIn = try #require(contract.body(method: "POST", path: "/v1/habits/walk/check-ins?x=1"))
        #expect(checkIn.fields.keys.sorted() == ["at", "day", "eventId", "note", "tz", "value"])
        let push = try #require(contract.body(method: "POST", path: "/v1/events"))
        #expect(push.fields["events"]?.items?.fields["days"]?.integer == true)
        #expect(push.fields["events"]?.items?.fields["amount"]?.integer == false)
        #expect(contract.body(method: "GET", path: "/v1/events") == nil)
        #expect(contract.body(method: "POST", path: "/v1/nothing") == nil)
        let document = try #require(try JSONSerialization.jsonObject(with: APIDocument.data) as? [String: Any])
        var bodies = 0
        for (path, methods) in try #require(document["paths"] as? [String: [String: Any]]) {
            for (method, operation) in methods {
                let content = ((operation as? [String: Any])?["requestBody"] as? [String: Any])?["content"]
                guard (content as? [String: Any])?["application/json"] != nil else { continue }
                bodies += 1
                let concrete = path.replacing(/\{[a-z]+\}/, with: "x")
                #expect(contract.body(method: method.uppercased(), path: concrete) != nil, "\(method) \(path)")
            }
        }
        #expect(bodies >= 15)
    }

    /// Requests stay strict while answers may grow (docs/api-versioning.md): every object a
    /// request body can hold is closed (`additionalProperties: false`), so the generated
    /// types refuse a field they do not know, or a map whose values have a schema. The one
    /// exception is `Event`, which may come from a device newer than the server: an unknown
    /// type or field is kept and reported in the push answer's warnings (docs/events.md).
    @Test func everyRequestObjectIsClosed() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: APIDocument.data) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        var open: [String] = []
        var seen: Set<String> = []
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String {
                    let name = String(reference.split(separator: "/").last ?? "")
                    if seen.insert(name).inserted { walk(schemas[name] as Any, name) }
                    return
                }
                if object["properties"] != nil,
                    object["additionalProperties"] == nil || object["additionalProperties"] as? Bool == true
                {
                    open.append(path)
                }
                for (key, child) in object { walk(child, "\(path)/\(key)") }
            } else if let array = value as? [Any] {
                for (index, child) in array.enumerated() { walk(child, "\(path)[\(index)]") }
            }
        }
        for (path, methods) in try #require(document["paths"] as? [String: [String: Any]]) {
            for (method, operation) in methods {
                let content = ((operation as? [String: Any])?["requestBody"] as? [String: Any])?["content"]
                if let json = (content as? [String: Any])?["application/json"] { walk(json, "\(method) \(path)") }
            }
        }
        #expect(seen.contains("Event") && seen.contains("RegisterRequest"))
        #expect(open == ["Event"])
    }

    /// Where an integer is wanted, a fraction or a number too large names the field
    /// (`JSONDecoder` alone calls the whole body unreadable JSON).
    @Test(arguments: ["1.5", "1e20", "-0.25", "99999999999999999999", "9223372036854775808"])
    func aNumberThatIsNotAnIntegerNamesItsField(_ days: String) throws {
        #expect(
            Self.refusal(
                EventRequest.self, #"{"days": \#(days)}"#, "POST", "/v1/store/purchases", userInfo: Self.purchase)
                == "days: must be an integer")
        let event = #"{"type":"purchase","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","days":\#(days)}"#
        let pushed =
            #"{"events": [{"type":"skip","id":"e0","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"h","day":"2026-03-13"}, \#(event)]}"#
        #expect(Self.refusal(PushRequest.self, pushed, "POST", "/v1/events") == "events[1].days: must be an integer")
    }

    /// A whole number written as a fraction is an integer, as `JSONDecoder` reads it; an
    /// amount, which the contract calls a number, takes a fraction.
    @Test func wholeNumbersAndAmountsAreTaken() throws {
        let request = try Self.decode(
            EventRequest.self, #"{"days": 2.0}"#, "POST", "/v1/store/purchases", userInfo: Self.purchase)
        #expect(request.payload == .purchase(item: nil, days: 2))
        let pushed = try Self.decode(
            PushRequest.self,
            #"{"events": [{"type":"contribution","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","goal":"bike","amount":12.5}]}"#,
            "POST", "/v1/events")
        #expect(pushed.events.first?.payload.type == "contribution")
    }

    /// A value outside an enumeration names the values it takes (`JSONDecoder` names the
    /// Swift type: "Cannot initialize Difficulty from invalid String value impossible").
    @Test func aValueOutsideAnEnumerationNamesTheValuesItTakes() {
        #expect(
            Self.refusal(ProfilePatch.self, #"{"celebrationStyle": "loud"}"#, "PATCH", "/v1/profile")
                == #"celebrationStyle: "loud" is not one of full, subtle, minimal, off"#)
        let event =
            #"{"type":"habit.created","id":"e1","at":"2026-03-14T08:30:00Z","tz":"UTC","habit":"walk","name":"Walk","difficulty":"impossible"}"#
        #expect(
            Self.refusal(PushRequest.self, #"{"events": [\#(event)]}"#, "POST", "/v1/events")
                == #"events[0].difficulty: "impossible" is not one of easy, medium, hard"#)
    }

    /// A field no decoding takes is refused by name, at any depth, with the fields known
    /// there: generated types, hand-written ones and events alike.
    @Test(
        arguments: [
            (
                #"{"email": "a@example.com", "password": "secret password", "displayName": "Ada", "timezone": "UTC"}"#,
                "POST",
                "/v1/accounts",
                "timezone: is not a field here (dayStartHour, deviceName, displayName, email, language, pack, packs, password, timeZone)"
            ),
            (
                #"{"notifications": {"reminders": true, "reminder": 9}}"#, "PATCH", "/v1/profile",
                "notifications.reminder: is not a field here (celebrations, channels, dailyCap, freezes, nudges, nudgesPerDay, quietHours, reminderHour, reminderTimes, reminders, social, streakAtRisk, streakBroken, weeklyDay, weeklyHour, weeklySummary)"
            ),
            (
                #"{"timezone": "UTC", "displayName": "Ada"}"#, "PATCH", "/v1/profile",
                "timezone: is not a field here (celebrationStyle, dayStartHour, displayName, doNotDisturb, language, notifications, pack, packs, reduceMotion, timeZone)"
            ),
            (
                #"{"events": [], "zzz": 0, "aaa": 0}"#, "POST", "/v1/events", "aaa: is not a field here (events)"
            ),
            (
                #"{"session": "s", "theme": "x"}"#, "POST", "/v1/celebrations/sessions",
                "theme: is not a field here (session)"
            ),
        ] as [(String, String, String, String)])
    func unknownFieldsAreNamedWhereTheyAre(_ json: String, _ method: String, _ path: String, _ expected: String) {
        let message: String? =
            switch path {
            case "/v1/accounts": Self.refusal(RegisterRequest.self, json, method, path)
            case "/v1/profile": Self.refusal(ProfilePatch.self, json, method, path)
            case "/v1/events": Self.refusal(PushRequest.self, json, method, path)
            default: Self.refusal(SessionStartRequest.self, json, method, path)
            }
        #expect(message == expected)
    }

    /// Malformed JSON is a 400; a key given twice is named before what either value holds.
    @Test func malformedJSONAndRepeatedKeys() throws {
        let malformed = #expect(throws: APIError.self) {
            try Self.decode(ProfilePatch.self, #"{"displayName": "A""#, "PATCH", "/v1/profile")
        }
        #expect(malformed?.status == .badRequest && malformed?.code == "invalid_json")
        let empty = #expect(throws: APIError.self) {
            try Self.decode(ProfilePatch.self, "", "PATCH", "/v1/profile")
        }
        #expect(empty?.code == "invalid_json")
        #expect(
            Self.refusal(ProfilePatch.self, #"{"dayStartHour": 1, "dayStartHour": "x"}"#, "PATCH", "/v1/profile")
                == "dayStartHour: is given twice in one object; send each field once")
        #expect(
            Self.refusal(ProfilePatch.self, #"{"displayName": "A", "displayName": "B"}"#, "PATCH", "/v1/profile")
                == "displayName: is given twice in one object; send each field once")
    }

    /// Events pulled from the server and pushed back decode to the same events: they hold
    /// no field a push refuses.
    @Test func generatedLogsPushedBackDecodeToTheSameEvents() throws {
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
        let body = #"{"events": "# + String(decoding: try MomentumJSON.encode(events), as: UTF8.self) + "}"
        let pushed = try Self.decode(PushRequest.self, body, "POST", "/v1/events")
        #expect(pushed.events == events)
        #expect(Set(events.map(\.payload.type)).isSuperset(of: ["habit.created", "completion", "skip", "purchase"]))
    }

    /// An empty body decodes to the same request every time for the same route (the
    /// decoder is given nothing but the route), which is what lets the server remember it
    /// per route (`EmptyBodies`); and a remembered one still makes a new event each time.
    @Test func anEmptyBodyDecodesTheSameForItsRoute() throws {
        for type in ["completion", "skip", "habit.archived"] {
            let route = EventRequest.Route(type: type, path: ["habit": "walk"])
            let first = try Self.decode(
                EventRequest.self, "{}", "POST", "/v1/habits/walk/check-ins", userInfo: [EventRequest.routeKey: route])
            let second = try Self.decode(
                EventRequest.self, "{}", "POST", "/v1/habits/walk/check-ins", userInfo: [EventRequest.routeKey: route])
            #expect(first == second, "\(type)")
            #expect(first.eventId == nil && first.at == nil && first.timeZone == nil, "\(type)")
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let one = first.event(id: "e_1", now: now, zone: "UTC")
            let two = first.event(id: "e_2", now: now.addingTimeInterval(60), zone: "Europe/Berlin")
            #expect(one.id == "e_1" && two.id == "e_2" && one.at != two.at && two.timeZone == "Europe/Berlin")
        }
    }

    /// Empty check-ins through the router: each is a new event, whether its route's body
    /// was decoded or remembered; an empty body a route refuses is refused every time.
    @Test func emptyCheckInsAreEachTheirOwnEvent() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("ema")
            let created = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "walk", "name": "Walk"}"#)
            #expect(created.status == .created, "\(created.text)")
            for _ in 0..<3 {
                let checkIn = try await client.call(.post, "/v1/habits/walk/check-ins", token: token)
                #expect(checkIn.status == .ok, "\(checkIn.text)")
            }
            let today = try await client.call(.get, "/v1/habits/walk?days=1", token: token)
            let calendar = try #require((today.json["habit"] as? [String: Any])?["calendar"] as? [[String: Any]])
            let completions = try #require(calendar.last?["completions"] as? [[String: Any]])
            #expect(Set(completions.compactMap { $0["event"] as? String }).count == 3)
            let long = String(repeating: "x", count: 300)
            var answers: [String] = []
            for _ in 0..<2 {
                let refused = try await client.call(.post, "/v1/habits/\(long)/check-ins", token: token)
                #expect(refused.status.code >= 400 && refused.status.code < 500, "\(refused.text)")
                answers.append("\(refused.status.code) \(refused.text)")
            }
            #expect(answers[0] == answers[1])
        }
    }
}
