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
    /// The task running the client's pool, when it runs while the store is open.
    private let runner: Task<Void, Never>?
    /// When the client's pool runs.
    public let lifecycle: StoreLifecycle
    private let locks = UserLocks()
    /// Serializes this process's appends of one user while they prepare outside any
    /// transaction (apart from ``locks``, which the transactions they may fall back to take).
    private let appendLocks = UserLocks()
    /// The statements each connection has prepared.
    private let prepared = PreparedStatements()
    /// Guarded appends waiting to be written together.
    private let batches = GuardedWriteQueue()
    /// Warm readers' version checks, read together.
    private let versions = VersionReads()
    /// Whether the store was closed (or its service ended), and how many operations hold
    /// or wait for a connection: a closed store refuses every operation at once, since its
    /// pool no longer runs and a connection asked of it would never come; closing waits
    /// for the operations under way before it stops the pool.
    private let usage = Mutex(Usage())

    private struct Usage {
        var closed = false
        var inFlight = 0
        /// ``close()`` (once or more), waiting for the operations under way.
        var closing: [CheckedContinuation<Void, Never>] = []
    }
    /// The task running the batches' loops, when they run while the store is open.
    private let batchRunner = Mutex<Task<Void, Never>?>(nil)
    /// How many guarded appends were written, and in how many statements.
    private let guardedCounts = Mutex(GuardedWriteCounts())
    private let logger: Logger

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
    public init(
        configuration: PostgresClient.Configuration, engineCacheCapacity: Int = 2_000, engineCacheBytes: Int = 0,
        lifecycle: StoreLifecycle = .whileOpen, storedForm: StoredForm = .current
    ) {
        var logger = Logger(label: "momentum.postgres")
        logger.logLevel = .error
        self.logger = logger
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.lifecycle = lifecycle
        runner = lifecycle == .whileOpen ? Task { await client.run() } : nil
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
    ///   - url: The database's URL.
    ///   - engineCacheCapacity: How many users' engines to keep warm.
    ///   - engineCacheBytes: The most bytes of engines to keep warm, by their estimate (0:
    ///     no bound in bytes).
    ///   - lifecycle: When the connection pool runs.
    ///   - storedForm: How to name the fields of projection documents.
    /// - Throws: `StoreError.Code.invalidInput` for a URL that is not a PostgreSQL URL.
    public convenience init(
        url: String, engineCacheCapacity: Int = 2_000, engineCacheBytes: Int = 0,
        lifecycle: StoreLifecycle = .whileOpen, storedForm: StoredForm = .current
    ) throws(StoreError) {
        guard let parts = URLComponents(string: url), ["postgres", "postgresql"].contains(parts.scheme ?? ""),
            let host = parts.host, !host.isEmpty
        else {
            throw StoreError(.invalidInput, "'\(url)' is not a postgres://user@host:port/database URL")
        }
        let query = Dictionary(
            (parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let tls: PostgresClient.Configuration.TLS
        switch query["sslmode"] ?? "prefer" {
        case "disable": tls = .disable
        case "require", "verify-full", "verify-ca": tls = .require(.makeClientConfiguration())
        default: tls = .prefer(.makeClientConfiguration())
        }
        let database = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        var configuration = PostgresClient.Configuration(
            host: host, port: parts.port ?? 5432, username: parts.user ?? "postgres", password: parts.password,
            database: database.isEmpty ? nil : database, tls: tls)
        if let pool = query["pool"].flatMap(Int.init), pool > 0 { configuration.options.maximumConnections = pool }
        self.init(
            configuration: configuration, engineCacheCapacity: engineCacheCapacity,
            engineCacheBytes: engineCacheBytes, lifecycle: lifecycle, storedForm: storedForm)
    }

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
    private func connection<Value: Sendable>(
        _ body: (PostgresConnection) async throws -> Value
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
        return try await client.withConnection(body)
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
            engineCache: engines.statistics)
    }

    /// A relay over LISTEN/NOTIFY on this store's connection pool.
    public func makeRelay() -> (any ChangeRelay)? { PostgresRelay(store: self) }

    /// Writes guarded appends of different users in one statement (one at a time if that
    /// fails, so that each reports its own error); one result each, in order: whether its
    /// version check passed and it was written.
    public func writeTogether(_ writes: [GuardedWrite]) async -> [Result<Bool, StoreError>] {
        if writes.count > 1, let batch = GuardedWrite.batch(writes) {
            let logger = self.logger
            do {
                let written = try await self.connection { connection in
                    try await BoundBatch.run(batch, on: connection, logger: logger)
                }
                guardedCounts.withLock {
                    $0.statements += 1
                    $0.writes += writes.count
                }
                return writes.map { .success(written.contains($0.user)) }
            } catch {
                // A deadlock with another instance's batch, a lost connection: each write
                // goes again on its own, and reports its own error.
                guardedCounts.withLock { $0.failedBatches += 1 }
                logger.debug("a batch of guarded writes failed", metadata: ["error": "\(error)"])
            }
        }
        // Different users' writes: at once, each on a connection of its own.
        return await withTaskGroup(of: (Int, Result<Bool, StoreError>).self) { group in
            for (index, write) in writes.enumerated() {
                group.addTask {
                    do throws(StoreError) {
                        let written = try await self.writeGuardedAlone(write)
                        self.guardedCounts.withLock {
                            $0.statements += 1
                            $0.writes += 1
                        }
                        return (index, .success(written))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results = [Result<Bool, StoreError>](repeating: .success(false), count: writes.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }

    /// Implements `MomentumStore` `run`; see the protocol for its contract.
    public func run<Result: Sendable>(_ program: StoreProgram<Result>) async throws(StoreError) -> Result {
        guard program.writes else {
            do {
                if let answer = try await singleQuery(program) { return answer.value }
                return try await transaction(program, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(
                    .unavailable, "PostgreSQL refused the read: \((error as? RetryableError)?.message ?? "\(error)")")
            }
        }
        guard let user = program.user else { return try await retrying(program) }
        return try await locks.withLock(user) { () async throws(StoreError) -> Result in try await retrying(program) }
    }

    private func retrying<Result: Sendable>(_ program: StoreProgram<Result>) async throws(StoreError) -> Result {
        var attempt = 1
        while true {
            do {
                return try await transaction(program, begin: "BEGIN")
            } catch let error as RetryableError where attempt < maximumAttempts {
                _ = error
                attempt += 1
                try? await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            } catch let error as RetryableError {
                throw StoreError(.unavailable, "PostgreSQL kept refusing the transaction: \(error.message)")
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(.unavailable, "PostgreSQL refused the operation: \(error)")
            }
        }
    }

    /// Runs a read that needs a single statement (a warm engine's version check, most
    /// lookups) without a transaction around it: one statement sees one snapshot anyway,
    /// and BEGIN and COMMIT would be two more round trips. Returns `nil` when the program
    /// asks for more than that; it is then run again from the start in a transaction (the
    /// reads PostgreSQL runs only look at the engine cache, so a second run repeats no
    /// effect).
    private func singleQuery<Result: Sendable>(_ program: StoreProgram<Result>) async throws -> Box<Result>? {
        let first = try program.start()
        switch first {
        case .done(let value):
            return Box(value: value)
        case .query(let statements, let next) where statements.count == 1:
            let logger = self.logger
            let rows: [SQLRow]
            do {
                if let user = EngineLoader.versionRead(by: statements[0]) {
                    // Read together with other warm readers' (``VersionReads``).
                    let version = try await versions.version(of: user) { users in
                        try await self.connection { connection in
                            try await VersionBatch.run(users, on: connection, logger: logger)
                        }
                    }
                    rows = version.map { [SQLRow([.integer($0)])] } ?? []
                } else {
                    rows = try await self.connection { connection in
                        try await self.prepared.run(statements[0], on: connection, logger: logger).map(Self.row)
                    }
                }
            } catch let error as PSQLError {
                throw StoreError(
                    .unavailable,
                    "PostgreSQL refused the read: \(error.serverInfo?[.message] ?? String(reflecting: error))")
            }
            if case .done(let value) = try next([rows]) { return Box(value: value) }
            return nil
        default:
            return nil
        }
    }

    /// A result that may itself be optional.
    private struct Box<Value: Sendable>: Sendable {
        let value: Value
    }

    /// Runs a program in one transaction on a pooled connection.
    private func transaction<Result: Sendable>(
        _ program: StoreProgram<Result>, begin: String
    )
        async throws -> Result
    {
        let logger = self.logger
        do {
            return try await self.connection { connection in
                _ = try await connection.query(PostgresQuery(unsafeSQL: begin), logger: logger).get()
                do {
                    let result = try await program.run(
                        lock: { name in
                            _ = try await Self.rows(of: Self.lock(name), on: connection, logger: logger)
                        },
                        query: { statements in
                            var results: [[SQLRow]] = []
                            for statement in statements {
                                results.append(try await Self.rows(of: statement, on: connection, logger: logger))
                            }
                            return results
                        },
                        execute: { statements in
                            var counts: [Int] = []
                            for statement in statements {
                                counts.append(try await Self.count(of: statement, on: connection, logger: logger))
                            }
                            return counts
                        })
                    _ = try await connection.query("COMMIT", logger: logger).get()
                    return result
                } catch {
                    program.rollback()
                    _ = try? await connection.query("ROLLBACK", logger: logger).get()
                    throw error
                }
            }
        } catch let error as StoreError {
            throw error
        } catch let error as PSQLError {
            program.rollback()
            let state = error.serverInfo?[.sqlState]
            if state == "40001" || state == "40P01" {
                throw RetryableError(message: error.serverInfo?[.message] ?? "\(error)")
            }
            throw StoreError(
                .unavailable,
                "PostgreSQL refused the operation: \(error.serverInfo?[.message] ?? String(reflecting: error))")
        } catch {
            program.rollback()
            throw StoreError(.unavailable, "PostgreSQL refused the operation: \(error)")
        }
    }

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
        let client = self.client
        // The pool runs in a task of its own, outside the service group's graceful shutdown
        // (which `PostgresClient.run()` obeys at once): it must outlive the loops, which
        // write what was queued before they end.
        let pool = Task.detached { await client.run() }
        await withTaskCancellationOrGracefulShutdownHandler {
            await batches.run(writer)
        } onCancelOrGracefulShutdown: {
            batches.close()
        }
        await refuseOperations()
        pool.cancel()
        await pool.value
    }

    /// Takes a user's transaction lock (`pg_advisory_xact_lock`), the lock every write of
    /// the user holds.
    static func lock(_ name: String) -> SQLStatement {
        SQLStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [.text(name)])
    }

    /// A statement's rows, run inside a transaction: bound as a prepared statement where it
    /// can be (``BoundStatement``), so that PostgreSQL parses and plans its text once per
    /// connection; otherwise as an unnamed one.
    static func rows(
        of statement: SQLStatement, on connection: PostgresConnection, logger: Logger
    ) async throws
        -> [SQLRow]
    {
        if statement.arguments.count <= PreparedStatements.maximumArguments,
            let rows = try await BoundStatement.run(statement, on: connection, logger: logger)
        {
            return rows.map(row)
        }
        return try await connection.query(query(statement), logger: logger).get().rows.map(row)
    }

    /// The count of rows a statement changed (or answered), run inside a transaction as
    /// ``rows(of:on:logger:)`` runs it (``BoundStatement/count(_:on:logger:)``).
    static func count(
        of statement: SQLStatement, on connection: PostgresConnection, logger: Logger
    ) async throws
        -> Int
    {
        if statement.arguments.count <= PreparedStatements.maximumArguments,
            let count = try await BoundStatement.count(statement, on: connection, logger: logger)
        {
            return count
        }
        let result = try await connection.query(query(statement), logger: logger).get()
        return result.metadata.rows ?? result.rows.count
    }

    static func query(_ statement: SQLStatement) -> PostgresQuery {
        PostgresQuery(unsafeSQL: statement.numberedSQL, binds: bindings(statement))
    }

    static func bindings(_ statement: SQLStatement) -> PostgresBindings {
        var binds = PostgresBindings(capacity: statement.arguments.count)
        for argument in statement.arguments {
            switch argument {
            case .null: binds.appendNull()
            case .integer(let value): binds.append(value)
            case .real(let value): binds.append(value)
            case .text(let value): binds.append(value)
            case .blob(let value): binds.append(ByteBuffer(bytes: value))
            }
        }
        return binds
    }

    private static func row(_ row: PostgresRow) -> SQLRow {
        SQLRow(
            row.map { cell -> SQLValue in
                guard var bytes = cell.bytes else { return .null }
                switch cell.dataType {
                case .int8, .int4, .int2:
                    return (try? cell.decode(Int64.self)).map(SQLValue.integer) ?? .null
                case .float8, .float4, .numeric:
                    return (try? cell.decode(Double.self)).map(SQLValue.real) ?? .null
                case .bool:
                    return (try? cell.decode(Bool.self)).map(SQLValue.bool) ?? .null
                case .bytea:
                    return .blob(bytes.readBytes(length: bytes.readableBytes) ?? [])
                case .void:
                    return .null
                default:
                    return (try? cell.decode(String.self)).map(SQLValue.text) ?? .null
                }
            })
    }
}

/// A transaction the database asked to retry (serialization failure, deadlock).
struct RetryableError: Error {
    var message: String
}

extension PostgresStore {
    /// Sends `payload` on a notification channel (`pg_notify`), outside any transaction.
    ///
    /// - Throws: `StoreError.Code.unavailable` when PostgreSQL refuses.
    public func notify(channel: String, payload: String) async throws(StoreError) {
        do {
            try await connection { connection in
                _ = try await Self.rows(
                    of: SQLStatement("SELECT pg_notify(?, ?)", [.text(channel), .text(payload)]), on: connection,
                    logger: self.logger)
            }
        } catch {
            throw StoreError(.unavailable, "PostgreSQL refused the notification: \(error)")
        }
    }

    /// Listens on a notification channel on one pooled connection, calling `receive` with
    /// each payload, until the task is cancelled or the connection is lost.
    ///
    /// - Parameters:
    ///   - channel: The channel name.
    ///   - onListening: Called once `LISTEN` has succeeded, when no notification sent from
    ///     then on can be missed.
    ///   - receive: Called with each notification's payload.
    /// - Throws: `StoreError.Code.unavailable` when the connection fails.
    public func listen(
        channel: String, onListening: @Sendable () -> Void = {}, _ receive: @escaping @Sendable (String) -> Void
    ) async throws(StoreError) {
        do {
            // Not counted among the operations ``close()`` waits for: a listener lasts until
            // it is cancelled (the relay's service stops it first).
            if usage.withLock({ $0.closed }) { throw StoreError(.unavailable, "the PostgreSQL store is closed") }
            try await client.withConnection { connection in
                try await connection.listen(on: channel) { notifications in
                    onListening()
                    for try await notification in notifications {
                        receive(notification.payload)
                    }
                }
            }
        } catch {
            if Task.isCancelled { return }
            throw StoreError(.unavailable, "PostgreSQL listening on '\(channel)' failed: \(error)")
        }
    }
}

/// Named prepared statements, per connection, for the statements run outside a transaction
/// again and again (a warm user's append, a dashboard's version check): PostgreSQL then
/// parses and plans each once per connection instead of on every run, which was about half
/// of its work for an append.
///
/// A statement is prepared with SQL's `PREPARE` the first time a connection runs it, and
/// run with `EXECUTE`, its arguments written as literals (PostgreSQL does not pass a
/// query's parameters on to `EXECUTE`). Each connection's prepared names are remembered; a
/// connection that lost them anyway prepares again.
///
/// A statement with more than ``maximumArguments`` arguments (an append of many events at
/// once) runs unprepared, so that the statements a connection keeps stay few: their shapes
/// are those of everyday appends and reads.
final class PreparedStatements: Sendable {
    /// The most arguments of a statement that is prepared.
    static let maximumArguments = 64
    /// The most (connection, statement) pairs remembered; beyond it the memory starts over
    /// (connections come and go), and a statement a connection already has is simply
    /// prepared again (PostgreSQL answers that it exists).
    static let maximumKnown = 10_000

    private let known = Mutex(Set<String>())

    /// Runs `statement` on `connection` as a prepared statement; returns its rows.
    func run(
        _ statement: SQLStatement, on connection: PostgresConnection, logger: Logger
    ) async throws
        -> [PostgresRow]
    {
        guard statement.arguments.count <= Self.maximumArguments else {
            return try await connection.query(PostgresStore.query(statement), logger: logger).get().rows
        }
        if let rows = try await BoundStatement.run(statement, on: connection, logger: logger) { return rows }
        let name = Self.name(of: statement.sql)
        return try await run(
            name, sql: { statement.numberedSQL }, execute: Self.execute(name, statement.arguments), on: connection,
            logger: logger)
    }

    /// Runs the statement prepared as `name` (preparing `sql` first on a connection that
    /// has not) with an `EXECUTE` text.
    private func run(
        _ name: String, sql: () -> String, execute: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> [PostgresRow] {
        let key = "\(connection.id) \(name)"
        let query = PostgresQuery(unsafeSQL: execute)
        if !known.withLock({ $0.contains(key) }) {
            try await prepare(name, sql(), key: key, on: connection, logger: logger)
        }
        do {
            return try await connection.query(query, logger: logger).get().rows
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "26000" {
            // Not prepared on this connection after all: prepare it and run it once more.
            try await prepare(name, sql(), key: key, on: connection, logger: logger)
            return try await connection.query(query, logger: logger).get().rows
        }
    }

    private func prepare(
        _ name: String, _ sql: String, key: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        do {
            _ = try await connection.query(PostgresQuery(unsafeSQL: "PREPARE \(name) AS \(sql)"), logger: logger).get()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P05" {
            // Already prepared on this connection.
        }
        known.withLock { known in
            if known.count >= Self.maximumKnown { known.removeAll() }
            known.insert(key)
        }
    }

    /// `EXECUTE name(arguments…)`, each argument a literal.
    static func execute(_ name: String, _ arguments: [SQLValue]) -> String {
        guard !arguments.isEmpty else { return "EXECUTE \(name)" }
        var sql = "EXECUTE \(name)("
        for (index, argument) in arguments.enumerated() {
            if index > 0 { sql += ", " }
            literal(argument, into: &sql)
        }
        return sql + ")"
    }

    /// Writes a value as a PostgreSQL literal: text as an escape string (`E'…'`, with
    /// backslashes and quotes doubled, so that it means the same whatever
    /// `standard_conforming_strings` says), bytes as hex, doubles exactly.
    static func literal(_ value: SQLValue, into sql: inout String) {
        switch value {
        case .null:
            sql += "NULL"
        case .integer(let value):
            sql += String(value)
        case .real(let value):
            if value.isNaN {
                sql += "'NaN'::float8"
            } else if value.isInfinite {
                sql += value < 0 ? "'-Infinity'::float8" : "'Infinity'::float8"
            } else {
                sql += "'\(value)'::float8"
            }
        case .text(let value) where !value.utf8.contains(where: { $0 == 0x27 || $0 == 0x5c }):
            sql += "E'"
            sql += value
            sql += "'"
        case .text(let value):
            sql += "E'"
            for scalar in value.unicodeScalars {
                switch scalar {
                case "'": sql += "''"
                case "\\": sql += "\\\\"
                default: sql.unicodeScalars.append(scalar)
                }
            }
            sql += "'"
        case .blob(let bytes):
            let digits = Array("0123456789abcdef".utf8)
            var hex: [UInt8] = []
            hex.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0f)])
            }
            sql += "decode('" + String(decoding: hex, as: UTF8.self) + "', 'hex')"
        }
    }

    /// A name for a statement's text (with `?` placeholders): its 64-bit FNV-1a hash and
    /// length.
    static func name(of sql: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return "momentum_\(String(hash, radix: 16))_\(sql.utf8.count)"
    }
}
