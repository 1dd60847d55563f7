import Foundation
import MomentumCore
import MomentumSQLite
import MomentumStore
import Testing

/// SQLite appends do their engine work outside the writer and check the user's version
/// before writing. Two stores on one file (two processes, in effect) racing to append for
/// one user make those checks fail and the appends fall back; nothing is lost, nothing is
/// stored twice, and the projection stays what the log says.
struct SQLiteTwoPhaseAppendTests {
    @Test func twoStoresOnOneFileRacingForOneUserKeepTheLogAndProjectionWhole() async throws {
        try await TwoStores.onOneFile { left, right, path in
            let days = 60
            let outcomes = try await withThrowingTaskGroup(of: [EventOutcome].self) { group in
                for (store, parity) in [(left, 1), (right, 0)] {
                    group.addTask {
                        var outcomes: [EventOutcome] = []
                        for day in stride(from: 2 - parity, through: days, by: 2) {
                            let result = try await store.append(
                                [try Fixtures.completion("c\(day)", day: day, hour: 9)], for: "ada",
                                receivedAt: Fixtures.day(day, hour: 10), device: nil)
                            outcomes += result.outcomes
                        }
                        return outcomes
                    }
                }
                return try await group.reduce(into: [EventOutcome]()) { $0 += $1 }
            }
            #expect(outcomes.count == days)
            let applied = outcomes.filter(\.isStored)
            #expect(applied.count == days)

            // One more append, so that the projection is written at a known instant.
            let now = Fixtures.day(days + 1, hour: 10)
            let last = try await right.append(
                [try Fixtures.completion("last", day: days + 1, hour: 9)], for: "ada", receivedAt: now, device: nil)
            #expect(last.outcomes.map(\.isStored) == [true])

            let stored = try await left.events(of: "ada", after: 0, limit: 1_000)
            #expect(stored.count == days + 2)
            #expect(Set(stored.map(\.event.id)).count == stored.count)
            #expect(stored.map(\.seq) == Array(1...Int64(days + 2)))

            // A third store, with nothing cached, replays the log: the projection agrees.
            let fresh = try SQLiteStore(path: path)
            let truth = try await fresh.evaluate("ada") { engine, _ in engine.state(at: now, calendarDays: 7) }
            for store in [left, right, fresh] {
                let projection = try await store.projection(of: "ada")
                #expect(projection.headSeq == Int64(days + 2))
                #expect(projection.habits.map(\.current) == truth.habits.map(\.current))
                #expect(projection.habits.map(\.best) == truth.habits.map(\.best))
                #expect(projection.ledger == truth.ledger)
                #expect(projection.wallet == truth.wallet)
            }
            #expect(truth.habits.first?.current == days + 1)
            await fresh.close()
        }
    }
}

/// An append that stores nothing (every event refused) is checked against the stored
/// version too: a habit another process created is not "unknown" to a stale cache.
struct SQLiteTwoPhaseRefusalTests {
    @Test func aRefusalFromAStaleCacheIsCheckedAgainstTheDatabase() async throws {
        try await TwoStores.onOneFile { app, other, _ in
            _ = try await other.append(
                [try Fixtures.createHabit("walk")], for: "ada", receivedAt: Fixtures.day(1, hour: 8), device: nil)
            let walked = try await app.append(
                [try Fixtures.completion("w1", habit: "walk", day: 1, hour: 9)], for: "ada",
                receivedAt: Fixtures.day(1, hour: 10), device: nil)
            #expect(walked.outcomes.map(\.isStored) == [true])
        }
    }
}

/// A celebration write (dismissing what the app showed) made after an append's engine was
/// cached is not written over by the next append prepared from that engine: here another
/// store on the same file dismisses, so this store's cache cannot know.
struct SQLiteTwoPhaseCelebrationTests {
    @Test func aDismissalElsewhereIsNotWrittenOverByAnAppendFromTheCache() async throws {
        try await TwoStores.onOneFile { app, other, _ in
            for day in 1...7 {
                _ = try await app.append(
                    [try Fixtures.completion("c\(day)", day: day, hour: 9)], for: "ada",
                    receivedAt: Fixtures.day(day, hour: 10), device: nil)
            }
            let now = Fixtures.day(7, hour: 11)
            let dismissed = try await other.updateCelebrations(of: "ada", now: now) { planner in
                let ids = planner.pending.map(\.id)
                for id in ids { planner.dismiss(id: id, at: now) }
                return ids
            }
            #expect(!dismissed.isEmpty)
            // Days 8 to 29 unlock nothing; day 30 unlocks a 30-day streak, so its append stores
            // the planner of the engine the earlier appends cached.
            var unlocked: [Unlock] = []
            for day in 8...30 {
                unlocked = try await app.append(
                    [try Fixtures.completion("c\(day)", day: day, hour: 9)], for: "ada",
                    receivedAt: Fixtures.day(day, hour: 10), device: nil
                ).unlocks
            }
            #expect(!unlocked.isEmpty)
            let pending = try await app.updateCelebrations(of: "ada", now: Fixtures.day(30, hour: 11)) { planner in
                planner.pending.map(\.id)
            }
            #expect(Set(pending).isDisjoint(with: dismissed), "dismissed celebrations came back: \(pending)")
            #expect(Set(pending).isSuperset(of: unlocked.map(\.id)))
        }
    }
}

/// Two stores on one new SQLite file — two processes, in effect — with Ada's account and a
/// habit, created through the first.
enum TwoStores {
    static func onOneFile(
        _ body: (SQLiteStore, SQLiteStore, String) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-2p-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "shared.sqlite").path
        let first = try SQLiteStore(path: path)
        let second = try SQLiteStore(path: path)
        do {
            try await first.migrate()
            try await first.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            _ = try await first.append(
                [try Fixtures.createHabit()], for: "ada", receivedAt: Fixtures.day(1, hour: 8), device: nil)
            try await body(first, second, path)
        } catch {
            await first.close()
            await second.close()
            throw error
        }
        await first.close()
        await second.close()
    }
}
