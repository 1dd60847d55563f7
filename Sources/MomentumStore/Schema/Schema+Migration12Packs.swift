extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): the rule packs operators upload, each version stored, one active per name.
    static func packStatements(_ dialect: SQLDialect) -> [String] {
        []
    }

    /// The tables version 12 adds for this area.
    static let packTables: [TableSpec] = []
}
