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
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-2p-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "shared.sqlite").path
        let left = try SQLiteStore(path: path)
        let right = try SQLiteStore(path: path)
        try await left.migrate()
        try await left.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
        _ = try await left.append(
            [try Fixtures.createHabit()], for: "ada", receivedAt: Fixtures.day(1, hour: 8), device: nil)

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
        for store in [left, right, fresh] { await store.close() }
    }
}
