import ArgumentParser
import Foundation
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumStore

/// Where the data lives: a SQLite file (the default) or a PostgreSQL URL.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A SQLite file, or a postgres://user@host:port/database URL (default: $MOMENTUM_DATABASE or momentum.sqlite; docs/configuration.md).",
            valueName: "path-or-url"))
    var database: String?

    /// The `database` setting of ``ServeSettings/table``, read from `--database` and
    /// `MOMENTUM_DATABASE` the way `momentum serve` reads it.
    func location() throws -> String {
        try databaseSettings().database
    }

    /// The PostgreSQL topology settings beside `database` (`databaseDirect`,
    /// `databasePooler`, …), read from the environment the way `momentum serve` reads them.
    func topology() throws -> PostgresTopology {
        try databaseSettings().databaseTopology.topology
    }

    private func databaseSettings() throws -> ServeSettings {
        let keys = Set(["database"] + ServeSettings.databaseTopologySettings.map(\.key))
        do {
            return try SettingsReader(
                arguments: database.map { ["--database", $0] } ?? [], environment: ProcessInfo.processInfo.environment
            ).resolveWithoutFile(table: ServeSettings.table.filter { keys.contains($0.key) }).settings
        } catch {
            throw refuse(error)
        }
    }

    /// Opens the store, migrated unless `migrate` is false.
    ///
    /// - Parameter lifecycle: When the store's background work runs (PostgreSQL's connection
    ///   pool, the batched writes of either backend): while it is open (commands), or while
    ///   a service group runs it (the server).
    func open(
        engineCacheCapacity: Int = 2_000, engineCacheBytes: Int = 0, lifecycle: StoreLifecycle = .whileOpen,
        migrate: Bool = true
    ) async throws -> any MomentumStore {
        try await Self.open(
            location: try location(), topology: try topology(), engineCacheCapacity: engineCacheCapacity,
            engineCacheBytes: engineCacheBytes, lifecycle: lifecycle, migrate: migrate)
    }

    /// Opens the store at `location` (a SQLite file or a PostgreSQL URL, with its
    /// `topology`: a pooler, the primary directly, a replica).
    static func open(
        location: String, topology: PostgresTopology = PostgresTopology(), engineCacheCapacity: Int = 2_000,
        engineCacheBytes: Int = 0, lifecycle: StoreLifecycle = .whileOpen, migrate: Bool = true
    ) async throws -> any MomentumStore {
        let store: any MomentumStore
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            store = try PostgresStore(
                url: location, engineCacheCapacity: engineCacheCapacity, engineCacheBytes: engineCacheBytes,
                lifecycle: lifecycle, topology: topology)
        } else {
            let path = location.hasPrefix("sqlite:") ? String(location.dropFirst("sqlite:".count)) : location
            store = try SQLiteStore(
                path: path, engineCacheCapacity: engineCacheCapacity, engineCacheBytes: engineCacheBytes,
                lifecycle: lifecycle)
        }
        guard migrate else { return store }
        do {
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        return store
    }
}

/// Prints a store error the way every command does and picks the exit code.
func fail(_ error: any Error) -> ExitCode {
    FileHandle.standardError.write(Data("momentum: \(error)\n".utf8))
    if let error = error as? StoreError {
        switch error.code {
        case .invalidArchive, .invalidInput: return ExitCode(65)
        case .notFound: return ExitCode(66)
        case .userExists, .emailTaken: return ExitCode(73)
        default: return ExitCode(74)
        }
    }
    if error is EventLogError { return ExitCode(65) }
    return ExitCode(74)
}
