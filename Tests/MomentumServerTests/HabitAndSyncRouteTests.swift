import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@Suite struct HabitAndSyncRouteTests {
    @Test func createCheckInAndSeeTheStreak() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("lin")
            let created = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read", "difficulty": "hard"}"#)
            #expect(created.status == .created, "\(created.text)")
            #expect((created.json["definition"] as? [String: Any])?["habit"] as? String == "read")

            let checkIn = try await client.call(
                .post, "/v1/habits/read/check-ins", token: token, json: #"{"note": "ch. 3"}"#)
            #expect(checkIn.status == .ok, "\(checkIn.text)")
            #expect((checkIn.json["habit"] as? [String: Any])?["current"] as? Int == 1)

            let today = try await client.call(.get, "/v1/today", token: token)
            let habits = try #require(today.json["habits"] as? [[String: Any]])
            #expect(habits.count == 1)
            #expect((habits[0]["today"] as? [String: Any])?["state"] as? String == "completed")

            let detail = try await client.call(.get, "/v1/habits/read?days=90", token: token)
            let calendar = try #require((detail.json["habit"] as? [String: Any])?["calendar"] as? [[String: Any]])
            #expect(calendar.count == 1)
            #expect(detail.json["analytics"] != nil)

            let renamed = try await client.call(
                .patch, "/v1/habits/read", token: token, json: #"{"name": "Read daily"}"#)
            #expect((renamed.json["definition"] as? [String: Any])?["name"] as? String == "Read daily")
            let missing = try await client.call(.post, "/v1/habits/nope/check-ins", token: token, json: "{}")
            #expect(missing.status == .notFound)
            let dupe = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Again"}"#)
            #expect(dupe.status == .conflict)
            #expect(dupe.errorCode == "duplicate_habit")
            let archived = try await client.call(.post, "/v1/habits/read/archive", token: token)
            #expect(archived.status == .ok)
            _ = harness
        }
    }

    /// A convenience route names the fields it takes when it refuses one: the event's own
    /// (less what its path gives) with `eventId`, `at` and `tz`; a field that contradicts
    /// the path is refused rather than silently replaced.
    @Test func convenienceRoutesNameTheirOwnFields() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("nel")
            _ = try await client.call(.post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read"}"#)
            func issue(_ response: JSONResponse) -> String? {
                let details = (response.json["error"] as? [String: Any])?["details"] as? [[String: Any]]
                guard let detail = details?.first else { return nil }
                return "\(detail["field"] as? String ?? ""): \(detail["issue"] as? String ?? "")"
            }
            let cases: [(HTTPRequest.Method, String, String, String)] = [
                (
                    .post, "/v1/habits/read/check-ins", #"{"nte": "ch. 3"}"#,
                    "nte: is not a field here (at, day, eventId, note, tz, value)"
                ),
                (
                    .post, "/v1/habits/read/check-ins", #"{"habit": "walk"}"#,
                    "habit: is given by the path ('read'); leave it out"
                ),
                (
                    .post, "/v1/habits/read/skips", #"{"value": 1}"#,
                    "value: is not a field here (at, day, eventId, note, tz)"
                ),
                (.post, "/v1/habits/read/archive", #"{"name": "x"}"#, "name: is not a field here (at, eventId, tz)"),
                (
                    .patch, "/v1/habits/read", #"{"colour": "red"}"#,
                    "colour: is not a field here (at, category, difficulty, eventId, group, name, policy, schedule, target, tz)"
                ),
                (
                    .post, "/v1/habits", #"{"name": "Walk", "colour": "red"}"#,
                    "colour: is not a field here (at, category, difficulty, eventId, group, habit, name, policy, schedule, start, target, tz, weekStart)"
                ),
                (
                    .post, "/v1/subjects", #"{"name": "Ollie", "breed": "lab"}"#,
                    "breed: is not a field here (at, dates, eventId, kind, name, photo, subject, tz)"
                ),
            ]
            for (method, path, body, expected) in cases {
                let refused = try await client.call(method, path, token: token, json: body)
                #expect(refused.status == .unprocessableContent, "\(path) \(body)")
                #expect(issue(refused) == expected, "\(refused.text)")
            }
            // The path's own value may be repeated.
            let same = try await client.call(
                .post, "/v1/habits/read/check-ins", token: token, json: #"{"habit": "read"}"#)
            #expect(same.status == .ok, "\(same.text)")
            let today = try await client.call(.get, "/v1/today", token: token)
            let habits = try #require(today.json["habits"] as? [[String: Any]])
            #expect(habits.count == 1)
            #expect((habits[0]["definition"] as? [String: Any])?["name"] as? String == "Read")
        }
    }

    @Test func anotherUserSeesNothingAndGets404() async throws {
        try await ServerHarness.with { _, client in
            let owner = try await client.register("owner")
            let other = try await client.register("other")
            _ = try await client.call(.post, "/v1/habits", token: owner, json: #"{"habit": "run", "name": "Run"}"#)
            #expect(try await client.call(.get, "/v1/habits/run", token: other).status == .notFound)
            #expect(
                try await client.call(.post, "/v1/habits/run/check-ins", token: other, json: "{}").status == .notFound)
            #expect(
                try await client.call(.patch, "/v1/habits/run", token: other, json: #"{"name": "x"}"#).status
                    == .notFound)
            #expect(try await client.call(.get, "/v1/photos/memories/p_x.png", token: other).status == .notFound)
            #expect(
                try await client.call(.patch, "/v1/memories/memory:x", token: other, json: #"{"note": "hi"}"#).status
                    == .notFound)
            let habits = try await client.call(.get, "/v1/habits", token: other)
            #expect((habits.json["habits"] as? [Any])?.isEmpty == true)
            let pulled = try await client.call(.get, "/v1/events", token: other)
            #expect((pulled.json["events"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func pushValidatesEveryEventAndKeepsTheGoodOnes() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("val", daysAgo: 1, client: client)
            let now = harness.now
            let push = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([
                    habitCreated("walk", at: now.addingTimeInterval(-7_200)),
                    completion("c1", habit: "walk", at: now.addingTimeInterval(-60)),
                    completion("c2", habit: "walk", at: now.addingTimeInterval(3_600)),
                    completion("c3", habit: "walk", at: now, zone: "Mars/Olympus"),
                    completion("c4", habit: "nope", at: now),
                ]))
            #expect(push.status == .ok, "\(push.text)")
            let results = try #require(push.json["results"] as? [[String: Any]])
            #expect(results.map { $0["status"] as? String } == ["applied", "applied", "invalid", "invalid", "invalid"])
            #expect((results[2]["error"] as? [String: Any])?["code"] as? String == "future_timestamp")
            #expect((results[3]["error"] as? [String: Any])?["code"] as? String == "unknown_time_zone")
            #expect((results[4]["error"] as? [String: Any])?["code"] as? String == "unknown_habit")

            let retry = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([completion("c1", habit: "walk", at: now.addingTimeInterval(-60))]))
            #expect((retry.json["results"] as? [[String: Any]])?.first?["status"] as? String == "duplicate")

            let wrongType = try await client.call(
                .post, "/v1/events", token: token, json: #"{"events": [{"id": "x", "type": "completion", "at": 5}]}"#)
            #expect(wrongType.status == .unprocessableContent)
            #expect(wrongType.errorFields == ["events[0].at"])
            let notJSON = try await client.call(.post, "/v1/events", token: token, json: "events please")
            #expect(notJSON.errorCode == "invalid_json")
            let huge = try await client.call(
                .post, "/v1/events", token: token,
                json: #"{"events": [], "pad": "\#(String(repeating: "x", count: 300_000))"}"#)
            #expect(huge.status == .contentTooLarge)
            #expect(huge.errorCode == "body_too_large")
            let twice = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([completion("d", habit: "walk", at: now), completion("d", habit: "walk", at: now)]))
            #expect(twice.status == .unprocessableContent)
            let unauthenticated = try await client.call(.post, "/v1/events", json: eventsJSON([]))
            #expect(unauthenticated.status == .unauthorized)
        }
    }

    @Test func pullPagesThroughChangesFromACursor() async throws {
        try await ServerHarness.with { harness, client in
            let phone = try await harness.register("sync", daysAgo: 6, client: client)
            let tablet = try #require(
                try await client.call(
                    .post, "/v1/sessions",
                    json: #"{"email": "sync@example.com", "password": "correct horse", "deviceName": "tablet"}"#
                ).json["token"] as? String)
            let start = harness.now.addingTimeInterval(-5 * 86_400)
            var events = [habitCreated("walk", at: start)]
            for day in 0..<5 {
                events.append(
                    completion("w\(day)", habit: "walk", at: start.addingTimeInterval(Double(day) * 86_400 + 60)))
            }
            _ = try await client.call(.post, "/v1/events", token: phone, json: eventsJSON(events))

            let first = try await client.call(.get, "/v1/events?after=0&limit=4", token: tablet)
            #expect((first.json["events"] as? [Any])?.count == 4)
            #expect(first.json["more"] as? Bool == true)
            let cursor = try #require(first.json["cursor"] as? Int)
            let rest = try await client.call(.get, "/v1/events?after=\(cursor)", token: tablet)
            #expect((rest.json["events"] as? [Any])?.count == 2)
            #expect(rest.json["more"] as? Bool == false)
            let bad = try await client.call(.get, "/v1/events?after=-1", token: tablet)
            #expect(bad.status == .unprocessableContent)
            #expect(bad.errorFields == ["after"])
        }
    }

    /// An offline device that sends a week of events at once ends in the same state as a
    /// device that sent each as it happened.
    @Test func anOfflineWeekEndsInTheSameStateAsOnline() async throws {
        try await ServerHarness.with { harness, client in
            let online = try await harness.register("online", daysAgo: 8, client: client)
            let offline = try await harness.register("offline", daysAgo: 8, client: client)
            let end = harness.now
            let start = end.addingTimeInterval(-7 * 86_400)
            var events = [habitCreated("walk", at: start), habitCreated("read", at: start)]
            for day in 0..<7 where day != 3 {
                events.append(
                    completion("w\(day)", habit: "walk", at: start.addingTimeInterval(Double(day) * 86_400 + 3_600)))
                if day % 2 == 0 {
                    events.append(
                        completion("r\(day)", habit: "read", at: start.addingTimeInterval(Double(day) * 86_400 + 7_200))
                    )
                }
            }
            for event in events {
                _ = try await client.call(.post, "/v1/events", token: online, json: eventsJSON([event]))
            }
            _ = try await client.call(.post, "/v1/events", token: offline, json: eventsJSON(events.reversed()))
            let a = try await client.call(.get, "/v1/habits?days=14", token: online)
            let b = try await client.call(.get, "/v1/habits?days=14", token: offline)
            #expect(a.text == b.text)
            if a.text != b.text {
                try a.text.write(toFile: "/tmp/online.json", atomically: true, encoding: .utf8)
                try b.text.write(toFile: "/tmp/offline.json", atomically: true, encoding: .utf8)
            }
            let walletA = try await client.call(.get, "/v1/wallet", token: online)
            let walletB = try await client.call(.get, "/v1/wallet", token: offline)
            #expect(walletA.text == walletB.text)
        }
    }

    @Test func idempotencyKeysReplayTheFirstResponseAndRefuseADifferentBody() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("idem")
            _ = try await client.call(.post, "/v1/habits", token: token, json: #"{"habit": "walk", "name": "Walk"}"#)
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "k-1"]
            let first = try await client.call(
                .post, "/v1/habits/walk/check-ins", token: token, json: #"{"note": "one"}"#, headers: key)
            let again = try await client.call(
                .post, "/v1/habits/walk/check-ins", token: token, json: #"{"note": "one"}"#, headers: key)
            #expect(first.status == .ok)
            #expect(again.status == .ok)
            #expect(first.text == again.text)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let pulled = try await client.call(.get, "/v1/events", token: token)
            #expect((pulled.json["events"] as? [Any])?.count == 2)
            let conflict = try await client.call(
                .post, "/v1/habits/walk/check-ins", token: token, json: #"{"note": "two"}"#, headers: key)
            #expect(conflict.status == .conflict)
            #expect(conflict.errorCode == "idempotency_conflict")
        }
    }

    @Test func rewardsPurchasesAndTheStore() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("buyer", zone: "UTC", daysAgo: 13, client: client)
            let start = harness.now.addingTimeInterval(-12 * 86_400)
            var events = [habitCreated("walk", at: start)]
            for day in 0...12 {
                events.append(
                    completion(
                        "w\(day)", habit: "walk", at: start.addingTimeInterval(Double(day) * 86_400 + 60), zone: "UTC"))
            }
            _ = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            let wallet = try await client.call(.get, "/v1/wallet", token: token)
            let diamonds = try #require((wallet.json["wallet"] as? [String: Any])?["diamonds"] as? Int)
            #expect(diamonds > 0)
            let store = try await client.call(.get, "/v1/store", token: token)
            let items = try #require((store.json["catalog"] as? [String: Any])?["items"] as? [[String: Any]])
            #expect(!items.isEmpty)
            let price = try #require((store.json["catalog"] as? [String: Any])?["customPricePerFreeze"] as? Int)

            let bought = try await client.call(.post, "/v1/store/purchases", token: token, json: #"{"days": 1}"#)
            #expect(bought.status == .created, "\(bought.text)")
            let after = try #require(bought.json["wallet"] as? [String: Any])
            #expect(after["diamonds"] as? Int == diamonds - price)
            #expect(after["freezes"] as? Int == 1)

            let tooMany = try await client.call(.post, "/v1/store/purchases", token: token, json: #"{"days": 300}"#)
            #expect(tooMany.status == .conflict)
            #expect(tooMany.errorCode == "insufficient_diamonds")
            let nothing = try await client.call(.post, "/v1/store/purchases", token: token, json: "{}")
            #expect(nothing.status == .unprocessableContent)
            // A fraction where a whole number of days is wanted names the field (Foundation's
            // JSONDecoder called such a body unreadable JSON).
            let half = try await client.call(.post, "/v1/store/purchases", token: token, json: #"{"days": 1.5}"#)
            #expect(half.status == .unprocessableContent, "\(half.text)")
            #expect(half.errorCode == "invalid_input")
            #expect(half.text.contains("days: must be an integer"), "\(half.text)")
            let pushed = try await client.call(
                .post, "/v1/events", token: token,
                json:
                    #"{"events": [{"id": "p1", "type": "purchase", "at": "2026-01-02T10:00:00Z", "tz": "UTC", "days": 0.5}]}"#
            )
            #expect(pushed.status == .unprocessableContent, "\(pushed.text)")
            #expect(pushed.text.contains("events[0].days: must be an integer"), "\(pushed.text)")
            // The same number written as a fraction is still that number.
            let whole = try await client.call(.post, "/v1/store/purchases", token: token, json: #"{"days": 1.0}"#)
            #expect(whole.status == .created, "\(whole.text)")
            let offers = try await client.call(.get, "/v1/freeze-offers", token: token)
            #expect(offers.json["freezeOffers"] is [Any])
        }
    }
}
