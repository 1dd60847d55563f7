import Foundation
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// Before a pack version becomes active, the rewards it would take are kept: one
/// `rewards.kept` event for each user who would lose one, none for the others.
@Suite(.serialized)
struct WhatIfKeepingTests {
    /// `habits` 1.1.0 without the 7-day streak rule and without diamond rewards.
    static var stingy: RulePack {
        var pack = WhatIfRunTests.withoutStreak7
        pack.rewards = []
        return pack
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func rewardsACandidateWouldTakeAreKeptOnceAndOnlyForThoseWhoEarnedThem(
        _ backend: ServerHarness.Backend
    ) async throws {
        try await WhatIfRunTests.withUsers(backend) { harness, _ in
            let store = harness.state.store
            let replays = WhatIfReplays(
                store: store, packs: WhatIfRunTests.Candidates(versions: ["habits 1.1.0": Self.stingy]),
                now: { harness.now }, logger: ServerHarness.quietLogger, ingest: harness.state.services.ingest,
                pageSize: 2)
            let before = try await store.evaluate("u_1") { engine, _ in RewardSnapshot(&engine, at: harness.now) }
            let streak7 = try #require(before.unlocks.values.first { $0.rule == "streak-7" })
            #expect(before.diamondsEarned > 0)

            try await replays.keepRewards(current: .habits, candidate: Self.stingy, by: WhatIfRunTests.operatorActor)

            for index in 1...5 {
                let latest = try await store.latestEvents(of: "u_\(index)", limit: 1)
                guard case .rewardsKept(let kept) = latest.first?.event.payload else {
                    Issue.record("u_\(index) has no rewards.kept event")
                    continue
                }
                #expect(kept.pack == "habits" && kept.version == "1.1.0")
                #expect(kept.unlocks.map(\.rule) == ["streak-7"])
                #expect(kept.diamondsEarned == before.diamondsEarned)
            }
            // Nothing to lose, or another pack: no event.
            #expect(try await store.latestEvents(of: "u_6", limit: 5).isEmpty)
            #expect(try await store.latestEvents(of: "u_s", limit: 5).isEmpty)
            // Under the rules in force the event changed nothing.
            let unchanged = try await store.evaluate("u_1") { engine, _ in RewardSnapshot(&engine, at: harness.now) }
            #expect(unchanged.unlocks.keys == before.unlocks.keys && unchanged.wallet == before.wallet)

            // An activation tried again appends nothing twice.
            let count = try await store.events(of: "u_1", after: 0, limit: 1_000).count
            try await replays.keepRewards(current: .habits, candidate: Self.stingy, by: WhatIfRunTests.operatorActor)
            #expect(try await store.events(of: "u_1", after: 0, limit: 1_000).count == count)

            // Under the candidate, the user keeps the unlock and the diamonds their rewards earned.
            let log = try await store.events(of: "u_1", after: 0, limit: 1_000)
            var after = WhatIfReplay.engine(log, pack: Self.stingy, dayStartHour: 0)
            let kept = RewardSnapshot(&after, at: harness.now)
            #expect(kept.wallet.diamonds == before.wallet.diamonds)
            #expect(kept.diamondsEarned == before.diamondsEarned)
            #expect(kept.unlocks[streak7.id] != nil)
            // So a what-if of the same version now finds nothing to take.
            let change = try #require(try await replays.change(for: "u_1", candidate: Self.stingy))
            #expect(!change.change.takesRewards)
        }
    }
}
