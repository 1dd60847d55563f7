extension Schema {
    /// Version 11's statements for this area (see `Schema+Migrations11.swift`): the stream
    /// tickets a browser on another origin opens the change stream with.
    static func streamTicketStatements(_ dialect: SQLDialect) -> [String] {
        let real = dialect.type(of: .real)
        return [
            """
            CREATE TABLE stream_tickets (
              user_id TEXT NOT NULL,
              ticket_hash TEXT NOT NULL,
              token_hash TEXT NOT NULL,
              expires_at \(real) NOT NULL,
              PRIMARY KEY (user_id, ticket_hash),
              FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
            )
            """
        ]
    }

    /// The tables version 11 adds for this area.
    static let streamTicketTables: [TableSpec] = [streamTickets]

    /// A stream ticket's SHA-256, the device session that asked for it (by its token's
    /// hash) and when it stops opening anything; a ticket is deleted when it is used.
    static let streamTickets = TableSpec(
        "stream_tickets",
        columns: [
            .init("user_id", .text), .init("ticket_hash", .text), .init("token_hash", .text),
            .init("expires_at", .real),
        ],
        primaryKey: ["user_id", "ticket_hash"])
}
