extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): review flags
    /// an operator confirmed. A confirmed flag stays open (its user's posts stay held) but
    /// leaves the list awaiting review, and its evidence does not flag the user again.
    static func reviewFlagStatements(_ dialect: SQLDialect) -> [String] {
        let real = dialect.type(of: .real)
        return [
            """
            CREATE TABLE review_flag_confirmations (
              user_id TEXT NOT NULL,
              flag_id TEXT NOT NULL,
              confirmed_by TEXT NOT NULL,
              confirmed_at \(real) NOT NULL,
              PRIMARY KEY (user_id, flag_id),
              FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
            )
            """
        ]
    }

    /// The tables version 12 adds for this area.
    static let reviewFlagTables: [TableSpec] = [reviewFlagConfirmations]

    /// A review flag an operator confirmed: who (the operator's id) and when.
    static let reviewFlagConfirmations = TableSpec(
        "review_flag_confirmations",
        columns: [
            .init("user_id", .text), .init("flag_id", .text), .init("confirmed_by", .text),
            .init("confirmed_at", .real),
        ],
        primaryKey: ["user_id", "flag_id"])
}
