import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

private func event(_ id: String, _ type: WebhookEventType, user: String = "ada", at: Date) -> WebhookEvent {
    WebhookEvent(
        user: user, id: id, type: type, body: #"{"type":"\#(type.rawValue)","data":{"user":"\#(user)"}}"#,
        occurredAt: at)
}

/// Webhook events and secrets, the same on every backend: an event queued once per webhook
/// that takes its type, claimed once, finished with the webhook's health, and a secret
/// rotated with its overlap.
@Suite(.serialized)
struct WebhookEventConformanceTests {
    /// A message keeps its event's trace context, so that its post continues the trace of
    /// the request that caused it; an event noticed outside any trace keeps none.
    @Test(arguments: Backend.allCases)
    func aMessageKeepsTheTraceOfTheWorkThatQueuedIt(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.createWebhook(
                Webhook(
                    id: "wh_all", url: "https://hooks.example/a", secret: "whsec_c2VjcmV0", createdAt: Fixtures.day(1),
                    events: [.streakLost, .unlockCreated]))
            let now = Fixtures.day(2, hour: 9)
            let origin = try #require(
                TraceOrigin(
                    traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracestate: "vendor=abc"))
            var traced = event("msg_traced", .streakLost, at: now)
            traced.origin = origin
            let untraced = event("msg_plain", .unlockCreated, at: now)
            #expect(try await store.queueWebhookEvents([traced, untraced], at: now) == 2)
            let claimed = try await store.claimWebhookMessages(now: now, lease: 60, limit: 10)
            #expect(claimed.first { $0.id == "msg_traced" }?.origin == origin)
            #expect(claimed.count == 2 && claimed.first { $0.id == "msg_plain" }?.origin == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func anEventIsQueuedOnceForEachActiveWebhookThatTakesItsType(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            let day1 = Fixtures.day(1)
            try await store.createWebhook(
                Webhook(
                    id: "wh_streaks", url: "https://hooks.example/s", secret: "whsec_c2VjcmV0", createdAt: day1,
                    events: [.streakLost, .streakStarted]))
            try await store.createWebhook(
                Webhook(
                    id: "wh_unlocks", url: "https://hooks.example/u", secret: "whsec_c2VjcmV0", createdAt: day1,
                    events: [.unlockCreated]))
            try await store.createWebhook(
                Webhook(
                    id: "wh_off", url: "https://hooks.example/o", secret: "whsec_c2VjcmV0", createdAt: day1,
                    events: [.streakLost]))
            #expect(try await store.setWebhookEnabled("wh_off", false, at: day1))
            // Created later than the event: it does not receive it.
            try await store.createWebhook(
                Webhook(
                    id: "wh_late", url: "https://hooks.example/l", secret: "whsec_c2VjcmV0",
                    createdAt: Fixtures.day(3), events: [.streakLost]))
            #expect(try await store.webhookEventTypes() == [.streakLost, .streakStarted, .unlockCreated])
            let listed = try await store.webhooks()
            #expect(listed.first { $0.id == "wh_streaks" }?.events == [.streakLost, .streakStarted])
            #expect(listed.first { $0.id == "wh_streaks" }?.legacySecret == false)

            let now = Fixtures.day(2, hour: 9)
            let lost = event("msg_lost", .streakLost, at: Fixtures.day(2))
            #expect(try await store.queueWebhookEvents([lost], at: now) == 1)
            // Noticed again (another run, another instance): nothing new.
            #expect(try await store.queueWebhookEvents([lost], at: now) == 0)
            #expect(try await store.queueWebhookEvents([event("msg_flag", .reviewFlagRaised, at: now)], at: now) == 0)
            #expect(try await store.queueWebhookEvents([event("msg_unlock", .unlockCreated, at: now)], at: now) == 1)

