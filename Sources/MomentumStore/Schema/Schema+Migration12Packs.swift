extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): the rule packs operators upload, each version stored, one active per name.
    static func packStatements(_ dialect: SQLDialect) -> [String] {
        let real = dialect.type(of: .real)
        let integer = dialect.type(of: .integer)
        return [
            """
            CREATE TABLE pack_versions (
              name TEXT NOT NULL,
              version TEXT NOT NULL,
              document TEXT NOT NULL,
              uploaded_by TEXT NOT NULL,
              uploaded_at \(real) NOT NULL,
              active \(integer) NOT NULL,
              activated_at \(real),
              activated_by TEXT,
              PRIMARY KEY (name, version)
            )
            """,
            // At most one active version of a name, held by the schema too.
            "CREATE UNIQUE INDEX pack_versions_active ON pack_versions (name) WHERE active = 1",
        ]
    }

    /// The tables version 12 adds for this area: `pack_versions`, every uploaded version of
    /// a pack (`document` is the upload as canonical JSON), global (packs are the
    /// deployment's, not a user's).
    static let packTables: [TableSpec] = [
        TableSpec(
            "pack_versions",
            columns: [
                .init("name", .text), .init("version", .text), .init("document", .text), .init("uploaded_by", .text),
                .init("uploaded_at", .real), .init("active", .integer), .init("activated_at", .real, nullable: true),
                .init("activated_by", .text, nullable: true),
            ],
            primaryKey: ["name", "version"], userReference: nil, global: true)
    ]
}
