import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

private func planned(
    _ key: String, kind: NotificationKind = .reminder, at day: Int, hour: Int = 9
)
    -> PlannedNotification
{
    PlannedNotification(
        key: key, kind: kind, title: "Time for Reading", body: "Keep it going.", url: "/habits/read",
        day: LocalDay(year: 2026, month: 1, day: day)!, habit: "read", at: Fixtures.day(day, hour: hour),
        expires: Fixtures.day(day + 1, hour: 0))
}

/// The notification scheduler's tables, the same on every backend: wakes, claims, the
/// inbox at most once per key.
@Suite(.serialized)
struct NotificationStoreTests {
    @Test(arguments: Backend.allCases)
    func aTouchedUserIsClaimedOnceItsRunStoresEachKeyOnceAndSetsTheNextWake(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.createAccount(Fixtures.account("bob"), profile: Fixtures.profile())
            #expect(try await store.claimNotificationRuns(now: Fixtures.day(1), lease: 60, limit: 10).isEmpty)
            // A touch for a user that does not exist is nothing.
            try await store.touchNotifications(of: ["ada", "ghost"], at: Fixtures.day(1))
            let claims = try await store.claimNotificationRuns(now: Fixtures.day(1, hour: 13), lease: 60, limit: 10)
            #expect(claims.map(\.user) == ["ada"])
            let claim = try #require(claims.first)
            #expect(claim.checkedUntil == Fixtures.day(1))
            // Claimed: not claimed again until the lease ends.
            #expect(try await store.claimNotificationRuns(now: Fixtures.day(1, hour: 13), lease: 60, limit: 10).isEmpty)

            let first = try await store.finishNotificationRun(
                claim, now: Fixtures.day(1, hour: 13), deliver: [planned("reminder:2026-01-01:read", at: 1)],
                nextWake: Fixtures.day(1, hour: 22))
            #expect(first.map(\.notification.key) == ["reminder:2026-01-01:read"])
            #expect(try await store.claimNotificationRuns(now: Fixtures.day(1, hour: 21), lease: 60, limit: 10).isEmpty)
            let again = try #require(
                try await store.claimNotificationRuns(now: Fixtures.day(1, hour: 22), lease: 60, limit: 10).first)
            #expect(again.checkedUntil == Fixtures.day(1, hour: 13))
            // The same key again is not stored twice; a new one is.
            let second = try await store.finishNotificationRun(
                again, now: Fixtures.day(1, hour: 22),
                deliver: [
                    planned("reminder:2026-01-01:read", at: 1),
                    planned("streak-at-risk:2026-01-01", kind: .streakAtRisk, at: 1, hour: 22),
                ], nextWake: nil)
            #expect(second.map(\.notification.key) == ["streak-at-risk:2026-01-01"])
            // No next wake: nothing is claimed until a touch.
            #expect(try await store.claimNotificationRuns(now: Fixtures.day(30), lease: 60, limit: 10).isEmpty)
            try await store.touchNotifications(of: ["ada"], at: Fixtures.day(2))
            #expect(
                try await store.claimNotificationRuns(now: Fixtures.day(2), lease: 60, limit: 10).map(\.user) == ["ada"]
            )

            let inbox = try await store.notifications(of: "ada", before: nil, limit: 10)
            #expect(inbox.map(\.notification.key) == ["streak-at-risk:2026-01-01", "reminder:2026-01-01:read"])
            #expect(inbox.last?.notification == planned("reminder:2026-01-01:read", at: 1))
            #expect(inbox.last?.createdAt == Fixtures.day(1, hour: 13))
            #expect(try await store.notifications(of: "bob", before: nil, limit: 10).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func aTouchDuringARunMakesTheNextRunComeAtOnceAndALeaseRunsOut(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.touchNotifications(of: ["ada"], at: Fixtures.day(1))
            let claim = try #require(
                try await store.claimNotificationRuns(now: Fixtures.day(1), lease: 60, limit: 10).first)
            // The habits change while the run plans: its planned wake must not hide that.
            try await store.touchNotifications(of: ["ada"], at: Fixtures.day(1))
            _ = try await store.finishNotificationRun(
                claim, now: Fixtures.day(1, hour: 12), deliver: [], nextWake: Fixtures.day(5))
            let next = try await store.claimNotificationRuns(now: Fixtures.day(1, hour: 12), lease: 60, limit: 10)
            #expect(next.map(\.user) == ["ada"])
            // A scheduler that dies holding a claim: after the lease another takes the user.
            #expect(try await store.claimNotificationRuns(now: Fixtures.day(1, hour: 12), lease: 60, limit: 10).isEmpty)
            let later = Fixtures.day(1, hour: 12).addingTimeInterval(61)
            #expect(try await store.claimNotificationRuns(now: later, lease: 60, limit: 10).map(\.user) == ["ada"])
        }
    }

    @Test(arguments: Backend.allCases)
    func theInboxPagesNewestFirstCountsUnreadAndMarksRead(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            for n in 1...5 {
                let stored = try await store.deliverNotifications(
                    [planned("milestone:u\(n)", kind: .milestone, at: n)], to: "ada", at: Fixtures.day(n, hour: 15))
                #expect(stored.count == 1)
            }
            #expect(
                try await store.deliverNotifications(
                    [planned("milestone:u1", kind: .milestone, at: 1)], to: "ada", at: Fixtures.day(9)
                ).isEmpty)
            let page = try await store.notifications(of: "ada", before: nil, limit: 2)
            #expect(page.map(\.notification.key) == ["milestone:u5", "milestone:u4"])
            let last = try #require(page.last)
            let next = try await store.notifications(
                of: "ada", before: (last.createdAt, last.notification.key), limit: 10)
            #expect(next.map(\.notification.key) == ["milestone:u3", "milestone:u2", "milestone:u1"])
            #expect(try await store.unreadNotificationCount(of: "ada") == 5)
            #expect(
                try await store.markNotificationsRead(of: "ada", keys: ["milestone:u5", "nope"], at: Fixtures.day(6))
                    == 1)
            #expect(try await store.unreadNotificationCount(of: "ada") == 4)
            #expect(try await store.notifications(of: "ada", before: nil, limit: 1).first?.readAt == Fixtures.day(6))
            #expect(try await store.markNotificationsRead(of: "ada", keys: nil, at: Fixtures.day(7)) == 4)
            #expect(try await store.unreadNotificationCount(of: "ada") == 0)
            // Deleting the account deletes its inbox and its wake.
            try await store.touchNotifications(of: ["ada"], at: Fixtures.day(1))
            _ = try await store.deleteAccount(id: "ada")
            #expect(try await store.notifications(of: "ada", before: nil, limit: 10).isEmpty)
            #expect(try await store.claimNotificationRuns(now: Fixtures.day(30), lease: 60, limit: 10).isEmpty)
        }
    }
}
