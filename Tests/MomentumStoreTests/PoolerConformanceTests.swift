import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Synchronization
import Testing

@testable import MomentumPostgres

/// The PostgreSQL store behind a real PgBouncer in transaction mode
/// (`PostgresTopology.Pooler.transaction`): appends, reads, exports, migrations and the
/// relay work, though each transaction may run on another server connection. Named
/// prepared statements (which PgBouncer 1.18 does not carry between server connections)
/// are off, and the relay's `LISTEN` and the migrations go to the primary directly.
@Suite(.serialized)
struct PoolerConformanceTests {
    /// A store behind a PgBouncer of few server connections, and a second one (another
    /// instance), on a fresh database.
    static func withPooledStores<R>(
        _ body: (_ store: PostgresStore, _ other: PostgresStore, _ directURL: String) async throws -> R
    ) async throws -> R {
        let cluster = try PostgresTestCluster.shared
        let pooler = try PgBouncerTestPooler.start(forwardingTo: cluster, serverConnections: 3)
        defer { pooler.stop() }
        return try await cluster.withDatabase(prefix: "momentum_pooler") { direct in
            let name = String(URLComponents(string: direct)?.path.dropFirst() ?? "")
            let topology = PostgresTopology(direct: direct, pooler: .transaction)
            let store = try PostgresStore(url: pooler.url(database: name), topology: topology)
            let other = try PostgresStore(url: pooler.url(database: name), topology: topology)
            do {
                let result = try await body(store, other, direct)
                await store.close()
                await other.close()
                return result
            } catch {
                await store.close()
                await other.close()
                throw error
            }
        }
    }

    @Test func appendsReadsAndExportsGoThroughATransactionModePooler() async throws {
        try await Self.withPooledStores { store, other, _ in
            try await store.migrate()
            #expect(try await store.appliedMigrations().last == Schema.latestVersion)
            let users = (0..<6).map { "u_pooled_\($0)" }
            for user in users {
                try await store.createAccount(Fixtures.account(user), profile: Fixtures.profile())
                _ = try await store.append(
                    [try Fixtures.createHabit()], for: user, receivedAt: Fixtures.day(1), device: nil)
            }
            // Many users at once, on two instances: warm one-statement appends, batches of
            // several users' appends, version checks, transactions, each statement run
            // again and again with the same text on the pooler's few server connections.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, user) in users.enumerated() {
                    let instance = index.isMultiple(of: 2) ? store : other
                    group.addTask {
                        for day in 1...20 {
                            let result = try await instance.append(
                                [try Fixtures.completion("c_\(user)_\(day)", day: day)], for: user,
                                receivedAt: Fixtures.day(day, hour: 21), device: nil)
                            #expect(result.outcomes.allSatisfy { $0.isStored }, "\(user) day \(day)")
                            _ = try await instance.projection(of: user)
                        }
                    }
                }
                try await group.waitForAll()
            }
            for user in users {
                let events = try await other.events(of: user, after: 0, limit: 100)
                #expect(events.count == 21, "\(user)")
                let projection = try await store.projection(of: user)
                #expect(projection.headSeq == 21)
                let archive = try await other.exportAccount(user)
                #expect(archive.events.count == 21)
            }
        }
    }

    /// The migrations run on `databaseDirect`: pointed at another database, the schema is
    /// made there and not on the main URL's.
    @Test func migrationsRunOnTheDirectURL() async throws {
        let cluster = try PostgresTestCluster.shared
        try await cluster.withDatabase(prefix: "momentum_main") { main in
            try await cluster.withDatabase(prefix: "momentum_direct") { direct in
                let store = try PostgresStore(
                    url: main, topology: PostgresTopology(direct: direct, pooler: .transaction))
                let beside = try PostgresStore(url: direct)
                do {
                    try await store.migrate()
                    #expect(try await beside.appliedMigrations().last == Schema.latestVersion)
                    #expect((try? await store.appliedMigrations()) == nil)
                    await store.close()
                    await beside.close()
                } catch {
                    await store.close()
                    await beside.close()
                    throw error
                }
            }
        }
    }

    @Test func theRelayListensOnThePrimaryAndNotifiesThroughThePooler() async throws {
        try await Self.withPooledStores { store, other, _ in
            let received = Mutex<[RelayMessage]>([])
            let listening = Mutex(false)
            let listener = Task {
                try await PostgresRelay(store: other).listen(
                    skipping: "i_listener", onListening: { on in listening.withLock { $0 = on } }
                ) { message in received.withLock { $0.append(message) } }
            }
            defer { listener.cancel() }
            let deadline = ContinuousClock.now + .seconds(20)
            while !listening.withLock({ $0 }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try #require(listening.withLock { $0 })
            // Transactions through the pooler in between, so that the notifications leave
            // from server connections other than any that ran a LISTEN.
            let relay = PostgresRelay(store: store)
            let sent = (0..<20).map { index in
                RelayMessage(
                    instance: "i_sender", user: "u_\(index)",
                    change: Change(kind: "events", headSeq: Int64(index), device: nil, at: Fixtures.day(1)))
            }
            for message in sent {
                _ = try await store.writeAlone(SQLStatement("SELECT 1"))
                try await relay.publish(message)
            }
            while received.withLock({ $0.count }) < sent.count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(received.withLock { $0 } == sent)
        }
    }
}
