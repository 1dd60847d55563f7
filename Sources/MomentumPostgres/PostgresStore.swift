import Foundation
import Logging
import MomentumCore
import MomentumStore
import NIOCore
import PostgresNIO
import ServiceLifecycle
import Synchronization

import struct MomentumStore.AppendResult

/// How a ``PostgresStore`` wrote its guarded appends.
public struct GuardedWriteCounts: Sendable, Equatable {
    /// Statements that wrote guarded appends: under load, one carries many users' appends.
    public var statements = 0
    /// Guarded appends those statements carried (written or found stale).
    public var writes = 0
    /// Statements of several appends that failed (a deadlock with another instance, a lost
    /// connection), whose appends were then written one by one.
    public var failedBatches = 0

    /// No writes yet.
    public init() {}
}

/// Momentum's production store: PostgreSQL through PostgresNIO's connection pool.
///
/// Several stateless server instances can share one database. Each writing program runs
/// in one transaction that first takes a transaction-scoped advisory lock on its user, so
/// the writes of one user are serialized across every instance while other users proceed
/// in parallel; inside one process, writes of a user also queue before taking a
/// connection. A transaction that fails with a serialization failure or a deadlock is
/// retried from the start (up to ``maximumAttempts`` times). Reads run in a read-only,
/// repeatable-read transaction, so a projection is read from one snapshot.
///
/// ```swift
/// let store = try PostgresStore(url: "postgres://momentum@localhost:5432/momentum")
/// try await store.migrate()
/// ```
public final class PostgresStore: SQLBackend {
    /// The SQL dialect.
    public let dialect = SQLDialect.postgres
    /// The engines of recently active users.
    public let engines: EngineCache
    /// How the store names the fields of its projection documents.
    public let storedForm: StoredForm
    /// How many times a transaction is tried before its error is reported.
    public let maximumAttempts = 5

    let client: PostgresClient
    /// The pool straight to the primary, when it is not ``client``'s (`PostgresTopology.direct`):
    /// the relay's `LISTEN` and the migrations run on it.
    let directClient: PostgresClient?
    /// What stands between the store's pool and the primary.
    public let pooler: PostgresTopology.Pooler
    /// The streaming replica, and what decides which reads it serves.
    let replica: ReplicaRouter?
    /// The task running the client's pool, when it runs while the store is open.
    private let runner: Task<Void, Never>?
    /// When the client's pool runs.
    public let lifecycle: StoreLifecycle
    let locks = UserLocks()
    /// Serializes this process's appends of one user while they prepare outside any
    /// transaction (apart from ``locks``, which the transactions they may fall back to take).
    private let appendLocks = UserLocks()
    /// The statements each connection has prepared (none behind a transaction-mode pooler).
    let prepared: PreparedStatements
    /// Guarded appends waiting to be written together.
    private let batches = GuardedWriteQueue()
    /// Warm readers' version checks, read together.
    let versions = VersionReads()
    /// Ends operations whose connection closed under them and left them waiting.
    let watch: ClosedConnectionWatch
    /// Whether the store was closed (or its service ended), and how many operations hold
    /// or wait for a connection: a closed store refuses every operation at once, since its
    /// pool no longer runs and a connection asked of it would never come; closing waits
    /// for the operations under way before it stops the pool.
    let usage = Mutex(Usage())

    struct Usage {
        var closed = false
        var inFlight = 0
        /// ``close()`` (once or more), waiting for the operations under way.
        var closing: [CheckedContinuation<Void, Never>] = []
    }
    /// The task running the batches' loops, when they run while the store is open.
    private let batchRunner = Mutex<Task<Void, Never>?>(nil)
    /// How many guarded appends were written, and in how many statements.
    let guardedCounts = Mutex(GuardedWriteCounts())
    let logger: Logger

