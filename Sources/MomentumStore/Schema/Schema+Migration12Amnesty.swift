extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): the incident amnesties operators declare.
    static func amnestyStatements(_ dialect: SQLDialect) -> [String] {
        []
    }

    /// The tables version 12 adds for this area.
    static let amnestyTables: [TableSpec] = []
}
