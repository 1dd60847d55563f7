extension Schema {
    /// Version 11's statements for this area (see `Schema+Migrations11.swift`): the
    /// identities at app identity providers that sign in to accounts. Global: an identity is
    /// looked up by provider and subject before its user is known.
    static func identityStatements(_ dialect: SQLDialect) -> [String] {
        [
            """
            CREATE TABLE identities (
              provider TEXT NOT NULL,
              subject TEXT NOT NULL,
              user_id TEXT NOT NULL,
              email TEXT,
              linked_at \(dialect.type(of: .real)) NOT NULL,
              PRIMARY KEY (provider, subject),
              UNIQUE (user_id, provider),
              FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
            )
            """
        ]
    }

    /// The tables version 11 adds for this area.
    static let identityTables: [TableSpec] = [
        TableSpec(
            "identities",
            columns: [
                .init("provider", .text), .init("subject", .text), .init("user_id", .text),
                .init("email", .text, nullable: true), .init("linked_at", .real),
            ],
            primaryKey: ["provider", "subject"], uniqueKeys: [["user_id", "provider"]], global: true)
    ]
}
