extension Schema {
    /// Version 11's statements for this area (see `Schema+Migrations11.swift`): the mail
    /// outbox, the single-use links that mails carry, and the verified email addresses.
    static func mailStatements(_ dialect: SQLDialect) -> [String] {
        let real = dialect.type(of: .real)
        let integer = dialect.type(of: .integer)
        return [
            """
            CREATE TABLE mail_outbox (
              mail_id TEXT NOT NULL,
              recipient TEXT NOT NULL,
              subject TEXT NOT NULL,
              body TEXT NOT NULL,
              due_at \(real) NOT NULL,
              attempts \(integer) NOT NULL,
              state TEXT NOT NULL,
              claimed_until \(real),
              last_error TEXT,
              created_at \(real) NOT NULL,
              finished_at \(real),
              PRIMARY KEY (mail_id)
            )
            """,
            """
            CREATE TABLE account_links (
              token_hash TEXT NOT NULL,
              user_id TEXT NOT NULL,
              purpose TEXT NOT NULL,
              email TEXT NOT NULL,
              created_at \(real) NOT NULL,
              expires_at \(real) NOT NULL,
              used_at \(real),
              PRIMARY KEY (token_hash),
              FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
            )
            """,
            """
            CREATE TABLE verified_emails (
              user_id TEXT NOT NULL,
              email TEXT NOT NULL,
              verified_at \(real) NOT NULL,
              PRIMARY KEY (user_id),
              FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
            )
            """,
        ]
    }

    /// The tables version 11 adds for this area.
    static let mailTables: [TableSpec] = [
        // The mails waiting to be sent, and those sent or given up lately: configuration of
        // the server's work, not a user's data (an address, not an account).
        TableSpec(
            "mail_outbox",
            columns: [
                .init("mail_id", .text), .init("recipient", .text), .init("subject", .text), .init("body", .text),
                .init("due_at", .real), .init("attempts", .integer), .init("state", .text),
                .init("claimed_until", .real, nullable: true), .init("last_error", .text, nullable: true),
                .init("created_at", .real), .init("finished_at", .real, nullable: true),
            ],
            primaryKey: ["mail_id"], userReference: nil, global: true),
        // A link is looked up by its token's hash before its user is known: global, like
        // `invitations`, and deleted with its account.
        TableSpec(
            "account_links",
            columns: [
                .init("token_hash", .text), .init("user_id", .text), .init("purpose", .text), .init("email", .text),
                .init("created_at", .real), .init("expires_at", .real), .init("used_at", .real, nullable: true),
            ],
            primaryKey: ["token_hash"], global: true),
        TableSpec(
            "verified_emails",
            columns: [.init("user_id", .text), .init("email", .text), .init("verified_at", .real)],
            primaryKey: ["user_id"]),
    ]
}
