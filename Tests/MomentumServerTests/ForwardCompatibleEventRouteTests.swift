import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// Events from the future over HTTP (issue 47), on both backends: a newer device's event
/// of an unknown type, and a known one with an extra field, are stored as sent, answered
/// with warnings, pulled, exported and imported unchanged; bad input stores nothing; and
/// after each scenario the account reads back.
struct ForwardCompatibleEventRouteTests {
    /// A newer device's events: a known type with a field it does not have, and a type
    /// the server does not know, with nested fields.
    static func newerEvents(at now: Date) -> [String] {
        let at = RFC3339.format(now.addingTimeInterval(-3_600))
        return [
            habitCreated("read", at: now.addingTimeInterval(-2 * 86_400)),
            completion("c1", habit: "read", at: now.addingTimeInterval(-7_200), extra: #", "mood": "great""#),
            #"{"id": "u1", "type": "mood.logged", "at": "\#(at)", "tz": "Asia/Tokyo", "mood": {"level": 3, "tags": ["sun", null, true], "score": -0.25}, "note": "é"}"#,
        ]
    }

    /// The event objects of a pull, by id.
    static func pulled(_ client: any TestClientProtocol, _ token: String) async throws -> [String: NSDictionary] {
        let pull = try await client.call(.get, "/v1/events?limit=1000", token: token)
        #expect(pull.status == .ok, "\(pull.text)")
        var events: [String: NSDictionary] = [:]
        for item in pull.json["events"] as? [[String: Any]] ?? [] {
            if let event = item["event"] as? [String: Any], let id = event["id"] as? String {
                events[id] = event as NSDictionary
            }
        }
        return events
    }

    /// The account reads back whole: every reader of the log (dashboard, analytics,
    /// exports, memories, notifications, celebrations, the web pages), a pull and the
    /// archive.
    static func readsBack(
        _ client: any TestClientProtocol, _ token: String, user name: String? = nil
    ) async throws {
        for path in [
            "today", "events", "analytics", "memories", "achievements", "stats", "wallet", "habits",
            "notifications", "celebrations/next", "progression", "account/csv",
        ] {
            let answer = try await client.call(.get, "/v1/\(path)", token: token)
            #expect(answer.status == .ok || answer.status == .noContent, "\(path): \(answer.status)")
        }
        if let name {
            let cookie = try await client.signInCookie(name)
            for page in ["/today", "/journey", "/profile", "/memories"] {
                let answer = try await client.call(.get, page, headers: [.cookie: cookie])
                #expect(answer.status == .ok, "\(page): \(answer.status)")
            }
        }
        let archive = try await client.call(.get, "/v1/account/archive", token: token)
        #expect(archive.status == .ok)
        _ = try AccountArchive.read(tar: Data(archive.body.readableBytesView))
    }

    @Test(arguments: [(ServerHarness.Backend.sqlite, ServerHarness.Backend.postgres), (.postgres, .sqlite)])
    func aNewerDevicesEventsAreKeptPassedOnAndRoundTrip(
        _ from: ServerHarness.Backend, _ to: ServerHarness.Backend
    ) async throws {
        let (tar, sentEvents, exported) = try await ServerHarness.with(backend: from) { harness, client in
            let token = try await harness.register("ada", daysAgo: 3, client: client)
            let events = Self.newerEvents(at: harness.now)
            let first = try await client.call(
                .post, "/v1/events", token: token, json: eventsJSON(Array(events.prefix(2))))
            #expect(first.status == .ok, "\(first.text)")
            let before = try await client.call(.get, "/v1/today", token: token)
            let pushed = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            #expect(pushed.status == .ok, "\(pushed.text)")
            let results = try #require(pushed.json["results"] as? [[String: Any]])
            #expect(results.map { $0["status"] as? String } == ["duplicate", "duplicate", "applied"])
            #expect(results[0]["warnings"] == nil)
            let firstResults = try #require(first.json["results"] as? [[String: Any]])
            #expect(firstResults[0]["warnings"] == nil)
            for answer in [firstResults[1], results[1]] {
                let fieldWarning = try #require((answer["warnings"] as? [[String: Any]])?.first)
                #expect(fieldWarning["code"] as? String == "unknown_field")
                #expect(fieldWarning["field"] as? String == "mood")
                #expect(
                    (fieldWarning["message"] as? String)?.contains("'mood' is not a field of completion events") == true
                )
            }
            let typeWarnings = try #require(results[2]["warnings"] as? [[String: Any]])
            #expect(typeWarnings.map { $0["code"] as? String } == ["unknown_type"])
            #expect((typeWarnings[0]["message"] as? String)?.contains("'mood.logged'") == true)

            // The unknown event changed nothing: the habits and the wallet are what they
            // were without it.
            let after = try await client.call(.get, "/v1/today", token: token)
            #expect(after.json["habits"] as? NSArray == before.json["habits"] as? NSArray)
            #expect(after.json["wallet"] as? NSDictionary == before.json["wallet"] as? NSDictionary)
            #expect((after.json["habits"] as? [[String: Any]])?.first?["current"] as? Int == 1)

            // A retry is a duplicate, with the same warnings.
            let again = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            let retried = try #require(again.json["results"] as? [[String: Any]])
            #expect(retried.map { $0["status"] as? String } == ["duplicate", "duplicate", "duplicate"])
            #expect((retried[2]["warnings"] as? [[String: Any]])?.count == 1)

            // Stored and pulled as sent: same fields, same values.
            let pulled = try await Self.pulled(client, token)
            let sent = try events.map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary)
            }
            #expect(pulled["c1"] == sent[1])
            #expect(pulled["u1"] == sent[2])

