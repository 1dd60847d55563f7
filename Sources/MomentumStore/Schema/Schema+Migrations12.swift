extension Schema {
    /// Version 12 of ``migrations``: the operator's console and each app's rules at run time
    /// (operators and their audit log, packs as configuration, what-if replays, incident
    /// amnesties, what the console reads of deliveries). Each area's statements and tables
    /// are written in its own file.
    static let migrations12: [Migration] = [
        Migration(
            version: 12, name: "console_and_runtime_rules",
            sqlite: consoleMigration(.sqlite),
            postgres: consoleMigration(.postgres)
        )
    ]

    /// Version 12's statements, area by area.
    private static func consoleMigration(_ dialect: SQLDialect) -> [String] {
        operatorStatements(dialect) + packStatements(dialect) + whatIfStatements(dialect)
            + amnestyStatements(dialect) + consoleReadStatements(dialect)
            + reviewFlagStatements(dialect)
    }

    /// The tables version 12 adds, area by area.
    static var consoleTables: [TableSpec] {
        operatorTables + packTables + whatIfTables + amnestyTables + consoleReadTables
            + reviewFlagTables
    }
}
