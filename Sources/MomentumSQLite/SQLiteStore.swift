import Foundation
import GRDB
import MomentumCore
import MomentumStore
import ServiceLifecycle

import struct MomentumStore.AppendResult

/// Momentum's embedded store: one SQLite file, through GRDB.
///
/// The database runs in WAL mode with `synchronous = FULL`: a commit returns only after
/// the write-ahead log is on disk, so an acknowledged append survives a crash or a power
/// loss. Writes go through a `GroupCommitter`: while one transaction commits, new
/// appends queue up, and the next transaction takes them all — each in its own savepoint,
/// so one refused append does not affect the others — and commits them with one fsync.
/// Reads run concurrently on a snapshot.
///
/// ```swift
/// let store = try await SQLiteStore(path: "momentum.sqlite")
/// try await store.migrate()
/// ```
public final class SQLiteStore: SQLBackend {
    /// The SQL dialect.
    public let dialect = SQLDialect.sqlite
    /// The engines of recently active users.
    public let engines: EngineCache
    /// The database file.
    public let path: String
    /// How the store names the fields of its projection documents.
    public let storedForm: StoredForm

    let pool: DatabasePool
    private let committer: GroupCommitter
    /// The task running the group commit's loop, when it runs while the store is open.
    private let runner: Task<Void, Never>?
    /// When the group commit's loop runs.
    public let lifecycle: StoreLifecycle
    private let checkpointer: Checkpointer
    private let locks = UserLocks()
    private let versions = VersionReads()