    /// Connects with a PostgresNIO configuration.
    ///
    /// - Parameters:
    ///   - configuration: Where and how to connect; its pool options set the pool size.
    ///   - engineCacheCapacity: How many users' engines to keep warm.
    ///   - engineCacheBytes: The most bytes of engines to keep warm, by their estimate (0:
    ///     no bound in bytes).
    ///   - lifecycle: When the connection pool runs: while the store is open (the
    ///     default), or while it runs as a service (``run()``).
    ///   - storedForm: How to name the fields of projection documents (the current form by
    ///     default; another only with the migration that goes with it).
    ///   - direct: Where to connect straight to the primary (`LISTEN`, migrations), when
    ///     `configuration` does not (it goes through a pooler); `nil`: `configuration`.
    ///   - pooler: What stands between `configuration` and the primary.
    ///   - replica: A streaming replica, for the reads that may be served by it
    ///     (`ReplicaReads`).
    ///   - replicaMaxLag: Above this lag the replica is not tried.
    public init(
        configuration: PostgresClient.Configuration, engineCacheCapacity: Int = 2_000, engineCacheBytes: Int = 0,
        lifecycle: StoreLifecycle = .whileOpen, storedForm: StoredForm = .current,
        direct: PostgresClient.Configuration? = nil, pooler: PostgresTopology.Pooler = .none,
        replica: PostgresClient.Configuration? = nil, replicaMaxLag: Duration = .seconds(5)
    ) {
        var logger = Logger(label: "momentum.postgres")
        logger.logLevel = .error
        self.logger = logger
        watch = ClosedConnectionWatch(logger: logger)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        directClient = direct.map { direct in
            var direct = direct
            // The relay's listener and one migration at a time.
            direct.options.maximumConnections = min(direct.options.maximumConnections, 4)
            return PostgresClient(configuration: direct, backgroundLogger: logger)
        }
        self.pooler = pooler
        let quiet = logger
        self.replica = replica.map { replica in
            ReplicaRouter(
                client: PostgresClient(configuration: replica, backgroundLogger: logger), maximumLag: replicaMaxLag,
                logger: logger
            ) { query in
                try await client.withConnection { connection in
                    for try await text in try await connection.query(query, logger: quiet).decode(String.self) {
                        return text
                    }
                    throw ReplicaRouter.SampleError(message: "the primary gave no position")
                }
            }
        }
        prepared = PreparedStatements(named: pooler == .none)
        self.lifecycle = lifecycle
        let pools = [client] + (directClient.map { [$0] } ?? []) + (self.replica.map { [$0.client] } ?? [])
        runner = lifecycle == .whileOpen ? Task { await Self.run(pools) } : nil
        engines = EngineCache(capacity: engineCacheCapacity, byteBudget: engineCacheBytes, storedForm: storedForm)
        self.storedForm = storedForm
        if lifecycle == .whileOpen {
            let batches = self.batches
            let writer = Self.writer(for: self)
            batchRunner.withLock { $0 = Task { await batches.run(writer) } }
        }
    }

    /// What the batches' loops write with: the store's ``writeTogether(_:)``, held weakly
    /// (the loops must not keep a store alive that nobody closed).
    private static func writer(
        for store: PostgresStore
    ) -> @Sendable ([GuardedWrite]) async -> [Result<Bool, StoreError>] {
        { [weak store] writes in
            guard let store else {
                return writes.map { _ in .failure(StoreError(.unavailable, "the PostgreSQL store is gone")) }
            }
            return await store.writeTogether(writes)
        }
    }

