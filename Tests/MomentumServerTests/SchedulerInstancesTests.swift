import Foundation
import Logging
import MomentumCore
import MomentumPostgres
import MomentumServer
import MomentumServices
import MomentumStore
import MomentumTestSupport
import Synchronization
import Testing

/// The notification scheduler and the sender on several instances sharing one real
/// PostgreSQL database: every user due at the same minute gets their notification exactly
/// once, in the inbox and at a webhook on loopback, and the users and deliveries an instance
/// claimed before it died are taken by the others once its lease ends.
@Suite(.serialized) struct SchedulerInstancesTests {
    /// How many users are due in the same minute (MOMENTUM_SCHEDULER_USERS; 600 by default:
    /// the 200 a dead instance claims, and four batches of 100 for the three live ones).
    static let users = ProcessInfo.processInfo.environment["MOMENTUM_SCHEDULER_USERS"].flatMap(Int.init) ?? 600

    @Test func threeInstancesDeliverEachNotificationOnceAndADeadOnesClaimsAreNotLost() async throws {
        try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_scheduler") { url in
            // Day D = 2026-07-14: every user's "Read" is due, with its reminder at 09:00 UTC.
            let midnight = Date(timeIntervalSince1970: 1_783_987_200)  // 2026-07-14T00:00:00Z
            let clock = Mutex(midnight.addingTimeInterval(9 * 3600 + 30))
            let setup = try PostgresStore(url: url)
            try await setup.migrate()
            let users = (0..<Self.users).map { String(format: "u_sched_%05d", $0) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for slice in stride(from: 0, to: users.count, by: users.count / 4 + 1) {
                    let part = users[slice..<min(users.count, slice + users.count / 4 + 1)]
                    group.addTask {
                        for user in part {
                            try await setup.createAccount(
                                Account(
                                    id: user, email: "\(user)@example.com", passwordHash: "$2b$04$x",
                                    createdAt: midnight.addingTimeInterval(-86_400)),
                                profile: Profile(
                                    displayName: "U", timeZone: "UTC", pack: "habits",
                                    notifications: NotificationPreferences(reminderHour: 9, streakAtRisk: false),
                                    updatedAt: midnight))
                            _ = try await setup.append(
                                [
                                    Event(
                                        id: "create-\(user)", at: midnight.addingTimeInterval(-86_400), timeZone: "UTC",
                                        payload: .habitCreated(HabitDefinition(id: "read", name: "Read")))
                                ], for: user, receivedAt: midnight, device: nil)
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await setup.touchNotifications(of: users, at: midnight)
            // The app developer's webhook receives every notification.
            let receiver = try await LoopbackReceiver.start(.plain, answer: { _ in (200, "") })
            try await setup.createWebhook(
                Webhook(id: "wh_all", url: receiver.base + "/in", secret: "s", createdAt: midnight))

            // An instance claims 200 users and dies before it delivers anything.
            let dead = try await setup.claimNotificationRuns(
                now: clock.withLock { $0 }, lease: 120, limit: 200)
            #expect(dead.count == 200)

            // Three live instances, each with its own connection pool, run at once.
            var configuration = ServerConfiguration()
            configuration.bcryptCost = 4
            configuration.notificationBatch = 100
            configuration.notificationLease = 120
            configuration.clock = { clock.withLock { $0 } }
            // The webhook's receiver is on loopback, which webhooks reach only when allowed.
            configuration.webhookAllowedNetworks = ["127.0.0.0/8", "::1"]
            var quiet = Logger(label: "momentum.scheduler-test")
            quiet.logLevel = .critical
            let stores = try (0..<3).map { _ in try PostgresStore(url: url) }
            let instances = stores.map { ServerState(store: $0, configuration: configuration, logger: quiet) }
            let passes = try await withThrowingTaskGroup(of: ServerState.NotificationPass.self) { group in
                for instance in instances { group.addTask { try await instance.runDueNotifications() } }
                var passes: [ServerState.NotificationPass] = []
                for try await pass in group { passes.append(pass) }
                return passes
            }
            #expect(passes.map(\.sent).reduce(0, +) == users.count - 200)
            #expect(passes.filter { $0.users > 0 }.count >= 2, "the instances shared the work: \(passes)")

            // The dead instance's users wait for its lease, then another instance takes them.
            #expect(try await instances[0].runDueNotifications().sent == 0)
            clock.withLock { $0 += 121 }
            let late = try await instances[1].runDueNotifications()
            #expect(late.sent == 200)
            #expect(try await instances[2].runDueNotifications().sent == 0)

            // Exactly one reminder per user, none twice.
            let counts = try await setup.run(
                StoreProgram(writes: false) { () throws(StoreError) in
                    .query([
                        SQLStatement(
                            "SELECT COUNT(*), COUNT(DISTINCT user_id) FROM notifications WHERE notification_key = ?",
                            [.text("reminder:2026-07-14:read")])
                    ]) { rows throws(StoreError) in
                        .done((rows[0][0][0].int64 ?? -1, rows[0][0][1].int64 ?? -1))
                    }
                })
            #expect(counts.0 == Int64(users.count) && counts.1 == Int64(users.count))

            // The sender: one instance claims 200 deliveries and dies; three others send the
            // rest at once; after the lease the dead one's go too. Each reaches the webhook
            // exactly once.
            let deadDeliveries = try await setup.claimDeliveries(now: clock.withLock { $0 }, lease: 60, limit: 200)
            #expect(deadDeliveries.count == 200)
            let sent = try await withThrowingTaskGroup(of: Int.self) { group in
                for instance in instances { group.addTask { try await instance.runDueDeliveries().sent } }
                var sent: [Int] = []
                for try await count in group { sent.append(count) }
                return sent
            }
            #expect(sent.reduce(0, +) == users.count - 200, "\(sent)")
            #expect(try await instances[0].runDueDeliveries().sent == 0)
            clock.withLock { $0 += 61 }
            #expect(try await instances[2].runDueDeliveries().sent == 200)
            let ids = receiver.requests.compactMap { $0.header("Momentum-Delivery") }
            #expect(ids.count == users.count && Set(ids).count == users.count, "\(ids.count) posts")
            await receiver.stop()
            for store in stores { await store.close() }
            await setup.close()
        }
    }
}
