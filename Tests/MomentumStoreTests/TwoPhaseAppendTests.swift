import Foundation
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumStore
import MomentumTestSupport
import Testing

/// Appends do their engine work outside any transaction and check the user's version when
/// they write (on SQLite in the writer, on PostgreSQL in the single statement that writes).
/// Two stores on one database (two processes or instances, in effect) racing to append for
/// one user make those checks fail and the appends fall back; nothing is lost, nothing is
/// stored twice, and the projection stays what the log says.
struct TwoPhaseAppendTests {
    @Test(arguments: Backend.allCases)
    func twoStoresRacingForOneUserKeepTheLogAndProjectionWhole(_ backend: Backend) async throws {
        try await TwoStores.sharing(backend) { left, right, openAnother in
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
            let fresh = try openAnother()
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

            // PostgreSQL writes a warm append in one statement (one that unlocks a milestone
            // in a checked transaction); SQLite always in a checked transaction.
            let counts = [left.engines.appendCounts, right.engines.appendCounts]
            let oneStatement = counts.map(\.oneStatement).reduce(0, +)
            let checked = counts.map(\.checkedTransaction).reduce(0, +)
            #expect(backend == .postgres ? oneStatement > checked : oneStatement == 0 && checked > 0)
        }
    }
}

/// An append prepared from a cached engine that another store has since moved past fails
/// its version check, writes nothing, and runs again the ordinary way.
struct TwoPhaseStaleCacheTests {
    @Test(arguments: Backend.allCases)
    func anAppendFromAStaleCacheFallsBackAndStoresWhatTheLogSays(_ backend: Backend) async throws {
        try await TwoStores.sharing(backend) { app, other, _ in
            let cold = app.engines.appendCounts
            for day in 1...3 {
                _ = try await app.append(
                    [try Fixtures.completion("c\(day)", day: day, hour: 9)], for: "ada",
                    receivedAt: Fixtures.day(day, hour: 10), device: nil)
            }
            let warm = app.engines.appendCounts
            #expect(warm.fellBack == 0)
            if backend == .postgres {
                // The first check-in is a milestone of its own (checked); the next two are not.
                #expect(warm.oneStatement - cold.oneStatement == 2)
                #expect(warm.checkedTransaction - cold.checkedTransaction == 1)
            } else {
                #expect(warm.checkedTransaction - cold.checkedTransaction == 3)
            }

            _ = try await other.append(
                [try Fixtures.completion("c4", day: 4, hour: 9)], for: "ada", receivedAt: Fixtures.day(4, hour: 10),
                device: nil)
            let stale = try await app.append(
                [try Fixtures.completion("c5", day: 5, hour: 9)], for: "ada", receivedAt: Fixtures.day(5, hour: 10),
                device: nil)
            #expect(stale.outcomes.map(\.status) == [.applied(seq: 6)])
            let after = app.engines.appendCounts
            #expect(after.fellBack == 1)
            #expect(after.oneStatement == warm.oneStatement)
            #expect(after.checkedTransaction == warm.checkedTransaction)

            let projection = try await app.projection(of: "ada")
            #expect(projection.headSeq == 6)
            #expect(projection.habits.map(\.current) == [5])
            let stored = try await other.events(of: "ada", after: 0, limit: 100)
            #expect(stored.map(\.event.id) == ["create-read", "c1", "c2", "c3", "c4", "c5"])
        }
    }
}

/// An append that stores nothing (every event refused) is checked against the stored
/// version too: a habit another process created is not "unknown" to a stale cache.
struct TwoPhaseRefusalTests {
    @Test(arguments: Backend.allCases)
    func aRefusalFromAStaleCacheIsCheckedAgainstTheDatabase(_ backend: Backend) async throws {
        try await TwoStores.sharing(backend) { app, other, _ in
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
/// store on the same database dismisses, so this store's cache cannot know.
struct TwoPhaseCelebrationTests {
    @Test(arguments: Backend.allCases)
    func aDismissalElsewhereIsNotWrittenOverByAnAppendFromTheCache(_ backend: Backend) async throws {
        try await TwoStores.sharing(backend) { app, other, _ in
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

/// Two stores on one new database — two processes, or two server instances, in effect —
/// with Ada's account and a habit, created through the first. The body also gets a way to
/// open a third store on the same database.
enum TwoStores {
    static func sharing(
        _ backend: Backend,
        _ body: (any SQLBackend, any SQLBackend, @escaping () throws -> any SQLBackend) async throws -> Void
    ) async throws {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-2p-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appending(path: "shared.sqlite").path
            try await run(try SQLiteStore(path: path), try SQLiteStore(path: path), body) {
                try SQLiteStore(path: path)
            }
        case .postgres:
            try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_2p") { url in
                try await run(try PostgresStore(url: url), try PostgresStore(url: url), body) {
                    try PostgresStore(url: url)
                }
            }
        }
    }

    private static func run(
        _ first: any SQLBackend, _ second: any SQLBackend,
        _ body: (any SQLBackend, any SQLBackend, @escaping () throws -> any SQLBackend) async throws -> Void,
        openAnother: @escaping () throws -> any SQLBackend
    ) async throws {
        do {
            try await first.migrate()
            try await first.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            _ = try await first.append(
                [try Fixtures.createHabit()], for: "ada", receivedAt: Fixtures.day(1, hour: 8), device: nil)
            try await body(first, second, openAnother)
        } catch {
            await first.close()
            await second.close()
            throw error
        }
        await first.close()
        await second.close()
    }
}
