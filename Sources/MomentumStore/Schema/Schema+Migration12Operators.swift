extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): the operators of the console and the admin API, their sessions, and the audit log.
    static func operatorStatements(_ dialect: SQLDialect) -> [String] {
        []
    }

    /// The tables version 12 adds for this area.
    static let operatorTables: [TableSpec] = []
}
