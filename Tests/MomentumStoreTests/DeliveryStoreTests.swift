import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

private func note(_ key: String, day: Int = 1, hour: Int = 9, expiresDay: Int? = nil) -> PlannedNotification {
    PlannedNotification(
        key: key, kind: .milestone, title: "First check-in", body: "A start.", url: "/journey",
        day: LocalDay(year: 2026, month: 1, day: day)!, at: Fixtures.day(day, hour: hour),
        expires: Fixtures.day(expiresDay ?? day + 7))
}

private func browser(_ id: String, at: Date = Fixtures.day(1)) -> PushTarget {
    PushTarget(
        id: id, channel: .webPush, address: "https://push.example/\(id)", p256dh: "key-\(id)", auth: "auth-\(id)",
        createdAt: at)
}

/// The delivery queue and what it delivers to, the same on every backend: devices, webhooks
/// and their health, deliveries queued with the inbox entry, claimed once, finished, held.
@Suite(.serialized)
struct DeliveryStoreTests {
    @Test(arguments: Backend.allCases)
    func devicesAreKeptPerUserAndAnAddressMovesToTheAccountThatRegistersIt(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.createAccount(Fixtures.account("bob"), profile: Fixtures.profile())
            #expect(try await store.savePushTarget(browser("wp_1"), of: "ada"))
            // Again: the same target, its keys updated, not new.
            var renewed = browser("wp_1", at: Fixtures.day(2))
            renewed.p256dh = "key-renewed"
            #expect(try await !store.savePushTarget(renewed, of: "ada"))
            let targets = try await store.pushTargets(of: "ada")
            #expect(targets.map(\.id) == ["wp_1"])
            #expect(targets.first?.p256dh == "key-renewed")
            #expect(targets.first?.createdAt == Fixtures.day(1))
            // Bob signs in on the same browser: it is his now.
            #expect(try await store.savePushTarget(browser("wp_1"), of: "bob"))
            #expect(try await store.pushTargets(of: "ada").isEmpty)
            #expect(try await store.pushTargets(of: "bob").map(\.id) == ["wp_1"])
            #expect(try await store.removePushTarget("wp_1", of: "ada") == false)
            #expect(try await store.removePushTarget("wp_1", of: "bob"))
            #expect(try await store.pushTargets(of: "bob").isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func anInboxEntryIsQueuedForEveryDeviceAndWebhookClaimedOnceAndFinished(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            _ = try await store.savePushTarget(browser("wp_1"), of: "ada")
            let hook = Webhook(id: "wh_1", url: "https://hooks.example/in", secret: "s", createdAt: Fixtures.day(1))
            try await store.createWebhook(hook)
            try await store.createWebhook(
                Webhook(id: "wh_off", url: "https://hooks.example/off", secret: "s", createdAt: Fixtures.day(1)))
            #expect(try await store.setWebhookEnabled("wh_off", false, at: Fixtures.day(1)))
            let now = Fixtures.day(1, hour: 9)
            let stored = try await store.deliverNotifications([note("milestone:1")], to: "ada", at: now)
            #expect(stored.count == 1)
            // The same key again: neither stored nor queued again.
            #expect(try await store.deliverNotifications([note("milestone:1")], to: "ada", at: now).isEmpty)

            let claimed = try await store.claimDeliveries(now: now, lease: 60, limit: 10)
            #expect(Set(claimed.map(\.channel)) == [.webPush, .webhook])
            #expect(Set(claimed.map(\.targetID)) == ["wp_1", "wh_1"])
            let push = try #require(claimed.first { $0.channel == .webPush })
            #expect(push.pushTarget?.address == "https://push.example/wp_1")
            #expect(push.notification.title == "First check-in")
            #expect(push.attempts == 0)
            #expect(claimed.first { $0.channel == .webhook }?.webhook?.url == "https://hooks.example/in")
            // Claimed: nobody else gets them until the lease ends.
            #expect(try await store.claimDeliveries(now: now, lease: 60, limit: 10).isEmpty)
            #expect(try await store.claimDeliveries(now: now.addingTimeInterval(61), lease: 60, limit: 10).count == 2)

            let later = now.addingTimeInterval(120)
            let webhook = try #require(claimed.first { $0.channel == .webhook })
            try await store.finishDeliveries(
                [
                    DeliveryReport(push, .sent),
                    DeliveryReport(webhook, .retry(at: later.addingTimeInterval(30), error: "HTTP 500")),
                ], at: later, webhookFailureLimit: 2)
            var states = try await store.deliveries(of: "ada", key: "milestone:1")
            // Web Push, then webhooks.
            #expect(states.map(\.state) == ["sent", "pending"])
            #expect(states.last?.attempts == 1)
            #expect(states.last?.outcome == "HTTP 500")
            #expect(try await store.sentNotificationKeys(of: "ada", since: now) == ["milestone:1"])
            #expect(try await store.sentNotificationKeys(of: "ada", since: later.addingTimeInterval(1)).isEmpty)
            var hooks = try await store.webhooks()
            #expect(hooks.first { $0.id == "wh_1" }?.consecutiveFailures == 1)
            #expect(hooks.first { $0.id == "wh_1" }?.disabledAt == nil)

            // Not before its retry; then once more, and the second failure in a row disables it.
            #expect(try await store.claimDeliveries(now: later.addingTimeInterval(29), lease: 60, limit: 10).isEmpty)
            let retry = try #require(
                try await store.claimDeliveries(now: later.addingTimeInterval(30), lease: 60, limit: 10).first)
            #expect(retry.attempts == 1)
            try await store.finishDeliveries(
                [DeliveryReport(retry, .failed("HTTP 500 (after 2 attempts)"))], at: later.addingTimeInterval(30),
                webhookFailureLimit: 2)
            hooks = try await store.webhooks()
            let failing = try #require(hooks.first { $0.id == "wh_1" })
            #expect(failing.consecutiveFailures == 2)
            #expect(failing.disabledAt == later.addingTimeInterval(30))
            #expect(failing.lastError == "HTTP 500 (after 2 attempts)")
            states = try await store.deliveries(of: "ada", key: "milestone:1")
            #expect(states.map(\.state) == ["sent", "failed"])
            // A disabled webhook gets nothing new queued; enabled again, its failures are forgotten.
            _ = try await store.deliverNotifications([note("milestone:2")], to: "ada", at: later)
            #expect(try await store.deliveries(of: "ada", key: "milestone:2").map(\.channel) == [.webPush])
            #expect(try await store.setWebhookEnabled("wh_1", true, at: later))
            #expect(try await store.webhooks().first { $0.id == "wh_1" }?.consecutiveFailures == 0)
            #expect(try await store.setWebhookEnabled("wh_missing", true, at: later) == false)

