/// The SQL dialects Momentum's schema is written for.
public enum SQLDialect: String, Sendable, CaseIterable {
    /// SQLite 3.35 or later (through GRDB).
    case sqlite
    /// PostgreSQL 13 or later (through PostgresNIO).
    case postgres

    /// The column type for a kind of value (`BIGINT` for an integer on PostgreSQL).
    ///
    /// - Parameter kind: The kind of value a column holds.
    /// - Returns: The type's name as this dialect spells it in a table definition.
    public func type(of kind: ColumnSpec.Kind) -> String {
        switch (self, kind) {
        case (.sqlite, .integer): "INTEGER"
        case (.sqlite, .real): "REAL"
        case (.sqlite, .text): "TEXT"
        case (.sqlite, .blob): "BLOB"
        case (.postgres, .integer): "BIGINT"
        case (.postgres, .real): "DOUBLE PRECISION"
        case (.postgres, .text): "TEXT"
        case (.postgres, .blob): "BYTEA"
        }
    }
}
