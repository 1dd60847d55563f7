import Foundation
import MomentumCore
import MomentumStore
import Testing

/// Incident amnesties, their jobs' progress and leases, and the accounts they reach, on
/// every backend.
@Suite(.serialized)
struct AmnestyStoreConformanceTests {
    static func amnesty(_ id: String, declaredAt: Int = 3) -> AmnestyRecord {
        AmnestyRecord(
            id: id, start: Fixtures.day(2, hour: 2), end: Fixtures.day(2, hour: 9), reason: "Sync was down",
            declaredBy: "op_1", declaredAt: Fixtures.day(declaredAt), usersTotal: 2,
            leaseUntil: Fixtures.day(declaredAt, hour: 13))
    }

    @Test(arguments: Backend.allCases)
    func anAmnestyIsDeclaredOnceRunsToActiveAndIsLifted(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.declareAmnesty(Self.amnesty("am_1"))
            #expect(try await store.amnesty(id: "am_1") == Self.amnesty("am_1"))
            // The same id again is refused, and changes nothing.
            await #expect(throws: StoreError.self) {
                try await store.declareAmnesty(Self.amnesty("am_1", declaredAt: 4))
            }
            #expect(try await store.amnesty(id: "am_1")?.declaredAt == Fixtures.day(3))
            // Lifting waits until the declaration has run.
            let early = try await store.liftAmnesty(
                id: "am_1", by: "op_2", at: Fixtures.day(3, hour: 14), leaseUntil: Fixtures.day(3, hour: 15))
            #expect(early?.status == .declaring && early?.liftedBy == nil)
            #expect(
                try await store.recordAmnestyProgress(
                    id: "am_1", status: .declaring, done: 1, total: 2, cursor: "u_a",
                    leaseUntil: Fixtures.day(3, hour: 14)))
            var stored = try #require(try await store.amnesty(id: "am_1"))
            #expect(stored.usersDone == 1 && stored.cursor == "u_a" && stored.leaseUntil == Fixtures.day(3, hour: 14))
            // Progress for another phase is refused: the runner stops.
            #expect(
                !(try await store.recordAmnestyProgress(
                    id: "am_1", status: .lifting, done: 2, total: 2, cursor: "u_b", leaseUntil: Fixtures.day(4))))
            #expect(try await store.finishAmnestyJob(id: "am_1", status: .declaring))
            #expect(!(try await store.finishAmnestyJob(id: "am_1", status: .declaring)))
            stored = try #require(try await store.amnesty(id: "am_1"))
            #expect(stored.status == .active && stored.leaseUntil == nil)
            let lifting = try #require(
                try await store.liftAmnesty(
                    id: "am_1", by: "op_2", at: Fixtures.day(5), leaseUntil: Fixtures.day(5, hour: 13)))
            #expect(lifting.status == .lifting && lifting.liftedBy == "op_2" && lifting.liftedAt == Fixtures.day(5))
            #expect(lifting.usersDone == 0 && lifting.cursor == nil)
            #expect(try await store.finishAmnestyJob(id: "am_1", status: .lifting))
            #expect(try await store.amnesty(id: "am_1")?.status == .lifted)
            try await store.declareAmnesty(Self.amnesty("am_2", declaredAt: 6))
            #expect(try await store.amnesties(limit: 10).map(\.id) == ["am_2", "am_1"])
            #expect(
                try await store.liftAmnesty(id: "nope", by: "op_2", at: Fixtures.day(6), leaseUntil: Fixtures.day(7))
                    == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func aJobWhoseLeaseRanOutIsClaimedByOneInstance(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.declareAmnesty(Self.amnesty("am_1"))
            #expect(try await store.claimStaleAmnesty(now: Fixtures.day(3), leaseUntil: Fixtures.day(4)) == nil)
            let claims = try await withThrowingTaskGroup(of: AmnestyRecord?.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await store.claimStaleAmnesty(now: Fixtures.day(4), leaseUntil: Fixtures.day(5))
                    }
                }
                return try await group.reduce(into: [AmnestyRecord]()) { if let claim = $1 { $0.append(claim) } }
            }
            #expect(claims.map(\.id) == ["am_1"])
            #expect(claims.first?.leaseUntil == Fixtures.day(5))
            _ = try await store.finishAmnestyJob(id: "am_1", status: .declaring)
            #expect(try await store.claimStaleAmnesty(now: Fixtures.day(9), leaseUntil: Fixtures.day(10)) == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func theAccountsBeforeTheWindowsEndArePagedWithTheirZones(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("u_c"), profile: Fixtures.profile(zone: "Europe/Lisbon"))
            try await store.createAccount(Fixtures.account("u_a"), profile: Fixtures.profile(zone: "Asia/Tokyo"))
            var late = Fixtures.account("u_b")
            late.createdAt = Fixtures.day(5)
            try await store.createAccount(late, profile: Fixtures.profile())
            let before = Fixtures.day(3)
            #expect(try await store.amnestyUserCount(createdBefore: before) == 2)
            #expect(
                try await store.amnestyUsers(createdBefore: before, after: nil, limit: 1) == [
                    AmnestyUser(user: "u_a", timeZone: "Asia/Tokyo")
                ])
            #expect(
                try await store.amnestyUsers(createdBefore: before, after: "u_a", limit: 5) == [
                    AmnestyUser(user: "u_c", timeZone: "Europe/Lisbon")
                ])
            #expect(try await store.amnestyUsers(createdBefore: Fixtures.day(9), after: nil, limit: 5).count == 3)
        }
    }
}
