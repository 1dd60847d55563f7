import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

@testable import MomentumPostgres

/// Reads a replica may serve (cold loads, feeds, exports) go to a real streaming replica
/// (made with `pg_basebackup -R`) only when it has replayed every write acknowledged
/// before they were asked for: a user's own write is readable at once, and a replica
/// paused, behind or unreachable never makes a read go back in time, since the read is
/// then served by the primary.
@Suite(.serialized)
struct ReplicaReadsTests {
    /// A replica of the shared cluster, a fresh database, a store writing to the primary and
    /// another (another instance) that reads from the replica where it may.
    static func withReplica<R>(
        replicaURL: ((PostgresTestReplica, String) -> String)? = nil,
        _ body: (_ writer: PostgresStore, _ reader: PostgresStore, _ replica: PostgresTestReplica) async throws -> R
    ) async throws -> R {
        let cluster = try PostgresTestCluster.shared
        let replica = try PostgresTestReplica.start(replicating: cluster)
        defer { replica.stop() }
        return try await cluster.withDatabase(prefix: "momentum_replica") { primary in
            let name = String(URLComponents(string: primary)?.path.dropFirst() ?? "")
            let topology = PostgresTopology(
                replica: replicaURL?(replica, name) ?? replica.url(database: name), replicaMaxLag: .seconds(60))
            let writer = try PostgresStore(url: primary, topology: topology)
            let reader = try PostgresStore(url: primary, topology: topology)
            do {
                try await writer.migrate()
                let result = try await body(writer, reader, replica)
                await writer.close()
                await reader.close()
                return result
            } catch {
                await writer.close()
                await reader.close()
                throw error
            }
        }
    }

    static func check(in user: String, day: Int) throws -> Event {
        try Fixtures.completion("c_\(user)_\(day)", day: day)
    }

    static func createUser(_ user: String, in store: PostgresStore) async throws {
        try await store.createAccount(Fixtures.account(user), profile: Fixtures.profile())
        _ = try await store.append([try Fixtures.createHabit()], for: user, receivedAt: Fixtures.day(1), device: nil)
    }

    @Test func aCaughtUpReplicaServesExportsAndColdLoads() async throws {
        try await Self.withReplica { writer, reader, _ in
            try await Self.createUser("u_replica", in: writer)
            for day in 1...5 {
                _ = try await writer.append(
                    [try Self.check(in: "u_replica", day: day)], for: "u_replica",
                    receivedAt: Fixtures.day(day, hour: 21), device: nil)
            }
            // The replica catches up within moments (a read before then goes to the primary).
            let deadline = ContinuousClock.now + .seconds(20)
            while (reader.replicaReadCounts?.replica ?? 0) == 0, ContinuousClock.now < deadline {
                let archive = try await reader.exportAccount("u_replica")
                #expect(archive.events.count == 6)
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect((reader.replicaReadCounts?.replica ?? 0) > 0)
            // A cold load of the engine (nothing cached on this instance) is read there too.
            let before = reader.replicaReadCounts?.replica ?? 0
            let done = try await reader.evaluate("u_replica") { engine, _ in engine.streaks.events.count }
            #expect(done == 6)
            #expect((reader.replicaReadCounts?.replica ?? 0) > before)
            #expect(await reader.replicaHealth() == .ok)
        }
    }

    @Test func aUsersOwnWriteIsReadableAtOnceFromAnyInstance() async throws {
        try await Self.withReplica { writer, reader, _ in
            try await Self.createUser("u_ryw", in: writer)
            for day in 1...60 {
                _ = try await writer.append(
                    [try Self.check(in: "u_ryw", day: day)], for: "u_ryw", receivedAt: Fixtures.day(day, hour: 21),
                    device: nil)
                // Another instance, asked right after the write was acknowledged.
                let archive = try await reader.exportAccount("u_ryw")
                #expect(archive.events.count == day + 1, "day \(day)")
                let count = try await reader.evaluate("u_ryw") { engine, _ in engine.streaks.events.count }
                #expect(count == day + 1, "day \(day)")
            }
            let counts = try #require(reader.replicaReadCounts)
            #expect(counts.replica + counts.primary > 0)
        }
    }

    @Test func aPausedReplicaSendsReadsToThePrimary() async throws {
        try await Self.withReplica { writer, reader, replica in
            try await Self.createUser("u_paused", in: writer)
            try await replica.administer("SELECT pg_wal_replay_pause()")
            let before = reader.replicaReadCounts ?? ReplicaReadCounts()
            for day in 1...10 {
                _ = try await writer.append(
                    [try Self.check(in: "u_paused", day: day)], for: "u_paused",
                    receivedAt: Fixtures.day(day, hour: 21), device: nil)
                let archive = try await reader.exportAccount("u_paused")
                #expect(archive.events.count == day + 1, "day \(day)")
            }
            let after = try #require(reader.replicaReadCounts)
            #expect(after.replica == before.replica)
            #expect(after.primary > before.primary)
            try await replica.administer("SELECT pg_wal_replay_resume()")
        }
    }

    @Test func aWrongReplicaAddressSendsReadsToThePrimary() async throws {
        let nobody = try PostgresTestCluster.freePort()
        try await Self.withReplica(replicaURL: { _, name in
            "postgres://postgres@127.0.0.1:\(nobody)/\(name)?sslmode=disable"
        }) {
            writer, reader, _ in
            try await Self.createUser("u_nowhere", in: writer)
            let archive = try await reader.exportAccount("u_nowhere")
            #expect(archive.events.count == 1)
            let counts = try #require(reader.replicaReadCounts)
            #expect(counts.replica == 0)
            #expect(counts.primary > 0)
            guard case .unreachable = await reader.replicaHealth() else {
                Issue.record("a replica nobody answers for is not reported unreachable")
                return
            }
        }
    }
}
