import Foundation
import MomentumCore
import MomentumStore
import Testing

/// What-if runs and the pages of users they walk, on every backend.
@Suite(.serialized)
struct WhatIfRunsConformanceTests {
    static func run(_ id: String, version: String = "1.1.0") -> WhatIfRun {
        WhatIfRun(
            id: id, pack: "habits", version: version, sample: #"{"all":true}"#, total: 3,
            leaseUntil: Fixtures.day(1, hour: 13), startedBy: "op_1", startedAt: Fixtures.day(1))
    }

    @Test(arguments: Backend.allCases)
    func oneRunPerVersionRunsAndProgressStopsOnceCancelled(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            let (first, started) = try await store.startWhatIfRun(Self.run("w1"))
            #expect(started && first == Self.run("w1"))
            // A second start of the same version answers the running one.
            let (again, startedAgain) = try await store.startWhatIfRun(Self.run("w2"))
            #expect(!startedAgain && again.id == "w1")
            #expect(try await store.whatIfRun(id: "w2") == nil)
            // Another version runs beside it.
            #expect(try await store.startWhatIfRun(Self.run("w3", version: "2.0.0")).started)
            #expect(
                try await store.recordWhatIfProgress(
                    id: "w1", done: 2, total: 3, cursor: "u_b", report: #"{"users":2}"#,
                    leaseUntil: Fixtures.day(1, hour: 14)))
            var stored = try #require(try await store.whatIfRun(id: "w1"))
            #expect(stored.done == 2 && stored.cursor == "u_b" && stored.report == #"{"users":2}"#)
            #expect(stored.leaseUntil == Fixtures.day(1, hour: 14))
            let cancelled = try #require(try await store.cancelWhatIfRun(id: "w1", at: Fixtures.day(2)))
            #expect(cancelled.status == .cancelled && cancelled.finishedAt == Fixtures.day(2))
            // Progress after the cancellation is refused: the runner stops.
            #expect(
                !(try await store.recordWhatIfProgress(
                    id: "w1", done: 3, total: 3, cursor: "u_c", report: nil, leaseUntil: Fixtures.day(3))))
            #expect(!(try await store.finishWhatIfRun(id: "w1", status: .done, report: "{}", at: Fixtures.day(3))))
            stored = try #require(try await store.whatIfRun(id: "w1"))
            #expect(stored.status == .cancelled && stored.done == 2 && stored.report == #"{"users":2}"#)
            // Once it stopped, the version may run again.
            var later = Self.run("w4")
            later.startedAt = Fixtures.day(2)
            #expect(try await store.startWhatIfRun(later).started)
            #expect(try await store.finishWhatIfRun(id: "w4", status: .done, report: "{}", at: Fixtures.day(3)))
            #expect(try await store.whatIfRun(id: "w4")?.status == .done)
            #expect(try await store.whatIfRuns(pack: "habits", version: "1.1.0", limit: 10).map(\.id) == ["w4", "w1"])
            #expect(try await store.cancelWhatIfRun(id: "nope", at: Fixtures.day(3)) == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func aRunWhoseLeaseRanOutIsClaimedByOneInstance(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            _ = try await store.startWhatIfRun(Self.run("w1"))
            // Still leased: nobody takes it.
            #expect(try await store.claimStaleWhatIfRun(now: Fixtures.day(1), leaseUntil: Fixtures.day(2)) == nil)
            let claims = try await withThrowingTaskGroup(of: WhatIfRun?.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await store.claimStaleWhatIfRun(now: Fixtures.day(2), leaseUntil: Fixtures.day(3))
                    }
                }
                return try await group.reduce(into: [WhatIfRun]()) { if let run = $1 { $0.append(run) } }
            }
            #expect(claims.map(\.id) == ["w1"])
            #expect(claims.first?.leaseUntil == Fixtures.day(3))
            _ = try await store.finishWhatIfRun(id: "w1", status: .failed, report: nil, at: Fixtures.day(4))
            #expect(try await store.claimStaleWhatIfRun(now: Fixtures.day(9), leaseUntil: Fixtures.day(10)) == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func usersArePagedInIdOrderWithTheirPacks(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            for (id, pack) in [("u_c", "habits"), ("u_a", "habits+ollie"), ("u_b", "savings")] {
                try await store.createAccount(Fixtures.account(id), profile: Fixtures.profile(pack: pack))
            }
            let first = try await store.packUsers(after: nil, limit: 2)
            #expect(first == [PackUser(user: "u_a", pack: "habits+ollie"), PackUser(user: "u_b", pack: "savings")])
            #expect(try await store.packUsers(after: "u_b", limit: 2) == [PackUser(user: "u_c", pack: "habits")])
            #expect(try await store.packUsers(after: "u_c", limit: 2).isEmpty)
            #expect(try await store.packUsers(["u_c", "u_x", "u_a"]).map(\.user) == ["u_a", "u_c"])
        }
    }
}
