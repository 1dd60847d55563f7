import Foundation
import MomentumCore

/// A database that can run ``StoreProgram``s. A type that conforms gets the whole of
/// ``MomentumStore`` from the shared programs, so that every backend behaves the same.
public protocol SQLBackend: MomentumStore {
    /// The backend's SQL dialect.
    var dialect: SQLDialect { get }
    /// The engines of recently active users.
    var engines: EngineCache { get }
    /// How the backend names the fields of its projection documents.
    var storedForm: StoredForm { get }
    /// Runs a program: a writing program in one transaction (retried from the start when
    /// the database asks for it), a reading one on a consistent snapshot.
    func run<Result: Sendable>(_ program: StoreProgram<Result>) async throws(StoreError) -> Result
    /// Runs one statement as a transaction of its own and returns its rows (PostgreSQL: one
    /// round trip, with no BEGIN and COMMIT around it). By default it runs as a writing
    /// program.
    func writeAlone(_ statement: SQLStatement) async throws(StoreError) -> [SQLRow]
    /// Writes one user's guarded append (PostgreSQL); `true` when its version check passed
    /// and everything was written, `false` when nothing was. A backend may write it
    /// together with other users' (``GuardedWrite/batch(_:)``). By default it runs
    /// ``writeGuardedAlone(_:)``.
    func writeGuarded(_ write: GuardedWrite) async throws(StoreError) -> Bool
}

extension SQLBackend {
    /// Implements ``SQLBackend/writeGuarded(_:)`` with ``writeGuardedAlone(_:)``.
    public func writeGuarded(_ write: GuardedWrite) async throws(StoreError) -> Bool {
        try await writeGuardedAlone(write)
    }

    /// Writes a guarded append by its single statement, through ``writeAlone(_:)``.
    public func writeGuardedAlone(_ write: GuardedWrite) async throws(StoreError) -> Bool {
        guard let row = try await writeAlone(write.single).first else {
            throw .corrupt("a guarded write answered no row")
        }
        return try row.int(0, "count") == 1
    }

    /// Implements ``SQLBackend/writeAlone(_:)`` as a writing program of one statement.
    public func writeAlone(_ statement: SQLStatement) async throws(StoreError) -> [SQLRow] {
        try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in .done(rows) }
            })
    }
}

extension SQLBackend {
    /// Implements ``MomentumStore`` `migrate`; see the protocol for its contract.
    public func migrate() async throws(StoreError) {
        try await applyMigrations()
    }

    /// Applies the migrations not yet applied, in order: what `migrate` does, for a backend
    /// whose own `migrate` runs them in a way of its own (PostgreSQL's, on a direct
    /// connection to the primary).
    public func applyMigrations() async throws(StoreError) {
        _ = try await run(Migrator.createTrackingTable(dialect))
        for migration in Schema.migrations {
            do {
                _ = try await run(Migrator.apply(migration, dialect: dialect, now: Date()))
            } catch {
                throw StoreError(
                    .migration, "migration \(migration.version) (\(migration.name)) failed: \(error.message)")
            }
        }
    }

    /// Implements ``MomentumStore`` `appliedMigrations`; see the protocol for its contract.
    public func appliedMigrations() async throws(StoreError) -> [Int] {
        try await run(Migrator.applied())
    }

    /// Brings the schema to `version` and no further (for tests of upgrades).
    ///
    /// - Parameter version: The last migration to apply.
    public func migrate(upTo version: Int) async throws(StoreError) {
        _ = try await run(Migrator.createTrackingTable(dialect))
        for migration in Schema.migrations where migration.version <= version {
            _ = try await run(Migrator.apply(migration, dialect: dialect, now: Date()))
        }
    }
}

/// The programs that create and record schema versions.
enum Migrator {
    static func createTrackingTable(_ dialect: SQLDialect) -> StoreProgram<Bool> {
        let integer = dialect.type(of: .integer)
        let real = dialect.type(of: .real)
        return StoreProgram(writes: true) { () throws(StoreError) in
            .execute([
                SQLStatement(
                    """
                    CREATE TABLE IF NOT EXISTS \(Schema.migrationsTable) (
                      version \(integer) NOT NULL PRIMARY KEY, name TEXT NOT NULL, applied_at \(real) NOT NULL)
                    """)
            ]) { _ throws(StoreError) in .done(true) }
        }
    }

    static func applied() -> StoreProgram<[Int]> {
        StoreProgram(writes: false) { () throws(StoreError) in
            .query(SQLStatement("SELECT version FROM \(Schema.migrationsTable) ORDER BY version")) {
                rows throws(StoreError) in
                .done(try rows.map { row throws(StoreError) in Int(try row.int(0, "version")) })
            }
        }
    }

    /// Applies one migration unless it already ran; the check and the change share one
    /// transaction, under a lock, so that two servers starting at once apply it once.
    static func apply(_ migration: Migration, dialect: SQLDialect, now: Date) -> StoreProgram<Bool> {
        StoreProgram(writes: true) { () throws(StoreError) in
            .lock("momentum:migrations") { () throws(StoreError) in
                .query(
                    SQLStatement(
                        "SELECT COUNT(*) FROM \(Schema.migrationsTable) WHERE version = ?", [.int(migration.version)])
                ) { rows throws(StoreError) in
                    if try rows[0].int(0, "count") > 0 { return .done(false) }
                    let statements =
                        migration.sql(dialect).map { SQLStatement($0) } + [
                            SQLStatement(
                                "INSERT INTO \(Schema.migrationsTable) (version, name, applied_at) VALUES (?, ?, ?)",
                                [.int(migration.version), .text(migration.name), .date(now)])
                        ]
                    return .execute(statements) { _ throws(StoreError) in .done(true) }
                }
            }
        }
    }
}
