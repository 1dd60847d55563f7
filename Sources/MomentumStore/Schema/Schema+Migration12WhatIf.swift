extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): the what-if replays of a candidate pack and their reports.
    static func whatIfStatements(_ dialect: SQLDialect) -> [String] {
        []
    }

    /// The tables version 12 adds for this area.
    static let whatIfTables: [TableSpec] = []
}
