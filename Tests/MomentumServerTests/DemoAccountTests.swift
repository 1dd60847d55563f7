import Foundation
import MomentumCore
import MomentumSQLite
import Testing

@testable import MomentumServer

/// The account `momentum serve --demo` makes.
@Suite struct DemoAccountTests {
    /// Four months of celebrations were seen as they came: only seed 000's example waits,
    /// so a newcomer's first session opens with its card and later actions bring their own.
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
        #expect(waiting == ["potty-streak-7"])
        #expect(delivered > 50, "the history's celebrations count as seen: \(delivered)")
        await store.close()
    }
}
