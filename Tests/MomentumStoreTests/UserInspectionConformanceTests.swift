import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

/// What the console reads of one user, on every backend.
@Suite(.serialized)
struct UserInspectionConformanceTests {
    @Test(arguments: Backend.allCases)
    func aUsersRecentDeliveriesNameTheirKindChannelAndStateNewestFirst(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.createAccount(Fixtures.account("bob"), profile: Fixtures.profile())
            for user in ["ada", "bob"] {
                _ = try await store.savePushTarget(
                    PushTarget(
                        id: "wp_\(user)", channel: .webPush, address: "https://push.example/\(user)", p256dh: "k",
                        auth: "a", createdAt: Fixtures.day(1)), of: user)
            }
            for day in 1...3 {
                _ = try await store.deliverNotifications(
                    [
                        PlannedNotification(
                            key: "milestone:\(day)", kind: .milestone, title: "First check-in", body: "A start.",
                            url: "/journey", day: LocalDay(year: 2026, month: 1, day: day)!,
                            at: Fixtures.day(day, hour: 9), expires: Fixtures.day(day + 7))
                    ], to: "ada", at: Fixtures.day(day, hour: 9))
            }
            _ = try await store.deliverNotifications(
                [
                    PlannedNotification(
                        key: "milestone:9", kind: .milestone, title: "Bob's", body: "Not Ada's.", url: "/journey",
                        day: LocalDay(year: 2026, month: 1, day: 2)!, at: Fixtures.day(2, hour: 9),
                        expires: Fixtures.day(9))
                ], to: "bob", at: Fixtures.day(2, hour: 9))
            let recent = try await store.recentDeliveries(of: "ada", limit: 2)
            #expect(recent.map(\.notification) == ["milestone:3", "milestone:2"])
            #expect(recent.allSatisfy { $0.kind == "milestone" && $0.channel == "webPush" && $0.state == "pending" })
            #expect(recent.first?.createdAt == Fixtures.day(3, hour: 9))
            #expect(try await store.recentDeliveries(of: "nobody", limit: 10).isEmpty)
        }
    }
}
