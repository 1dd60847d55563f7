/// One versioned, forward-only schema change, identical in every backend.
///
/// Each migration runs in its own transaction and is recorded in `momentum_migrations`;
/// a migration that has run is never changed, only followed by new ones.
public struct Migration: Sendable {
    /// The version, starting at 1 and increasing by one.
    public var version: Int
    /// A short name (`create_event_log`).
    public var name: String
    /// The tables it creates.
    public var tables: [TableSpec]
    /// Further statements (indexes), per dialect.
    public var statements: @Sendable (SQLDialect) -> [String]

    /// Creates a migration.
    public init(
        version: Int, name: String, tables: [TableSpec],
        statements: @escaping @Sendable (SQLDialect) -> [String] = { _ in [] }
    ) {
        self.version = version
        self.name = name
        self.tables = tables
        self.statements = statements
    }

    /// Every statement of the migration, in order.
    public func sql(_ dialect: SQLDialect) -> [String] {
        tables.map { $0.createSQL(dialect) } + statements(dialect)
    }
}
