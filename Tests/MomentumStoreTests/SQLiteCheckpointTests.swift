import Foundation
import GRDB
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumSQLite

/// The SQLite writer never checkpoints; the store's checkpointer copies the write-ahead log
/// back into the database on its own connection. The log must still stay small, and
/// nothing written may be lost on the way.
struct SQLiteCheckpointTests {
    @Test func theWriteAheadLogStaysSmallWhileTheWriterNeverCheckpoints() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-ckpt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "store.sqlite").path
        let store = try SQLiteStore(path: path)
        try await store.migrate()
        let users = (0..<40).map { "u\($0)" }
        for user in users {
            try await store.createAccount(Fixtures.account(user), profile: Fixtures.profile())
            _ = try await store.append([try Fixtures.createHabit()], for: user, receivedAt: Fixtures.day(1, hour: 8))
        }
        // 2,000 appends, one commit each: about 8,000 pages of log without checkpoints.
        var largest = 0
        for day in 1...50 {
            for user in users {
                let result = try await store.append(
                    [try Fixtures.completion("\(user)-\(day)", day: day, hour: 9)], for: user,
                    receivedAt: Fixtures.day(day, hour: 10))
                #expect(result.outcomes.map(\.isStored) == [true])
            }
            largest = max(largest, Self.size(of: path + "-wal"))
        }
        // The writer finishes a checkpoint once the log holds 1,000 pages (4 MiB); without
        // that the log would grow to about 50 MiB here.
        #expect(largest > 0)
        #expect(largest < 8 << 20, "the log grew to \(largest) bytes")

        // Everything is there, through a store that opens the file afresh.
        await store.close()
        let reopened = try SQLiteStore(path: path)
        for user in users.prefix(5) {
            let projection = try await reopened.projection(of: user)
            #expect(projection.headSeq == 51)
            #expect(projection.habits.map(\.current) == [50])
        }
        await reopened.close()
    }

    /// A store closes while its checkpointer may be starting a checkpoint (every commit,
    /// here); no checkpoint may run on the closed connection (SQLite, handed no connection,
    /// crashed the process).
    @Test func closingWhileCheckpointsStartNeverRunsOneOnAClosedConnection() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-ckpt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "store.sqlite").path
        let pool = try DatabasePool(path: path)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE t (x INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        for _ in 0..<500 {
            let checkpointer = try Checkpointer(path: path, commitsPerCheckpoint: 1)
            checkpointer.committed()
            checkpointer.close()
            checkpointer.committed()
        }
        try pool.close()
    }

    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
