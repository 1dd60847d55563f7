import Foundation
import Logging
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// What-if runs over a store: paging, samples, cancelling and resuming, on both backends.
@Suite(.serialized)
struct WhatIfRunTests {
    /// Candidate versions by "name version", over the bundled packs.
    struct Candidates: WhatIfPackSource {
        var versions: [String: RulePack]

        func candidate(_ name: String, version: String) async throws -> RulePack? { versions["\(name) \(version)"] }
        func current(for profile: Profile) throws -> RulePack { try profile.rulePack() }
        func pack(for profile: Profile, replacing candidate: RulePack) -> RulePack? {
            BundledPackSource().pack(for: profile, replacing: candidate)
        }
    }

    /// `habits` 1.1.0: the 7-day streak rule is gone.
    static var withoutStreak7: RulePack {
        var pack = RulePack.habits
        pack.version = "1.1.0"
        pack.achievements.removeAll { $0.id == "streak-7" }
        return pack
    }

    static let operatorActor = OperatorActor(id: "op_1", email: "owner@example.com", role: .owner)

    /// Users `u_1`…`u_5` with ten days of one habit (a 7-day streak), `u_6` with none,
    /// `u_s` on the savings pack; what-ifs of `habits` 1.1.0 in pages of two users.
    static func withUsers(
        _ backend: ServerHarness.Backend,
        _ body: @escaping @Sendable (ServerHarness, WhatIfReplays) async throws -> Void
    ) async throws {
        try await ServerHarness.with(backend: backend) { harness, _ in
            let store = harness.state.store
            let created = Date(timeIntervalSince1970: 1_767_225_600)
            for (user, pack) in (1...6).map({ ("u_\($0)", "habits") }) + [("u_s", "savings")] {
                try await store.createAccount(
                    Account(id: user, email: "\(user)@example.com", passwordHash: nil, createdAt: created),
                    profile: Profile(displayName: user, pack: pack, updatedAt: created))
            }
            for index in 1...5 {
                var options = LogGenerator.Options()
                options.habits = 1
                options.days = 10
                options.completionRate = 1
                options.purchaseRate = 0
                options.skipRate = 0
                options.firstDay = LocalDay(year: 2026, month: 6, day: 1)!
                options.seed = UInt64(index)
                _ = try await store.append(
                    LogGenerator(options).events(), for: "u_\(index)", receivedAt: harness.now, device: nil)
            }
            let replays = WhatIfReplays(
                store: store, packs: Candidates(versions: ["habits 1.1.0": withoutStreak7]), now: { harness.now },
                logger: ServerHarness.quietLogger, pageSize: 2)
            try await body(harness, replays)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aRunOverEveryUserOfThePackReportsWhoWouldLoseARule(_ backend: ServerHarness.Backend) async throws {
        try await Self.withUsers(backend) { _, replays in
            let run = try await replays.start(pack: "habits", version: "1.1.0", sample: nil, by: Self.operatorActor)
            #expect(run.status == .running && run.startedBy == "op_1")
            await replays.drain()
            let progress = try await replays.run(run.id)
            #expect(progress.run.status == .done)
            #expect(progress.run.done == 6 && progress.run.total == 6)
            #expect(progress.report.users == 6 && progress.report.changed == 5)
            let rule = try #require(progress.report.rules["streak-7"])
            #expect(rule.losing == 5 && rule.gaining == 0)
            #expect(rule.losingExamples.map(\.user) == ["u_1", "u_2", "u_3", "u_4", "u_5"])
            #expect(progress.report.kept.users == 5 && progress.report.kept.unlocks == 5)
            #expect(progress.report.celebrations.sum == 0 && progress.report.diamonds.sum == 0)
            #expect(try await replays.runs(pack: "habits", version: "1.1.0").map(\.id) == [run.id])
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aSampleReplaysTheUsersItNamesOrTheSameRandomUsersForASeed(_ backend: ServerHarness.Backend) async throws {
        try await Self.withUsers(backend) { _, replays in
            let named = try await replays.start(
                pack: "habits", version: "1.1.0", sample: WhatIfSample(users: ["u_3", "u_1", "u_s", "u_nobody"]),
                by: Self.operatorActor)
            await replays.drain()
            let progress = try await replays.run(named.id)
            // u_s uses another pack and u_nobody does not exist: neither is replayed.
            #expect(progress.run.total == 2 && progress.report.users == 2)
            #expect(progress.report.rules["streak-7"]?.losingExamples.map(\.user) == ["u_1", "u_3"])
            var chosen: [[String]] = []
            for _ in 0..<2 {
                let run = try await replays.start(
                    pack: "habits", version: "1.1.0", sample: WhatIfSample(count: 3, seed: 11), by: Self.operatorActor)
                await replays.drain()
                let report = try await replays.run(run.id)
                #expect(report.run.total == 3 && report.report.users == 3)
                chosen.append(report.report.rules["streak-7"]?.losingExamples.map(\.user) ?? [])
            }
            #expect(chosen[0] == chosen[1])
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aCancelledRunStopsAndARunWhoseInstanceStoppedIsResumed(_ backend: ServerHarness.Backend) async throws {
        try await Self.withUsers(backend) { harness, replays in
            let store = harness.state.store
            // A run whose instance stopped after two users, its lease run out.
            var partial = WhatIfReport()
            partial.users = 2
            let stopped = WhatIfRun(
                id: "wi_stopped", pack: "habits", version: "1.1.0", sample: WhatIfSample.all.json, done: 2, total: 6,
                report: WhatIfReplays.encode(partial), cursor: "u_2", leaseUntil: harness.now.addingTimeInterval(-1),
                startedBy: "op_1", startedAt: harness.now.addingTimeInterval(-600))
            _ = try await store.startWhatIfRun(stopped)
            try await replays.resumeStale()
            let resumed = try await replays.run("wi_stopped")
            #expect(resumed.run.status == .done && resumed.run.done == 6)
            // Users 3 to 6 replayed after the two already counted; 1 and 2 not again.
            #expect(resumed.report.users == 6)
            #expect(resumed.report.rules["streak-7"]?.losingExamples.map(\.user) == ["u_3", "u_4", "u_5"])

            // A run cancelled from another instance stops at its next page.
            var waiting = stopped
            waiting.id = "wi_cancelled"
            waiting.leaseUntil = harness.now.addingTimeInterval(60)
            _ = try await store.startWhatIfRun(waiting)
            let cancelled = try await replays.cancel("wi_cancelled")
            #expect(cancelled.run.status == .cancelled)
            await replays.execute(waiting)
            let after = try await replays.run("wi_cancelled")
            #expect(after.run.status == .cancelled && after.run.done == 2)
        }
    }

    @Test func refusalsNameWhatIsWrongAndStartNothing() async throws {
        try await Self.withUsers(.sqlite) { _, replays in
            await #expect(throws: ServiceError.self) {
                _ = try await replays.start(pack: "habits", version: "9.9.9", sample: nil, by: Self.operatorActor)
            }
            do {
                _ = try await replays.start(
                    pack: "habits", version: "1.1.0", sample: WhatIfSample(count: 5, users: ["u_1"]),
                    by: Self.operatorActor)
                Issue.record("a sample with a count and users was accepted")
            } catch let error as ServiceError {
                #expect(error.kind == .invalid && error.fields.map(\.field) == ["sample"])
            }
            await #expect(throws: ServiceError.self) { _ = try await replays.run("wi_nope") }
            await #expect(throws: ServiceError.self) { _ = try await replays.cancel("wi_nope") }
            #expect(try await replays.runs(pack: "habits", version: "1.1.0").isEmpty)
            #expect(try await replays.runs(pack: "habits", version: "9.9.9").isEmpty)
        }
    }
}
