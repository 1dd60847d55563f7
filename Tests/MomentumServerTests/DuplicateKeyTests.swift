import Foundation
import HTTPTypes
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// A JSON body that names one key twice in an object is refused with a 422 naming the key:
/// Foundation keeps one of the values, and a proxy in front may keep the other.
@Suite struct DuplicateKeyTests {
    private func first(_ json: String) -> String? {
        JSONDuplicateKeys.first(in: Data(json.utf8))
    }

    @Test func theScannerNamesTheRepeatedKeyWithItsPath() {
        #expect(first(#"{"a": 1, "b": 2, "a": 3}"#) == "a")
        #expect(first(#"{"x": {"habit": "h", "habit": "g"}}"#) == "x.habit")
        #expect(first(#"{"events": [{"a": 1}, {"a": 1}, {"id": "e", "at": 1, "id": "f"}]}"#) == "events[2].id")
        #expect(first(#"[[1, 2], [{"k": [], "k": {}}]]"#) == "[1][0].k")
        #expect(first(#"{"o": {"p": 1}, "q": {"p": 1}, "o": 2}"#) == "o")
    }

    @Test func escapedSpellingsOfOneKeyAreOneKey() {
        #expect(first(#"{"a": 1, "\u0061": 2}"#) == "a")
        #expect(first(#"{"\u0048abit": 1, "Habit": 2}"#) == "Habit")
        #expect(first(#"{"a\"b": 1, "a\u0022b": 2}"#) == #"a"b"#)
        #expect(first(#"{"a\/b": 1, "a/b": 2}"#) == "a/b")
        #expect(first(#"{"\ud83c\udfc3": 1, "🏃": 2}"#) == "🏃")
        #expect(first(#"{"é": 1, "e\u0301": 2}"#) != nil, "canonically equivalent names are one Swift key")
    }

    @Test func bodiesWithoutARepeatedKeyPass() {
        #expect(first(#"{"a": 1, "b": {"a": 1}, "c": [{"a": 1}, {"a": 2}]}"#) == nil)
        #expect(first(#"{"a": "a", "b": "\"a\": 1, \"a\": 2", "\\": 1, "\\\\": 2}"#) == nil)
        #expect(first(#"{"a\u0062": 1, "a": 2, "b": 3, "\u00e9": 4, "e": 5}"#) == nil)
        #expect(first(#"{"k": {}, "l": {"k": 1}, "m": [], "n": [[], {}]}"#) == nil)
        #expect(first(#"["a", "a", {"a": 1}]"#) == nil)
        #expect(first(#""a""#) == nil)
    }

    /// Keys of an object seen after a sibling object at the same depth closed do not meet
    /// the sibling's keys: the reused set starts empty.
    @Test func eachObjectHasItsOwnKeys() {
        let events = (0..<200).map { #"{"id": "e\#($0)", "type": "completion", "habit": "h", "at": "x"}"# }
        #expect(first(#"{"events": [\#(events.joined(separator: ","))]}"#) == nil)
    }

    @Test func everyJSONRouteRefusesARepeatedKeyWithA422NamingIt() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("dup")
            let created = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "walk", "name": "Walk", "eventId": "c1"}"#)
            #expect(created.status == .created, "\(created.text)")
            let habit = "walk"
            let at = RFC3339.format(harness.now)
            let cases: [(method: HTTPRequest.Method, uri: String, body: String, field: String)] = [
                (.post, "/v1/habits", #"{"name": "Run", "name": "Swim"}"#, "name"),
                (.post, "/v1/habits/\(habit)/check-ins", #"{"note": "a", "\u006eote": "b"}"#, "note"),
                (.patch, "/v1/profile", #"{"displayName": "A", "displayName": "B"}"#, "displayName"),
                (
                    .patch, "/v1/profile", #"{"notifications": {"weeklySummary": true, "weeklySummary": false}}"#,
                    "notifications.weeklySummary"
                ),
                (.post, "/v1/celebrations/sessions", #"{"session": "s1", "session": "s2"}"#, "session"),
                (.post, "/v1/store/purchases", #"{"item": "freeze", "item": "x"}"#, "item"),
                (
                    .post, "/v1/events",
                    #"{"events": [{"id": "e1", "type": "completion", "at": "\#(at)", "tz": "UTC", "habit": "\#(habit)"}, {"id": "e2", "type": "completion", "at": "\#(at)", "tz": "UTC", "habit": "\#(habit)", "habit": "other"}]}"#,
                    "events[1].habit"
                ),
            ]
            for item in cases {
                let response = try await client.call(item.method, item.uri, token: token, json: item.body)
                #expect(response.status == .unprocessableContent, "\(item.uri): \(response.text)")
                #expect(response.errorCode == "duplicate_key", "\(item.uri)")
                #expect(response.errorFields == [item.field], "\(item.uri)")
            }
            let account = try await client.call(
                .post, "/v1/accounts",
                json:
                    #"{"email": "a@example.com", "email": "b@example.com", "password": "correct horse", "displayName": "A", "timeZone": "UTC"}"#
            )
            #expect(account.status == .unprocessableContent && account.errorFields == ["email"], "\(account.text)")
            // Nothing was applied.
            let events = try await client.call(.get, "/v1/events", token: token)
            #expect((events.json["events"] as? [Any])?.count == 1, "only the habit's creation")
            // The same bodies without the repeated key are taken.
            let checkIn = try await client.call(
                .post, "/v1/habits/\(habit)/check-ins", token: token, json: #"{"note": "a", "\u0074z": "UTC"}"#)
            #expect(checkIn.status == .ok, "\(checkIn.text)")
        }
    }
}