            // Ended deliveries are forgotten after a while; pending ones never.
            #expect(try await store.pruneDeliveries(finishedBefore: later.addingTimeInterval(3600)) == 2)
            #expect(try await store.deliveries(of: "ada", key: "milestone:2").count == 1)
            #expect(try await store.removeWebhook("wh_1"))
            #expect(try await store.removeWebhook("wh_1") == false)
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeferredDeliveryWaitsWithoutAnAttemptAndADroppedOneEnds(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            _ = try await store.savePushTarget(browser("wp_1"), of: "ada")
            _ = try await store.savePushTarget(browser("wp_2"), of: "ada")
            let now = Fixtures.day(1, hour: 23)
            _ = try await store.deliverNotifications([note("milestone:1")], to: "ada", at: now)
            let claimed = try await store.claimDeliveries(now: now, lease: 60, limit: 1)
            #expect(claimed.count == 1)
            let rest = try await store.claimDeliveries(now: now, lease: 60, limit: 10)
            #expect(rest.count == 1)
            let morning = Fixtures.day(2, hour: 7)
            try await store.finishDeliveries(
                [
                    DeliveryReport(claimed[0], .deferred(until: morning)),
                    DeliveryReport(rest[0], .dropped("turned off in the user's preferences")),
                ], at: now, webhookFailureLimit: 5)
            #expect(try await store.claimDeliveries(now: morning.addingTimeInterval(-1), lease: 60, limit: 10).isEmpty)
            let due = try await store.claimDeliveries(now: morning, lease: 60, limit: 10)
            #expect(due.map(\.targetID) == [claimed[0].targetID])
            #expect(due.first?.attempts == 0)
            let states = try await store.deliveries(of: "ada", key: "milestone:1")
            #expect(states.first { $0.targetID == rest[0].targetID }?.outcome == "turned off in the user's preferences")
            // A device removed meanwhile: the delivery comes without its target.
            try await store.finishDeliveries(
                [DeliveryReport(due[0], .deferred(until: morning))], at: morning, webhookFailureLimit: 5)
            #expect(try await store.removePushTarget(due[0].targetID, of: "ada"))
            let orphan = try #require(try await store.claimDeliveries(now: morning, lease: 60, limit: 10).first)
            #expect(orphan.pushTarget == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func theFirstServerSettingStaysWhateverComesLater(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            let first = try await store.serverSetting("webpush.vapid.private-key", orInsert: "first")
            let second = try await store.serverSetting("webpush.vapid.private-key", orInsert: "second")
            #expect([first, second] == ["first", "first"])
        }
    }
}