    /// Connects with a URL: `postgres://user:password@host:port/database`.
    ///
    /// `?sslmode=disable` turns TLS off, `require` insists on it; the default, `prefer`,
    /// uses TLS when the server offers it. `?pool=N` sets the most connections (20).
    ///
    /// - Parameters:
    ///   - url: The database's URL (perhaps a pooler's: see `topology`).
    ///   - engineCacheCapacity: How many users' engines to keep warm.
    ///   - engineCacheBytes: The most bytes of engines to keep warm, by their estimate (0:
    ///     no bound in bytes).
    ///   - lifecycle: When the connection pool runs.
    ///   - storedForm: How to name the fields of projection documents.
    ///   - topology: A pooler on `url`, a direct URL to the primary, a replica.
    /// - Throws: `StoreError.Code.invalidInput` for a URL that is not a PostgreSQL URL.
    public convenience init(
        url: String, engineCacheCapacity: Int = 2_000, engineCacheBytes: Int = 0,
        lifecycle: StoreLifecycle = .whileOpen, storedForm: StoredForm = .current,
        topology: PostgresTopology = PostgresTopology()
    ) throws(StoreError) {
        let configuration = try PostgresClient.Configuration.momentum(url: url)
        let direct = try topology.direct.flatMap { direct throws(StoreError) in
            direct == url ? nil : try PostgresClient.Configuration.momentum(url: direct)
        }
        let replica = try topology.replica.map { replica throws(StoreError) in
            try PostgresClient.Configuration.momentum(url: replica)
        }
        self.init(
            configuration: configuration, engineCacheCapacity: engineCacheCapacity,
            engineCacheBytes: engineCacheBytes, lifecycle: lifecycle, storedForm: storedForm, direct: direct,
            pooler: topology.pooler, replica: replica, replicaMaxLag: topology.replicaMaxLag)
    }

    /// Runs the pools until the task is cancelled.
    private static func run(_ pools: [PostgresClient]) async {
        await withDiscardingTaskGroup { group in
            for pool in pools { group.addTask { await pool.run() } }
        }
    }

    /// Which pool an operation's connection comes from: ``client``'s, unless the task
    /// runs with ``onPrimaryDirectly`` set (the migrations).
    @TaskLocal static var onPrimaryDirectly = false
    /// Whether the task's reads run on the replica (``ReplicaRouter`` admitted them).
    @TaskLocal static var onReplica = false

    /// The pool straight to the primary: ``directClient``, or ``client`` without one.
    var primaryDirectly: PostgresClient { directClient ?? client }

    /// Implements `MomentumStore` `append`; see the protocol for its contract.
    ///
    /// A warm user's events are applied to the cached engine with no transaction open, and
    /// the write is one statement that checks the user's version under the user's lock
    /// (`SQLBackend.appendPreparingOutside(_:for:receivedAt:device:locks:)`): one round
    /// trip. When another instance changed the user in between, or the write is one that a
    /// single statement cannot do, the append runs in a transaction as before.
    public func append(
        _ events: [Event], for user: String, receivedAt: Date, device: String? = nil
    ) async throws(StoreError) -> AppendResult {
        try await appendPreparingOutside(events, for: user, receivedAt: receivedAt, device: device, locks: appendLocks)
    }

