extension Schema {
    /// Version 11's statements for this area (see `Schema+Migrations11.swift`): each
    /// webhook's event types and signing secrets (`webhook_options`), and the queue of
    /// event messages to webhooks (`webhook_messages`).
    ///
    /// Webhooks made before version 11 signed with the UTF-8 bytes of their secret; their
    /// rows say so (`legacy_secret = 1`) so that those secrets keep working unchanged.
    static func webhookEventStatements(_ dialect: SQLDialect) -> [String] {
        let real = dialect == .postgres ? "DOUBLE PRECISION" : "REAL"
        let integer = dialect == .postgres ? "BIGINT" : "INTEGER"
        return [
            """
            CREATE TABLE webhook_options (
              webhook_id TEXT NOT NULL,
              events TEXT NOT NULL,
              legacy_secret \(integer) NOT NULL,
              previous_secret TEXT,
              previous_legacy \(integer),
              previous_until \(real),
              PRIMARY KEY (webhook_id)
            )
            """,
            "INSERT INTO webhook_options (webhook_id, events, legacy_secret) SELECT webhook_id, '', 1 FROM webhooks",
            """
            CREATE TABLE webhook_messages (
              user_id TEXT NOT NULL,
              message_id TEXT NOT NULL,
              webhook_id TEXT NOT NULL,
              type TEXT NOT NULL,
              body TEXT NOT NULL,
              occurred_at \(real) NOT NULL,
              due_at \(real) NOT NULL,
              attempts \(integer) NOT NULL,
              state TEXT NOT NULL,
              claimed_until \(real),
              outcome TEXT,
              created_at \(real) NOT NULL,
              finished_at \(real),
              PRIMARY KEY (user_id, message_id, webhook_id),
              FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX webhook_messages_due ON webhook_messages (due_at) WHERE state = 'pending'",
            "CREATE INDEX webhook_messages_finished ON webhook_messages (finished_at) WHERE state <> 'pending'",
        ]
    }

    /// The tables version 11 adds for this area.
    static let webhookEventTables: [TableSpec] = [webhookOptions, webhookMessages]

    /// Each webhook's event types (space-separated; empty for none), whether its secret is
    /// a legacy one (the HMAC key is its UTF-8 bytes, not the base64 after `whsec_`), and
    /// the secret it had before a rotation (and whether that one was legacy) with the
    /// instant it stops signing.
    static let webhookOptions = TableSpec(
        "webhook_options",
        columns: [
            .init("webhook_id", .text), .init("events", .text), .init("legacy_secret", .integer),
            .init("previous_secret", .text, nullable: true), .init("previous_legacy", .integer, nullable: true),
            .init("previous_until", .real, nullable: true),
        ],
        primaryKey: ["webhook_id"], userReference: nil, global: true)

    /// Event messages (`unlock.created`, `streak.lost`, …) on their way to each webhook that
    /// takes their type: the exact body posted, and the delivery state.
    static let webhookMessages = TableSpec(
        "webhook_messages",
        columns: [
            .init("user_id", .text), .init("message_id", .text), .init("webhook_id", .text), .init("type", .text),
            .init("body", .text), .init("occurred_at", .real), .init("due_at", .real), .init("attempts", .integer),
            .init("state", .text), .init("claimed_until", .real, nullable: true),
            .init("outcome", .text, nullable: true), .init("created_at", .real),
            .init("finished_at", .real, nullable: true),
            // Added by version 12: the last attempt's latency.
            .init("latency_ms", .integer, nullable: true),
            // Added by version 13: the trace context of the work that queued it.
            .init("trace_parent", .text, nullable: true), .init("trace_state", .text, nullable: true),
        ],
        primaryKey: ["user_id", "message_id", "webhook_id"])
}
