extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): what the console reads of deliveries (their latency, who retried them).
    static func consoleReadStatements(_ dialect: SQLDialect) -> [String] {
        []
    }

    /// The tables version 12 adds for this area.
    static let consoleReadTables: [TableSpec] = []
}