    /// Runs `body` with a connection of the pool; refused at once once the store is closed.
    /// A connection that closed under it ends `body` with an error (``ClosedConnectionWatch``).
    func connection<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let admitted = usage.withLock { usage -> Bool in
            guard !usage.closed else { return false }
            usage.inFlight += 1
            return true
        }
        guard admitted else { throw StoreError(.unavailable, "the PostgreSQL store is closed") }
        defer {
            let closing = usage.withLock { usage -> [CheckedContinuation<Void, Never>] in
                usage.inFlight -= 1
                guard usage.inFlight == 0 else { return [] }
                defer { usage.closing = [] }
                return usage.closing
            }
            for waiter in closing { waiter.resume() }
        }
        let pool = Self.onPrimaryDirectly ? primaryDirectly : Self.onReplica ? replica?.client ?? client : client
        let watch = self.watch
        return try await pool.withConnection { connection in try await watch.run(on: connection, body) }
    }

    /// Refuses operations from now on, and returns once those under way have ended.
    private func refuseOperations() async {
        await withCheckedContinuation { (closing: CheckedContinuation<Void, Never>) in
            let idle = usage.withLock { usage -> Bool in
                usage.closed = true
                guard usage.inFlight > 0 else { return true }
                usage.closing.append(closing)
                return false
            }
            if idle { closing.resume() }
        }
    }

    /// Implements `SQLBackend.writeAlone(_:)`: the statement alone, which PostgreSQL
    /// commits on its own.
    public func writeAlone(_ statement: SQLStatement) async throws(StoreError) -> [SQLRow] {
        try await StoreSpans.statement(statement, on: dialect, writes: true) { () throws(StoreError) in
            try await writeAloneUntraced(statement)
        }
    }

    private func writeAloneUntraced(_ statement: SQLStatement) async throws(StoreError) -> [SQLRow] {
        let logger = self.logger
        do {
            return try await self.connection { connection in
                try await self.prepared.run(statement, on: connection, logger: logger).map(Self.row)
            }
        } catch let error as PSQLError {
            throw StoreError(
                .unavailable,
                "PostgreSQL refused the write: \(error.serverInfo?[.message] ?? String(reflecting: error))")
        } catch {
            throw StoreError(.unavailable, "PostgreSQL refused the write: \(error)")
        }
    }

    /// Implements `SQLBackend.writeGuarded(_:)`: appends that arrive while others are being
    /// written are written together, several users' in one statement
    /// (`GuardedWrite.batch(_:)`), so that they share one commit and one round trip.
    /// A write that finds a free slot goes at once, alone; at most two statements are in
    /// flight (measured against one and four: see `BENCHMARKS.md` §8).
    public func writeGuarded(_ write: GuardedWrite) async throws(StoreError) -> Bool {
        try await StoreSpans.statement(write.single, on: dialect, writes: true) { () throws(StoreError) in
            try await writeGuardedUntraced(write)
        }
    }

    private func writeGuardedUntraced(_ write: GuardedWrite) async throws(StoreError) -> Bool {
        do {
            return try await batches.write(write)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "PostgreSQL refused the write: \(error)")
        }
    }

    /// How many guarded appends were written (``writeGuarded(_:)``), in how many
    /// statements, and how many batches failed.
    public var guardedWriteCounts: GuardedWriteCounts { guardedCounts.withLock { $0 } }

    /// How many statements read warm readers' versions, and how many reads they answered.
    var versionReadCounts: (statements: Int, reads: Int) { versions.statistics }

    /// The engine cache's counts and the guarded statements'.
    public var statistics: StoreStatistics {
        let guarded = guardedWriteCounts
        return StoreStatistics(
            appends: engines.appendCounts,
            guardedWrites: GuardedStatementCounts(statements: guarded.statements, failedBatches: guarded.failedBatches),
            engineCache: engines.statistics, replicaReads: replica?.counts)
    }

    /// A relay over LISTEN/NOTIFY on this store's connection pool.
    public func makeRelay() -> (any ChangeRelay)? { PostgresRelay(store: self) }

    /// Implements `MomentumStore` `close`; see the protocol for its contract.
    ///
    /// A store that runs as a service has its pool stopped by the service group's graceful
    /// shutdown; closing it afterwards has nothing left to stop.
    public func close() async {
        // Guarded writes already queued are written; later ones are refused. Then the pool
        // stops, and every operation is refused at once.
        batches.close()
        await batchRunner.withLock { $0 }?.value
        await refuseOperations()
        runner?.cancel()
        _ = await runner?.value
    }

    /// Implements `MomentumStore` `run`: a store opened with `StoreLifecycle.service`
    /// runs its connection pool and the loops that write batched appends until the service
    /// group shuts down gracefully (after the HTTP server and the relay, which the server's
    /// group starts after the store; the loops write what was queued first); one whose
    /// work runs while it is open waits for the shutdown.
    public func run() async throws {
        guard lifecycle == .service else {
            try? await gracefulShutdown()
            return
        }
        let batches = self.batches
        let writer = Self.writer(for: self)
        let pools = [client] + (directClient.map { [$0] } ?? []) + (replica.map { [$0.client] } ?? [])
        // The pools run in a task of their own, outside the service group's graceful
        // shutdown (which `PostgresClient.run()` obeys at once): they must outlive the
        // loops, which write what was queued before they end.
        let pool = Task.detached { await Self.run(pools) }
        await withTaskCancellationOrGracefulShutdownHandler {
            await batches.run(writer)
        } onCancelOrGracefulShutdown: {
            batches.close()
        }
        await refuseOperations()
        pool.cancel()
        await pool.value
    }

}

/// A transaction the database asked to retry (serialization failure, deadlock).
struct RetryableError: Error {
    var message: String
}
