import Foundation
import MomentumCore
import MomentumSQLite
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The account `momentum serve --demo` makes.
@Suite struct DemoAccountTests {
    /// Four months of celebrations were seen as they came: only seed 000's example and
    /// today's first savings milestone wait, so a newcomer's first session opens with their
    /// cards and later actions bring their own. The account tracks every pack.
    @Test func onlyTheExampleMilestoneIsWaiting() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appending(path: "demo.sqlite").path)
        try await store.migrate()
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let user = try await DemoAccount.install(in: store, now: now, bcryptCost: 4)
        let (waiting, delivered) = try await store.updateCelebrations(of: user, now: now) { planner in
            (planner.pending.map(\.unlock.rule), planner.delivered.count)
        }
        #expect(Set(waiting) == ["potty-streak-7", "savings-small"])
        let profile = try #require(try await store.profile(of: user))
        #expect(profile.packs == RulePack.bundledOrder)
        let (saved, stages, diamonds, today) = try await store.evaluate(user) { engine, _ in
            let unlock = engine.unlocks.first { $0.rule == "savings-small" }
            return (
                engine.achievements.journal().totalSaved,
                engine.summary(at: now).progression.timelines.keys.sorted(),
                engine.state(at: now, zone: DemoAccount.timeZone).wallet.diamonds,
                unlock.map { $0.achievedAt > now.addingTimeInterval(-86_400) } ?? false
            )
        }
        #expect(saved == 1_040)
        #expect(today, "the savings milestone belongs to today")
        #expect(stages == ["journaling", "meditation"])
        #expect(diamonds > 0, "the freeze store can be used")
        #expect(delivered > 50, "the history's celebrations count as seen: \(delivered)")
        await store.close()
    }

    /// `serve --demo` makes a console owner to sign in with, once, and never beside a real one.
    @Test func theDemoOwnerIsMadeOnceAndNeverBesideARealOne() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "demo-owner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appending(path: "demo.sqlite").path)
        try await store.migrate()
        var configuration = ServerConfiguration()
        configuration.bcryptCost = 4
        let operators = CommandLineOperators.make(store: store, configuration: configuration)
        #expect(try await DemoAccount.installOwner(operators))
        #expect(try await !DemoAccount.installOwner(operators))
        let session = try await operators.signIn(
            email: DemoAccount.ownerEmail, password: DemoAccount.ownerPassword, address: "127.0.0.1", kind: .console)
        #expect(session.operator.role == .owner)
        await store.close()

        let other = try SQLiteStore(path: directory.appending(path: "real.sqlite").path)
        try await other.migrate()
        let real = CommandLineOperators.make(store: other, configuration: configuration)
        _ = try await real.bootstrapOwner(email: "ops@example.com", name: "Ops", password: "a real owner's password")
        #expect(try await !DemoAccount.installOwner(real))
        #expect(try await real.list().map(\.email) == ["ops@example.com"])
        await other.close()
    }
}
