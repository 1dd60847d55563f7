/// A column of a ``TableSpec``.
public struct ColumnSpec: Hashable, Sendable {
    /// The kinds of value a column holds, identical in every backend.
    public enum Kind: String, Hashable, Sendable {
        /// A 64-bit integer (`INTEGER` / `BIGINT`).
        case integer
        /// A double (`REAL` / `DOUBLE PRECISION`).
        case real
        /// Text (`TEXT`).
        case text
        /// Bytes (`BLOB` / `BYTEA`).
        case blob
    }

    /// The column's name.
    public var name: String
    /// What it holds.
    public var kind: Kind
    /// Whether it may be `NULL`.
    public var nullable: Bool

    /// Creates a column.
    public init(_ name: String, _ kind: Kind, nullable: Bool = false) {
        self.name = name
        self.kind = kind
        self.nullable = nullable
    }
}

/// A table, described once and created identically in SQLite and PostgreSQL.
public struct TableSpec: Hashable, Sendable {
    /// The table's name.
    public var name: String
    /// Its columns, in order.
    public var columns: [ColumnSpec]
    /// The primary key's columns.
    public var primaryKey: [String]
    /// Further unique keys.
    public var uniqueKeys: [[String]]
    /// The table (and its columns) that this table's `user_id` refers to, if any; rows are
    /// deleted with their account.
    public var userReference: String?
    /// Whether the table is global rather than per-user (its keys need not start with `user_id`).
    public var global: Bool

    /// Creates a table description.
    public init(
        _ name: String, columns: [ColumnSpec], primaryKey: [String], uniqueKeys: [[String]] = [],
        userReference: String? = "accounts", global: Bool = false
    ) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.uniqueKeys = uniqueKeys
        self.userReference = userReference
        self.global = global
    }

    /// The `CREATE TABLE` statement in a dialect.
    public func createSQL(_ dialect: SQLDialect) -> String {
        var lines = columns.map { column in
            "\(column.name) \(dialect.type(of: column.kind))\(column.nullable ? "" : " NOT NULL")"
        }
        lines.append("PRIMARY KEY (\(primaryKey.joined(separator: ", ")))")
        for key in uniqueKeys { lines.append("UNIQUE (\(key.joined(separator: ", ")))") }
        if let userReference {
            lines.append("FOREIGN KEY (user_id) REFERENCES \(userReference) (user_id) ON DELETE CASCADE")
        }
        return "CREATE TABLE \(name) (\n  " + lines.joined(separator: ",\n  ") + "\n)"
    }
}