    /// Makes the pool's writer sync the write-ahead log at every commit, and checks it does.
    ///
    /// GRDB runs `PRAGMA synchronous = NORMAL` on a pool's writer when it turns WAL mode on,
    /// after the configuration's `prepareDatabase`: NORMAL syncs only at checkpoints, so a
    /// power loss could drop commits already acknowledged. The writer keeps its connection
    /// for the pool's life, so setting FULL once holds.
    ///
    /// - Throws: When the writer does not report `synchronous = FULL` (2) afterwards.
    public static func requireFullSync(_ pool: DatabasePool) throws {
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            let mode = try Int.fetchOne(db, sql: "PRAGMA synchronous")
            guard mode == 2 else {
                throw StoreError(.unavailable, "the SQLite writer syncs with mode \(mode ?? -1), not FULL (2)")
            }
        }
    }

    /// Opens (or creates) a database file. Call `MomentumStore.migrate()` before use.
    ///
    /// - Parameters:
    ///   - path: The file; its directory must exist.
    ///   - engineCacheCapacity: How many users' engines to keep warm.
    ///   - engineCacheBytes: The most bytes of engines to keep warm, by their estimate (0:
    ///     no bound in bytes).
    ///   - maximumBatch: The most appends one group commit takes.
    ///   - storedForm: How to name the fields of projection documents (the current form by
    ///     default; another only with the migration that goes with it).
    ///   - lifecycle: When the group commit's loop runs: while the store is open (the
    ///     default), or while it runs as a service (``run()``); until then, writes wait.
    /// - Throws: `StoreError.Code.unavailable` when the file cannot be opened.
    public init(
        path: String, engineCacheCapacity: Int = 2_000, engineCacheBytes: Int = 0, maximumBatch: Int = 256,
        storedForm: StoredForm = .current, lifecycle: StoreLifecycle = .whileOpen
    ) throws(StoreError) {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "momentum"
        configuration.prepareDatabase { db in
            // FULL: every commit syncs the write-ahead log (NORMAL would only sync at
            // checkpoints, and a power loss could drop acknowledged appends).
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // A page cache large enough for many users' hot pages (SQLite's default is 2 MiB,
            // so a busy writer kept reading its index pages back from the log): 64 MiB for
            // the writer, 16 MiB for each reader; SQLite fills it only as it is used.
            try db.execute(sql: "PRAGMA cache_size = \(db.configuration.readonly ? -16_384 : -65_536)")
            // The writer does not checkpoint on its own: the `Checkpointer` does.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.requireFullSync(pool)
        } catch {
            throw StoreError(.unavailable, "cannot open the SQLite database '\(path)': \(error)")
        }
        self.path = path
        self.storedForm = storedForm
        engines = EngineCache(capacity: engineCacheCapacity, byteBudget: engineCacheBytes, storedForm: storedForm)
        do {
            checkpointer = try Checkpointer(path: path)
        } catch {
            try? pool.close()
            throw StoreError(.unavailable, "cannot open the SQLite database '\(path)': \(error)")
        }
        let committer = GroupCommitter(pool: pool, maximumBatch: maximumBatch, checkpointer: checkpointer)
        self.committer = committer
        self.lifecycle = lifecycle
        runner = lifecycle == .whileOpen ? Task { await committer.run() } : nil
    }

    /// Implements `MomentumStore` `append`; see the protocol for its contract.
    ///
    /// The engine work runs outside the single writer, on a read snapshot (see
    /// `SQLBackend.appendPreparingOutside(_:for:receivedAt:device:locks:)`): the writer
    /// only checks the user's version and writes, and the engine work of many users runs
    /// on every core.
    public func append(
        _ events: [Event], for user: String, receivedAt: Date, device: String? = nil
    ) async throws(StoreError) -> AppendResult {
        try await appendPreparingOutside(events, for: user, receivedAt: receivedAt, device: device, locks: locks)
    }

    /// Implements `MomentumStore` `run`; see the protocol for its contract. The program is
    /// a span of the work that runs it (`StoreSpans`).
    public func run<Result: Sendable>(_ program: StoreProgram<Result>) async throws(StoreError) -> Result {
        try await StoreSpans.program(program, on: dialect) { program throws(StoreError) in
            try await runUntraced(program)
        }
    }

    private func runUntraced<Result: Sendable>(_ program: StoreProgram<Result>) async throws(StoreError) -> Result {
        guard program.writes else {
            var first = try program.start()
            if case .query(let statements, let next) = first, statements.count == 1,
                let user = EngineLoader.versionRead(by: statements[0])
            {
                // A warm reader's version check: read together with the others waiting
                // (``VersionReads``), in one hop to a reader instead of one each.
                let pool = self.pool
                let version: Int64?
                do {
                    version = try await versions.version(of: user) { users in
                        try await pool.read { db in try SQLiteStore.versions(of: users, in: db) }
                    }
                } catch {
                    throw StoreError.wrap(error)
                }
                first = try next([version.map { [SQLRow([.integer($0)])] } ?? []])
                if case .done(let result) = first { return result }
                // A cold engine, or one at another version: the program goes on reading
                // on a snapshot of its own, from the start.
                first = try program.start()
            }
            let step = first
            do {
                return try await pool.read { db in try SQLiteStore.interpret(program, from: step, in: db) }
            } catch {
                throw StoreError.wrap(error)
            }
        }
        return try await committer.submit(program)
    }

    /// Warm readers' version checks so far: statements run, and reads they answered.
    var versionReadCounts: (statements: Int, reads: Int) { versions.statistics }

    /// The stored versions of `users` (none for a user without a head), in one statement.
    private static func versions(of users: [String], in db: Database) throws -> [String: Int64] {
        var versions: [String: Int64] = [:]
        versions.reserveCapacity(users.count)
        if users.count == 1 {
            if let version = try Int64.fetchOne(
                db.cachedStatement(sql: EngineLoader.versionOnly(users[0]).sql), arguments: [users[0]])
            {
                versions[users[0]] = version
            }
            return versions
        }
        let list = String(decoding: try JSONEncoder().encode(users), as: UTF8.self)
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT user_id, version FROM user_heads WHERE user_id IN (SELECT value FROM json_each(?))"),
            arguments: [list])
        while let row = try rows.next() {
            let values = Array(row.databaseValues)
            guard values.count == 2, case .string(let user) = values[0].storage,
                case .int64(let version) = values[1].storage
            else { throw StoreError(.corrupt, "a stored version is not a user and a number") }
            versions[user] = version
        }
        return versions
    }

    /// Runs a program's steps on a connection, from its start or from `step`.
    static func interpret<Result: Sendable>(
        _ program: StoreProgram<Result>, from step: StoreStep<Result>? = nil, in db: Database
    ) throws(StoreError)
        -> Result
    {
        let first: StoreStep<Result>
        if let step { first = step } else { first = try program.start() }
        return try program.run(
            from: first,
            lock: { _ in },  // one writer: writes are already serialized
            query: { statements in
                try statements.map { statement in
                    try Row.fetchAll(
                        db.cachedStatement(sql: statement.sql), arguments: arguments(statement.arguments)
                    ).map { row in SQLRow(row.databaseValues.map(value)) }
                }
            },
            execute: { statements in
                try statements.map { statement in
                    let compiled =
                        statement.sql.hasPrefix("CREATE") || statement.sql.hasPrefix("ALTER")
                        ? try db.makeStatement(sql: statement.sql) : try db.cachedStatement(sql: statement.sql)
                    try compiled.execute(arguments: arguments(statement.arguments))
                    return db.changesCount
                }
            })
    }

    /// Implements `MomentumStore` `close`; see the protocol for its contract.
    public func close() async {
        // Appends already queued are written; later ones are refused.
        committer.close()
        await runner?.value
        checkpointer.close()
        try? pool.close()
    }

    /// Implements `MomentumStore` `run`: a store opened with `StoreLifecycle.service`
    /// runs its group commit here until the service group shuts down gracefully (after the
    /// HTTP server, which the server's group starts after the store), then writes what was
    /// queued and returns; one whose loop runs while it is open waits for the shutdown.
    public func run() async throws {
        guard lifecycle == .service else {
            try? await gracefulShutdown()
            return
        }
        let committer = self.committer
        await withTaskCancellationOrGracefulShutdownHandler {
            await committer.run()
        } onCancelOrGracefulShutdown: {
            committer.close()
        }
    }

    private static func arguments(_ values: [SQLValue]) -> StatementArguments {
        // Existentials, not `[DatabaseValue]`: GRDB maps the latter through a key path,
        // which cost the single writer a tenth of its time.
        StatementArguments(
            values.map { value -> (any DatabaseValueConvertible)? in
                switch value {
                case .null: nil
                case .integer(let v): v
                case .real(let v): v
                case .text(let v): v
                case .blob(let v): Data(v)
                }
            })
    }

    private static func value(_ value: DatabaseValue) -> SQLValue {
        switch value.storage {
        case .null: .null
        case .int64(let v): .integer(v)
        case .double(let v): .real(v)
        case .string(let v): .text(v)
        case .blob(let v): .blob([UInt8](v))
        }
    }
}

extension StoreError {
    static func wrap(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        return StoreError(.unavailable, "SQLite refused the operation: \(error)")
    }
}
