extension Schema {
    /// Version 11's statements for this area (see `Schema+Migrations11.swift`).
    static func androidPushStatements(_ dialect: SQLDialect) -> [String] { [] }

    /// The tables version 11 adds for this area.
    static let androidPushTables: [TableSpec] = []
}
