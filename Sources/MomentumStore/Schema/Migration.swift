/// One versioned, forward-only schema change, frozen as the SQL it runs in each backend.
///
/// Each migration runs in its own transaction and is recorded in `momentum_migrations`;
/// a migration that has run is never changed, only followed by new ones. Its statements
/// are literal text (see ``Schema/migrations``), never generated from ``TableSpec``s, so
/// that editing a table's description cannot rewrite what a database was built with.
public struct Migration: Sendable {
    /// The version, starting at 1 and increasing by one.
    public var version: Int
    /// A short name (`create_event_log`).
    public var name: String
    /// The statements, in order, for SQLite.
    public var sqlite: [String]
    /// The statements, in order, for PostgreSQL.
    public var postgres: [String]

    /// Creates a migration from its statements in each dialect.
    public init(version: Int, name: String, sqlite: [String], postgres: [String]) {
        self.version = version
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
    }

    /// Every statement of the migration, in order.
    public func sql(_ dialect: SQLDialect) -> [String] {
        switch dialect {
        case .sqlite: sqlite
        case .postgres: postgres
        }
    }
}