            try await Self.readsBack(client, token, user: "ada")

            // An operator's import takes them too.
            let adminBody =
                #"{"email": "ada@example.com", "events": [\#(#"{"id": "u2", "type": "mood.logged", "at": "\#(RFC3339.format(harness.now.addingTimeInterval(-600)))", "tz": "UTC", "mood": "calm"}"#)]}"#
            let imported = try await client.call(
                .post, "/v1/admin/imports", json: adminBody, headers: [.authorization: "Bearer mop_harness-owner"])
            #expect(imported.status == .ok, "\(imported.text)")
            #expect(try await Self.pulled(client, token)["u2"]?["mood"] as? String == "calm")

            let download = try await client.call(.get, "/v1/account/archive", token: token)
            #expect(download.status == .ok)
            let bytes = Array(download.body.readableBytesView)
            let archive = try AccountArchive.read(tar: Data(bytes))
            let stored = try archive.events.map { try MomentumJSON.encodeBytes($0.event) }
            #expect(archive.events.map(\.event.id).contains("u1"))
            return (bytes, events, stored)
        }

        try await ServerHarness.with(backend: to) { _, client in
            let imported = try await client.call(
                .post, "/v1/admin/archives", bytes: tar,
                headers: [.contentType: "application/x-tar", .authorization: "Bearer mop_harness-owner"])
            #expect(imported.status == .created, "\(imported.text)")
            let session = try await client.call(
                .post, "/v1/sessions",
                json: #"{"email": "ada@example.com", "password": "correct horse", "deviceName": "laptop"}"#)
            let token = try #require(session.json["token"] as? String)
            let pulled = try await Self.pulled(client, token)
            let sent = try sentEvents.map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary)
            }
            #expect(pulled["u1"] == sent[2])
            #expect(pulled["c1"] == sent[1])
            // Exported again from the other backend, the events are the same bytes.
            let download = try await client.call(.get, "/v1/account/archive", token: token)
            let archive = try AccountArchive.read(tar: Data(download.body.readableBytesView))
            #expect(try archive.events.map { try MomentumJSON.encodeBytes($0.event) } == exported)
            let today = try await client.call(.get, "/v1/today", token: token)
            #expect((today.json["habits"] as? [[String: Any]])?.first?["current"] as? Int == 1)
            try await Self.readsBack(client, token, user: "ada")
        }
    }

    /// An unknown event beyond the bounds, a malformed envelope or a flood of unknown
    /// types: a 4xx naming the problem, and nothing of the batch stored.
    @Test(arguments: ServerHarness.Backend.allCases)
    func badEventsFromTheFutureStoreNothing(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let token = try await harness.register("bob", daysAgo: 3, client: client)
            let at = RFC3339.format(harness.now.addingTimeInterval(-3_600))
            let good = completion("ok", habit: "read", at: harness.now.addingTimeInterval(-3_000))
            func unknown(_ id: String, type: String = "mood.logged", at: String = at, fields: String = "") -> String {
                #"{"id": "\#(id)", "type": "\#(type)", "at": "\#(at)", "tz": "UTC"\#(fields)}"#
            }
            let created = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([habitCreated("read", at: harness.now.addingTimeInterval(-86_400))]))
            #expect(created.status == .ok)
            let cases: [(String, [String], String)] = [
                (
                    "oversized", [good, unknown("big", fields: #", "s": "\#(String(repeating: "x", count: 9_000))""#)],
                    "8192 bytes"
                ),
                (
                    "too many fields", [good, unknown("wide", fields: (0...40).map { #", "f\#($0)": 1"# }.joined())],
                    "at most 32 fields"
                ),
                ("too deep", [good, unknown("deep", fields: #", "d": [[[[[[[[[[1]]]]]]]]]]"#)], "nests more than 8"),
                ("huge number", [good, unknown("num", fields: #", "n": 9007199254740993"#)], "must be finite"),
                ("beyond a double", [good, unknown("inf", fields: #", "n": 1e400"#)], ""),
                ("bad type", [good, unknown("bad", type: "Mood Logged")], "is not an event type"),
                ("no zone", [good, #"{"id": "nz", "type": "mood.logged", "at": "\#(at)"}"#], ""),
                ("bad instant", [good, unknown("when", at: "noon")], "RFC 3339"),
                ("bad id", [good, unknown(String(repeating: "i", count: 200))], "1…128"),
                (
                    "flood",
                    [good] + (0...EventLimits.maximumUnknownTypesPerPush).map { unknown("f\($0)", type: "kind\($0)") },
                    "too_many_unknown_types"
                ),
            ]
            for (name, events, reason) in cases {
                let answer = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
                #expect(
                    answer.status == .unprocessableContent || answer.status == .badRequest, "\(name): \(answer.text)")
                #expect(reason.isEmpty || answer.text.contains(reason), "\(name): \(answer.text)")
                #expect(try await Self.pulled(client, token).keys.sorted() == ["create-read"], "\(name)")
                try await Self.readsBack(client, token)
            }
            // The engine refuses an unknown event's envelope as any other's: a zone that is none.
            let mars = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([#"{"id": "m", "type": "mood.logged", "at": "\#(at)", "tz": "Mars/Base"}"#]))
            #expect((mars.json["results"] as? [[String: Any]])?.first?["status"] as? String == "invalid")

            // An account holds at most so many unknown types: the push that would pass it
            // is refused whole.
            let perPush = EventLimits.maximumUnknownTypesPerPush
            for batch in 0..<(EventLimits.maximumUnknownTypesPerAccount / perPush) {
                let events = (0..<perPush).map { unknown("a\(batch)-\($0)", type: "kind\(batch).\($0)") }
                let answer = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
                #expect(answer.status == .ok, "\(answer.text)")
            }
            let onceMore = try await client.call(
                .post, "/v1/events", token: token, json: eventsJSON([good, unknown("last", type: "one.more")]))
            #expect(onceMore.status == .unprocessableContent, "\(onceMore.text)")
            #expect(onceMore.errorCode == "too_many_unknown_types")
            let stored = try await Self.pulled(client, token)
            #expect(stored["last"] == nil && stored["ok"] == nil)
            #expect(stored.count == 1 + EventLimits.maximumUnknownTypesPerAccount)
            // A type already held is no flood.
            let known = try await client.call(
                .post, "/v1/events", token: token, json: eventsJSON([good, unknown("again", type: "kind0.0")]))
            #expect(known.status == .ok, "\(known.text)")
            try await Self.readsBack(client, token, user: "bob")
        }
    }
}
