import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

private func note(_ key: String, at: Date) -> PlannedNotification {
    PlannedNotification(
        key: key, kind: .milestone, title: "First check-in", body: "A start.", url: "/journey",
        day: LocalDay(year: 2026, month: 1, day: 1)!, at: at, expires: at.addingTimeInterval(7 * 86_400))
}

/// What the console reads of deliveries and notifications, the same on every backend: the
/// latency of each attempt, a webhook's traffic and last deliveries on both queues, one
/// delivery sent again, and notification counts every instance adds to.
@Suite(.serialized)
struct ConsoleReadsConformanceTests {
    @Test(arguments: Backend.allCases)
    func countsAddUpAcrossWritersAndOldHoursArePruned(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            let hour = Fixtures.day(2, hour: 9)
            let within = hour.addingTimeInterval(1_234)
            // Two instances add to the same hour, kind, channel, outcome and reason.
            try await store.addNotificationCounts([
                NotificationCount(hour: within, kind: "milestone", channel: "webPush", outcome: "sent", count: 2),
                NotificationCount(
                    hour: within, kind: "milestone", channel: "webPush", outcome: "dropped", reason: "daily_cap",
                    count: 1),
            ])
            try await store.addNotificationCounts([
                NotificationCount(hour: hour, kind: "milestone", channel: "webPush", outcome: "sent", count: 3),
                NotificationCount(
                    hour: Fixtures.day(1, hour: 9), kind: "reminder", channel: "inbox", outcome: "sent", count: 4),
            ])
            let counts = try await store.notificationCounts(since: hour)
            #expect(counts.count == 2)
            #expect(counts.first { $0.outcome == "sent" }?.count == 5)
            #expect(counts.first { $0.outcome == "sent" }?.hour == hour)
            #expect(counts.first { $0.outcome == "dropped" }?.reason == "daily_cap")
            #expect(try await store.notificationCounts(since: Fixtures.day(1, hour: 0)).count == 3)
            #expect(try await store.pruneNotificationCounts(before: hour) == 1)
            #expect(try await store.notificationCounts(since: Fixtures.day(1, hour: 0)).count == 2)
        }
    }

    @Test(arguments: Backend.allCases)
    func latencyTrafficAndLastDeliveriesCoverBothQueues(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.createWebhook(
                Webhook(
                    id: "wh_1", url: "https://hooks.example/in", secret: "whsec_c2VjcmV0",
                    createdAt: Fixtures.day(1, hour: 0), events: [.unlockCreated]))
            let now = Fixtures.day(1, hour: 9)
            _ = try await store.deliverNotifications(
                [note("milestone:1", at: now), note("milestone:2", at: now)], to: "ada", at: now)
            #expect(
                try await store.queueWebhookEvents(
                    [
                        WebhookEvent(
                            user: "ada", id: "msg_1", type: .unlockCreated, body: "{}",
                            occurredAt: now.addingTimeInterval(1))
                    ], at: now.addingTimeInterval(1)) == 1)
            let claimed = try await store.claimDeliveries(now: now.addingTimeInterval(2), lease: 60, limit: 10)
            #expect(claimed.count == 2)
            let first = try #require(claimed.first { $0.notification.key == "milestone:1" })
            let second = try #require(claimed.first { $0.notification.key == "milestone:2" })
            try await store.finishDeliveries(
                [
                    DeliveryReport(first, .sent, latencyMilliseconds: 120),
                    DeliveryReport(second, .failed("HTTP 503 (after 8 attempts)"), latencyMilliseconds: 40),
                ], at: now.addingTimeInterval(3), webhookFailureLimit: 20)
            let messages = try await store.claimWebhookMessages(now: now.addingTimeInterval(2), lease: 60, limit: 10)
            try await store.finishWebhookMessages(
                [WebhookMessageReport(try #require(messages.first), .sent, latencyMilliseconds: 80)],
                at: now.addingTimeInterval(4), webhookFailureLimit: 20)

            let traffic = try #require(try await store.webhookTraffic(since: now).first)
            #expect(traffic.webhookID == "wh_1")
            #expect(traffic.sent == 2)
            #expect(traffic.failed == 1)
            #expect(traffic.pending == 0)
            #expect(traffic.latencyTotal == 200)
            #expect(traffic.latencyCount == 2)
            // Nothing ended after the window's start.
            #expect(try await store.webhookTraffic(since: now.addingTimeInterval(60)).isEmpty)

            let listed = try await store.webhookDeliveries(of: "wh_1", limit: 10)
            #expect(listed.count == 3)
            // The newest first: the event message was queued last.
            #expect(listed.first?.id.queue == .event)
            #expect(listed.first?.type == "unlock.created")
            #expect(listed.first?.latencyMilliseconds == 80)
            let failed = try #require(listed.first { $0.id.key == "milestone:2" })
            #expect(failed.state == "failed")
            #expect(failed.latencyMilliseconds == 40)
            #expect(failed.httpStatus == 503)
            #expect(failed.type == "milestone")
            #expect(listed.first { $0.id.key == "milestone:1" }?.latencyMilliseconds == 120)
            #expect(try await store.webhookDeliveries(of: "wh_1", limit: 1).count == 1)
            #expect(try await store.webhookDeliveries(of: "wh_none", limit: 10).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeliveryIsSentAgainUnlessASenderHoldsIt(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.createWebhook(
                Webhook(id: "wh_1", url: "https://hooks.example/in", secret: "s", createdAt: Fixtures.day(1)))
            let now = Fixtures.day(1, hour: 9)
            _ = try await store.deliverNotifications([note("milestone:1", at: now)], to: "ada", at: now)
            let claimed = try await store.claimDeliveries(now: now, lease: 60, limit: 10)
            let id = WebhookDeliveryID(queue: .notification, user: "ada", key: "milestone:1", webhookID: "wh_1")
            // Claimed: a sender holds it.
            #expect(try await store.retryWebhookDelivery(id, at: now.addingTimeInterval(1)) == .inFlight)
            try await store.finishDeliveries(
                [DeliveryReport(try #require(claimed.first), .failed("HTTP 500"))], at: now.addingTimeInterval(2),
                webhookFailureLimit: 20)
            #expect(try await store.claimDeliveries(now: now.addingTimeInterval(5), lease: 60, limit: 10).isEmpty)
            #expect(try await store.retryWebhookDelivery(id, at: now.addingTimeInterval(5)) == .queued)
            let again = try await store.claimDeliveries(now: now.addingTimeInterval(5), lease: 60, limit: 10)
            #expect(again.map(\.notification.key) == ["milestone:1"])
            #expect(again.first?.attempts == 1)
            var unknown = id
            unknown.key = "milestone:9"
            #expect(try await store.retryWebhookDelivery(unknown, at: now) == .notFound)
            let message = WebhookDeliveryID(queue: .event, user: "ada", key: "msg_none", webhookID: "wh_1")
            #expect(try await store.retryWebhookDelivery(message, at: now) == .notFound)
        }
    }

    @Test func aDeliveryIDRoundTripsAndAnythingElseIsNone() {
        let id = WebhookDeliveryID(queue: .event, user: "u_1", key: "msg/+é", webhookID: "wh_1")
        #expect(WebhookDeliveryID(token: id.token) == id)
        #expect(id.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        for bad in [
            "", "x_abc", "d_", "d_!!!", "m_" + Data("only\ntwo".utf8).base64EncodedString(),
            "d_" + String(repeating: "A", count: 3000),
        ] {
            #expect(WebhookDeliveryID(token: bad) == nil, "\(bad.prefix(20))")
        }
    }
}