            let claimed = try await store.claimWebhookMessages(now: now, lease: 60, limit: 10)
            #expect(
                Set(claimed.map { "\($0.id)>\($0.webhookID)" }) == ["msg_lost>wh_streaks", "msg_unlock>wh_unlocks"])
            #expect(claimed.first { $0.id == "msg_lost" }?.body == lost.body)
            #expect(claimed.first { $0.id == "msg_lost" }?.webhook?.url == "https://hooks.example/s")
            // Claimed: not again until the lease ends.
            #expect(try await store.claimWebhookMessages(now: now, lease: 60, limit: 10).isEmpty)
            let unlock = try #require(claimed.first { $0.id == "msg_unlock" })
            let lostMessage = try #require(claimed.first { $0.id == "msg_lost" })
            try await store.finishWebhookMessages(
                [
                    WebhookMessageReport(unlock, .sent),
                    WebhookMessageReport(lostMessage, .retry(at: now.addingTimeInterval(30), error: "HTTP 500")),
                ], at: now, webhookFailureLimit: 1)
            let health = try await store.webhooks()
            #expect(health.first { $0.id == "wh_unlocks" }?.lastSuccessAt == now)
            // One failure, a limit of one: disabled.
            #expect(health.first { $0.id == "wh_streaks" }?.disabledAt == now)
            #expect(health.first { $0.id == "wh_streaks" }?.lastError == "HTTP 500")
            let states = try await store.webhookMessages(of: "ada")
            #expect(states.map(\.state).sorted() == ["pending", "sent"])
            #expect(states.first { $0.id == "msg_lost" }?.attempts == 1)
            #expect(try await store.claimWebhookMessages(now: now.addingTimeInterval(29), lease: 60, limit: 10).isEmpty)
            #expect(
                try await store.claimWebhookMessages(now: now.addingTimeInterval(30), lease: 60, limit: 10).count == 1)

            #expect(try await store.pruneWebhookMessages(finishedBefore: now.addingTimeInterval(1)) == 1)
            // A webhook removed takes its messages with it.
            #expect(try await store.removeWebhook("wh_streaks"))
            #expect(try await store.webhookMessages(of: "ada").isEmpty)
            #expect(try await store.webhookEventTypes() == [.streakLost, .unlockCreated])
        }
    }

    @Test(arguments: Backend.allCases)
    func aRotatedSecretKeepsThePreviousOneUntilItsOverlapEnds(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            let day1 = Fixtures.day(1)
            // A webhook from before Standard Webhooks: its secret is a legacy one.
            try await store.createWebhook(
                Webhook(
                    id: "wh_old", url: "https://hooks.example/o", secret: "whsec_old-url-safe", createdAt: day1,
                    legacySecret: true))
            #expect(try await store.webhooks().first?.legacySecret == true)
            #expect(
                try await store.rotateWebhookSecret(
                    "wh_old", to: "whsec_bmV3", previous: "whsec_old-url-safe", previousIsLegacy: true,
                    previousUntil: Fixtures.day(2)))
            let rotated = try #require(try await store.webhooks().first)
            #expect(rotated.secret == "whsec_bmV3")
            #expect(rotated.legacySecret == false)
            #expect(rotated.previousSecret == "whsec_old-url-safe")
            #expect(rotated.previousSecretIsLegacy)
            #expect(rotated.previousSecretExpiresAt == Fixtures.day(2))
            #expect(
                try await !store.rotateWebhookSecret(
                    "wh_none", to: "whsec_bmV3", previous: "x", previousIsLegacy: false, previousUntil: day1))
        }
    }

    @Test(arguments: Backend.allCases)
    func upgradingKeepsAnExistingWebhooksSecretAsALegacyOne(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend, migrate: false) { store in
            // Given a webhook made before version 11, its secret keyed by its UTF-8 bytes, …
            try await store.migrate(upTo: 10)
            _ = try await store.run(
                StoreProgram(writes: true) { () throws(StoreError) in
                    .execute([
                        SQLStatement(
                            """
                            INSERT INTO webhooks (webhook_id, url, secret, kinds, created_at, consecutive_failures)
                            VALUES (?, ?, ?, NULL, ?, 0)
                            """,
                            [.text("wh_1"), .text("https://hooks.example.com/in"), .text("whsec_a-b_c"), .real(0)])
                    ]) { _ in .done(true) }
                })
            // … the upgrade keeps the secret as it was, marked legacy, with no events.
            try await store.migrate()
            let webhook = try #require(try await store.webhooks().first { $0.id == "wh_1" })
            #expect(webhook.secret == "whsec_a-b_c")
            #expect(webhook.legacySecret)
            #expect(webhook.events.isEmpty)
            #expect(webhook.kinds == nil)
        }
    }
}
