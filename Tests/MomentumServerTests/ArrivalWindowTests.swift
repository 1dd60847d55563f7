import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

/// The instants a client sends are bounded: never before the account existed, never
/// further back than the pack's offline window; bulk backdating is flagged for review and
/// the user's data kept.
@Suite struct ArrivalWindowTests {
    static let day: TimeInterval = 86_400

    @Test func backdatedCompletionsBeforeTheAccountMintNothing() async throws {
        try await ServerHarness.with { harness, client in
            // Given an account created today, with a habit created now
            let token = try await client.register("mint")
            let now = harness.now
            let created = try await client.call(
                .post, "/v1/events", token: token, json: eventsJSON([habitCreated("walk", at: now)]))
            #expect(created.status == .ok, "\(created.text)")
            // When a push carries 100 daily completions dated before the account existed
            let backdated = (1...100).map { completion("old-\($0)", habit: "walk", at: now - Double($0) * Self.day) }
            let push = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(backdated))
            #expect(push.status == .ok, "\(push.text)")
            // Then every one is refused with past_timestamp, and the wallet is untouched
            let results = try #require(push.json["results"] as? [[String: Any]])
            #expect(results.count == 100)
            #expect(results.allSatisfy { $0["status"] as? String == "invalid" })
            let codes = Set(results.compactMap { ($0["error"] as? [String: Any])?["code"] as? String })
            #expect(codes == ["past_timestamp"])
            let first = try #require(results.first?["error"] as? [String: Any])
            #expect((first["message"] as? String)?.contains("before this account was created") == true)
            #expect(first["field"] as? String == "at")
            let wallet = try #require(push.json["wallet"] as? [String: Any])
            #expect(wallet["diamonds"] as? Int == 0)
            #expect(wallet["freezes"] as? Int == 0)
            let pulled = try await client.call(.get, "/v1/events", token: token)
            #expect((pulled.json["events"] as? [Any])?.count == 1)
        }
    }

    @Test func anOfflineWeekSyncsButNotAnOfflineMonth() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("away", daysAgo: 60, client: client)
            // The habit was created 40 days ago, while the phone was online.
            harness.clock.value.withLock { $0 -= 40 * Self.day }
            let created = try await client.call(
                .post, "/v1/events", token: token, json: eventsJSON([habitCreated("walk", at: harness.now)]))
            #expect(created.status == .ok, "\(created.text)")
            harness.clock.value.withLock { $0 += 40 * Self.day }
            let now = harness.now
            // Completions 1 to 20 days old: the habits pack accepts 14 days offline.
            let events = (1...20).map { completion("c\($0)", habit: "walk", at: now - Double($0) * Self.day) }
            let push = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            let results = try #require(push.json["results"] as? [[String: Any]])
            let statuses = results.map { $0["status"] as? String ?? "" }
            #expect(statuses.prefix(14).allSatisfy { $0 == "applied" }, "\(statuses)")
            #expect(statuses.suffix(6).allSatisfy { $0 == "invalid" }, "\(statuses)")
            let message = (results.last?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("more than 14 days ago"), "\(message)")
            #expect((results.last?["error"] as? [String: Any])?["code"] as? String == "past_timestamp")
        }
    }

    @Test func aRetryOfAStoredEventIsADuplicateHoweverOld() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("retry", daysAgo: 30, client: client)
            let created = harness.now - 10 * Self.day
            let events = [habitCreated("walk", at: created), completion("c1", habit: "walk", at: created + 60)]
            let first = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            #expect(
                (first.json["results"] as? [[String: Any]])?.allSatisfy { $0["status"] as? String == "applied" } == true
            )
            // Twenty days later the phone, which never got the answer, sends them again.
            harness.clock.value.withLock { $0 += 20 * Self.day }
            let retry = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            let statuses = (retry.json["results"] as? [[String: Any]])?.map { $0["status"] as? String }
            #expect(statuses == ["duplicate", "duplicate"], "\(retry.text)")
        }
    }

    /// (The suspicion detector counts a user's backdated events per instance: behind a
    /// load balancer, spreading them over instances stays under its threshold; SCALING.md.)
    @Test(.enabled(if: ServerHarness.instances == 1, "the suspicion detector counts per instance"))
    func bulkBackdatingIsFlaggedAndKept() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("flag", daysAgo: 30, client: client)
            let now = harness.now
            // Twelve activities sent two to thirteen days after they happened: each is
            // allowed (an offline device), together they are bulk backdating.
            _ = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([habitCreated("walk", at: now - 13.5 * Self.day)]))
            let events = (2...13).map { completion("b\($0)", habit: "walk", at: now - Double($0) * Self.day) }
            let push = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            #expect(
                (push.json["results"] as? [[String: Any]])?.allSatisfy { $0["status"] as? String == "applied" } == true,
                "\(push.text)")
            let flags = try await client.call(
                .get, "/v1/admin/review-flags", headers: [.authorization: "Bearer mop_harness-owner"])
            let list = try #require(flags.json["flags"] as? [[String: Any]])
            let backfills = list.filter { $0["kind"] as? String == "backfills" }
            #expect(backfills.count == 1, "\(flags.text)")
            #expect((backfills.first?["detail"] as? String)?.hasPrefix("13 events for earlier days") == true)
            let pulled = try await client.call(.get, "/v1/events", token: token)
            #expect((pulled.json["events"] as? [Any])?.count == 13)
        }
    }

    @Test func aDisplayNameWithAControlCharacterIsRefused() async throws {
        try await ServerHarness.with { _, client in
            let response = try await client.call(
                .post, "/v1/accounts",
                json:
                    #"{"email": "bel@example.com", "password": "correct horse", "displayName": "Bel\u0007", "timeZone": "UTC", "deviceName": "phone"}"#
            )
            #expect(response.status == .unprocessableContent)
            #expect(response.errorFields == ["displayName"])
        }
    }

    @Test func anOperatorImportsHistoryFromBeforeTheAccount() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("mover")
            let now = harness.now
            let history =
                [habitCreated("walk", at: now - 40 * Self.day)]
                + (1...39).map { completion("h\($0)", habit: "walk", at: now - Double($0) * Self.day) }
            let body = #"{"email": "mover@example.com", "events": [\#(history.joined(separator: ","))]}"#
            // Only with the admin token (the scheme in any case); an unknown email is a 404.
            #expect(try await client.call(.post, "/v1/admin/imports", json: body).status == .unauthorized)
            #expect(
                try await client.call(.post, "/v1/admin/imports", token: token, json: body).status == .unauthorized)
            let unknown = try await client.call(
                .post, "/v1/admin/imports", json: #"{"email": "nobody@example.com", "events": []}"#,
                headers: [.authorization: "bearer mop_harness-owner"])
            #expect(unknown.status == .notFound)
            let imported = try await client.call(
                .post, "/v1/admin/imports", json: body, headers: [.authorization: "bearer mop_harness-owner"])
            #expect(imported.status == .ok, "\(imported.text)")
            let statuses = (imported.json["results"] as? [[String: Any]])?.map { $0["status"] as? String }
            #expect(statuses == Array(repeating: "applied", count: 40))
            // The engine's rules still hold for an import: a completion for a habit that
            // does not exist is refused.
            let bad = try await client.call(
                .post, "/v1/admin/imports",
                json: #"{"email": "mover@example.com", "events": [\#(completion("x", habit: "nope", at: now))]}"#,
                headers: [.authorization: "Bearer mop_harness-owner"])
            #expect((bad.json["results"] as? [[String: Any]])?.first?["status"] as? String == "invalid")
            let today = try await client.call(.get, "/v1/today", token: token)
            let habit = (today.json["habits"] as? [[String: Any]])?.first
            #expect(habit?["current"] as? Int == 39, "\(today.text.prefix(300))")
        }
    }

    @Test func aRequestsFarBackEventsShareOneEvaluationBudget() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("skipper", zone: "UTC")
            let now = harness.now
            // A habit started in 1970 (imported: a device may not start one before its
            // account): each rest day logged for 1970 re-evaluates ~20,000 days.
            let created = try await client.call(
                .post, "/v1/admin/imports",
                json:
                    #"{"email": "skipper@example.com", "events": [{"id": "h", "type": "habit.created", "at": "\#(RFC3339.format(now))", "tz": "UTC", "habit": "walk", "name": "Walk", "start": "1970-01-01"}]}"#,
                headers: [.authorization: "Bearer mop_harness-owner"])
            #expect((created.json["results"] as? [[String: Any]])?.first?["status"] as? String == "applied")
            let skips = (0..<500).map { n in
                let day = LocalDay(number: LocalDay(year: 1970, month: 1, day: 2)!.number + n)
                return
                    #"{"id": "s\#(n)", "type": "skip", "at": "\#(RFC3339.format(now))", "tz": "UTC", "habit": "walk", "day": "\#(day)"}"#
            }
            let push = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(skips))
            let results = try #require(push.json["results"] as? [[String: Any]])
            let applied = results.filter { $0["status"] as? String == "applied" }.count
            let refused = results.filter {
                ($0["error"] as? [String: Any])?["code"] as? String == "limit_exceeded"
            }
            // Within 8,000,000 habit-days: some hundreds applied, the rest refused, to be sent again.
            #expect(applied > 100 && applied < 500, "\(applied) applied")
            #expect(applied + refused.count == 500)
            let message = (refused.first?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("send this one in another request"), "\(message)")
            // The same request again: the stored ones are duplicates, and cost nothing.
            let again = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(skips))
            let duplicates = (again.json["results"] as? [[String: Any]] ?? []).filter {
                $0["status"] as? String == "duplicate"
            }
            #expect(duplicates.count == applied)
        }
    }
}
