import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumPostgres
import MomentumStore
import MomentumTestSupport
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The webhooks' health and deliveries, one delivery sent again, a webhook disabled and
/// enabled, and the notifications' counts, through the admin API and the console, on both
/// backends: a loopback receiver that fails, then succeeds.
@Suite(.serialized) struct ConsoleDeliveryTests {
    static let admin = ServerHarness.ownerHeaders

    /// An API session for an operator of `role` (as the harness's owner has).
    static func apiHeaders(_ role: OperatorRole, harness: ServerHarness) async throws -> HTTPFields {
        let actor = try await ConsoleSession.add(role, harness: harness)
        let token = "mop_\(role.rawValue)-\(Tokens.id("").prefix(8))"
        try await harness.state.store.createOperatorSession(
            OperatorSessionRecord(
                tokenHash: Tokens.hash(token), operatorID: actor.id, kind: "api", csrf: "test-csrf",
                createdAt: harness.now, expiresAt: harness.now.addingTimeInterval(365 * 86_400),
                lastSeenAt: harness.now))
        return [.authorization: "Bearer \(token)"]
    }

    /// A user who checked in once: `streak.started` and `unlock.created` for a webhook that
    /// takes them.
    static func checkIn(_ client: any TestClientProtocol, token: String) async throws {
        let habit = try await client.call(
            .post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read", "policy": "strict"}"#)
        #expect(habit.status == .created, "\(habit.text)")
        #expect(try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: "{}").status == .ok)
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func healthLatencyAndOneDeliverySentAgain(_ backend: ServerHarness.Backend) async throws {
        let receiver = try await LoopbackReceiver.start(.plain) { _ in (500, "down") }
        defer { Task { await receiver.stop() } }
        try await ServerHarness.with(
            backend: backend,
            configure: {
                $0.webhookAllowedNetworks = ["127.0.0.0/8", "::1"]
                // Every failure is final: the delivery waits for an operator.
                $0.deliveryAttempts = 1
            }
        ) { harness, client in
            let token = try await client.register("ada")
            let created = try await client.call(
                .post, "/v1/admin/webhooks",
                json: #"{"url": "\#(receiver.base)/events", "events": ["streak.started", "unlock.created"]}"#,
                headers: Self.admin)
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.json["id"] as? String)
            try await Self.checkIn(client, token: token)
            // Given a receiver that fails: both messages fail for good.
            _ = try await harness.state.runDueDeliveries()
            #expect(receiver.requests.count == 2)
            var listed = try await client.call(.get, "/v1/admin/webhooks", headers: Self.admin)
            #expect(listed.status == .ok, "\(listed.text)")
            var hook = try #require((listed.json["webhooks"] as? [[String: Any]])?.first)
            var health = try #require(hook["health"] as? [String: Any])
            #expect(health["failed"] as? Int == 2)
            #expect(health["sent"] as? Int == 0)
            #expect(health["deliveries"] as? Int == 2)
            #expect(health["successRate"] as? Double == 0)
            #expect(health["windowHours"] as? Int == 24)
            #expect(hook["consecutiveFailures"] as? Int == 2)
            #expect(hook["lastError"] as? String == "HTTP 500 (after 1 attempts)")

            let deliveries = try await client.call(.get, "/v1/admin/webhooks/\(id)/deliveries", headers: Self.admin)
            #expect(deliveries.status == .ok, "\(deliveries.text)")
            let rows = try #require(deliveries.json["deliveries"] as? [[String: Any]])
            #expect(rows.count == 2)
            for row in rows {
                #expect(row["state"] as? String == "failed")
                #expect(row["httpStatus"] as? Int == 500)
                #expect(row["attempts"] as? Int == 1)
                #expect(row["queue"] as? String == "event")
                // The latency of the attempt is recorded.
                #expect((row["latencyMs"] as? Int).map { $0 >= 0 } == true, "\(row)")
            }
            let unlock = try #require(rows.first { $0["type"] as? String == "unlock.created" })
            let delivery = try #require(unlock["id"] as? String)

            // When the receiver is back and the operator sends one again, it is sent.
            receiver.answer { _ in (200, "") }
            let retried = try await client.call(.post, "/v1/admin/deliveries/\(delivery)/retry", headers: Self.admin)
            #expect(retried.status == .ok, "\(retried.text)")
            #expect(retried.json["webhookId"] as? String == id)
            #expect(try await harness.state.runDueDeliveries().sent == 1)
            #expect(receiver.requests.count == 3)
            #expect(WebhookEventTests.type(receiver.requests[2]) == "unlock.created")

            listed = try await client.call(.get, "/v1/admin/webhooks", headers: Self.admin)
            hook = try #require((listed.json["webhooks"] as? [[String: Any]])?.first)
            health = try #require(hook["health"] as? [String: Any])
            #expect(health["sent"] as? Int == 1)
            #expect(health["failed"] as? Int == 1)
            #expect(health["successRate"] as? Double == 0.5)
            #expect(health["averageLatencyMs"] as? Int != nil)
            #expect(hook["consecutiveFailures"] as? Int == 0)
            #expect(hook["lastSuccessAt"] as? String != nil)

            // Refusals: an id that names no delivery, a limit out of bounds, no webhook.
            #expect(
                try await client.call(.post, "/v1/admin/deliveries/d_bm9wZQ/retry", headers: Self.admin).status
                    == .notFound)
            #expect(
                try await client.call(.post, "/v1/admin/deliveries/nonsense/retry", headers: Self.admin).status
                    == .notFound)
            #expect(
                try await client.call(.get, "/v1/admin/webhooks/\(id)/deliveries?limit=0", headers: Self.admin).status
                    == .unprocessableContent)
            #expect(
                try await client.call(.get, "/v1/admin/webhooks/wh_none/deliveries", headers: Self.admin).status
                    == .notFound)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aDisabledWebhookGetsNothingAndRolesAreChecked(_ backend: ServerHarness.Backend) async throws {
        let receiver = try await LoopbackReceiver.start(.plain)
        defer { Task { await receiver.stop() } }
        try await ServerHarness.with(
            backend: backend, configure: { $0.webhookAllowedNetworks = ["127.0.0.0/8", "::1"] }
        ) { harness, client in
            let token = try await client.register("ada")
            let created = try await client.call(
                .post, "/v1/admin/webhooks",
                json: #"{"url": "\#(receiver.base)/events", "events": ["streak.started", "unlock.created"]}"#,
                headers: Self.admin)
            let id = try #require(created.json["id"] as? String)
            let viewer = try await Self.apiHeaders(.viewer, harness: harness)
            let support = try await Self.apiHeaders(.support, harness: harness)
            // A viewer reads but changes nothing; support retries but does not disable.
            #expect(try await client.call(.get, "/v1/admin/webhooks", headers: viewer).status == .ok)
            #expect(try await client.call(.get, "/v1/admin/notifications/summary", headers: viewer).status == .ok)
            for path in ["disable", "enable", "rotate-secret"] {
                #expect(
                    try await client.call(.post, "/v1/admin/webhooks/\(id)/\(path)", headers: viewer).status
                        == .forbidden, "\(path)")
            }
            #expect(
                try await client.call(.post, "/v1/admin/webhooks/\(id)/disable", headers: support).status
                    == .forbidden)
            #expect(
                try await client.call(.post, "/v1/admin/deliveries/d_bm9wZQ/retry", headers: viewer).status
                    == .forbidden)
            #expect(
                try await client.call(.post, "/v1/admin/deliveries/d_bm9wZQ/retry", headers: support).status
                    == .notFound)

            let disabled = try await client.call(.post, "/v1/admin/webhooks/\(id)/disable", headers: Self.admin)
            #expect(disabled.json["status"] as? String == "disabled")
            try await Self.checkIn(client, token: token)
            _ = try await harness.state.runDueDeliveries()
            // Disabled: nothing was queued for it, nothing posted.
            #expect(receiver.requests.isEmpty)
            let none = try await client.call(.get, "/v1/admin/webhooks/\(id)/deliveries", headers: Self.admin)
            #expect((none.json["deliveries"] as? [Any])?.isEmpty == true, "\(none.text)")
            let enabled = try await client.call(.post, "/v1/admin/webhooks/\(id)/enable", headers: Self.admin)
            #expect(enabled.json["status"] as? String == "active")
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func theSummaryCountsWhatWasScheduledSentAndDroppedAndWhy(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            _ = try await client.register("ada")
            let user = try #require(try await harness.state.store.account(email: "ada@example.com")).id
            // A webhook that takes reminders only: a nudge queued for it is dropped.
            try await harness.state.store.createWebhook(
                Webhook(
                    id: "wh_reminders", url: "https://hooks.example/r", secret: "whsec_c2VjcmV0",
                    kinds: [.reminder], createdAt: harness.now))
            for key in ["nudge:1", "nudge:2"] {
                _ = try await harness.state.services.notifications.social(
                    kind: .nudge, key: key, to: user, url: "/today", words: { _ in ("Nudge", "Go on") })
            }
            _ = try await harness.state.runDueDeliveries()
            let summary = try await client.call(.get, "/v1/admin/notifications/summary?hours=24", headers: Self.admin)
            #expect(summary.status == .ok, "\(summary.text)")
            let totals = try #require(summary.json["totals"] as? [[String: Any]])
            func total(_ outcome: String) -> Int? {
                totals.first { $0["outcome"] as? String == outcome }?["count"] as? Int
            }
            // Two in the inbox (sent there), two queued for the webhook, both dropped.
            #expect(total("sent") == 2)
            #expect(total("scheduled") == 2)
            #expect(total("dropped") == 2)
            let drops = try #require(summary.json["drops"] as? [[String: Any]])
            #expect(drops.count == 1)
            #expect(drops.first?["reason"] as? String == "not_subscribed")
            #expect(drops.first?["channel"] as? String == "webhook")
            #expect(drops.first?["kind"] as? String == "nudge")
            #expect(summary.json["hours"] as? Int == 24)
            for bad in ["0", "169", "x"] {
                #expect(
                    try await client.call(.get, "/v1/admin/notifications/summary?hours=\(bad)", headers: Self.admin)
                        .status == .unprocessableContent, "\(bad)")
            }
        }
    }

    /// The identity providers' keys as the console shows them: none before a fetch, then
    /// how many and when, and a failed fetch with its reason (the kept keys still count).
    @Test func theKeySetStatusSaysWhatIsCachedAndTheLastFailure() async throws {
        try await IdentityKeySetsTests.withKeySets { keySets, provider, server, clock async throws in
            #expect(await keySets.status().isEmpty)
            _ = try await keySets.key("rsa-1", of: provider)
            let fetched = try #require(await keySets.status().first)
            #expect(fetched.provider == "test")
            #expect(fetched.keys > 0)
            #expect(fetched.fetchedAt == clock.now.withLock { $0 })
            #expect(fetched.lastFailure == nil)
            server.answer(.huge)
            clock.advance(61)
            _ = try? await keySets.key("unknown-kid", of: provider)
            let failed = try #require(await keySets.status().first)
            #expect(failed.keys == fetched.keys)
            #expect(failed.lastFailureAt == clock.now.withLock { $0 })
            #expect(failed.lastFailure?.isEmpty == false)
        }
    }

    /// Every reason the sender records maps to its code.
    @Test func eachRecordedDropReasonHasItsCode() {
        let cases: [(String, NotificationDropReason)] = [
            ("turned off in the user's preferences", .preferences),
            ("the daily cap of 3 was reached", .dailyCap),
            ("expired during quiet hours", .quietHours),
            ("expired before it could be sent", .expired),
            ("gone: 410", .noTarget), ("the device was removed", .noTarget), ("the webhook was removed", .noTarget),
            ("the webhook is disabled", .webhookDisabled),
            ("the webhook does not take nudge", .notSubscribed),
            ("this server does not send apns", .channelOff), ("the inbox is not a delivery channel", .channelOff),
            ("something new", .other),
        ]
        for (text, code) in cases { #expect(NotificationDropReason(recorded: text) == code, "\(text)") }
    }

    /// Two instances on one PostgreSQL: each counts what it did, and both show the sum.
    @Test func everyInstanceShowsTheSameCounts() async throws {
        try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_counts") { url in
            let stores = try (0..<2).map { _ in try PostgresStore(url: url) }
            try await stores[0].migrate()
            let harnesses = stores.map { ServerHarness(store: $0) }
            try await harnesses[0].state.store.createAccount(
                Account(id: "ada", email: "ada@example.com", passwordHash: "x", createdAt: harnesses[0].now),
                profile: Profile(displayName: "Ada", timeZone: "Europe/Berlin", updatedAt: harnesses[0].now))
            try await harnesses[0].state.store.createWebhook(
                Webhook(
                    id: "wh_reminders", url: "https://hooks.example/r", secret: "whsec_c2VjcmV0",
                    kinds: [.reminder], createdAt: harnesses[0].now))
            for (index, harness) in harnesses.enumerated() {
                _ = try await harness.state.services.notifications.social(
                    kind: .nudge, key: "nudge:\(index)", to: "ada", url: "/today",
                    words: { _ in ("Nudge", "Go on") })
            }
            // Each instance's sender runs (the first drops both deliveries).
            for harness in harnesses { _ = try await harness.state.runDueDeliveries() }
            let summaries = try await harnesses.asyncMap {
                try await $0.state.services.notificationSummaries.summary(hours: 24)
            }
            #expect(summaries[0] == summaries[1])
            #expect(summaries[0].outcomeTotals == ["sent": 2, "scheduled": 2, "dropped": 2])
            #expect(summaries[0].drops.map(\.reason) == ["not_subscribed"])
            for store in stores { await store.close() }
        }
    }
}

extension Array where Element: Sendable {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
