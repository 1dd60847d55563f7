extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): what the
    /// console reads of deliveries and notifications.
    ///
    /// - `latency_ms` on both delivery queues (`deliveries`, `webhook_messages`): how long
    ///   the last attempt took, in milliseconds (`NULL` before version 12 and for rows never
    ///   attempted).
    /// - `notification_counts`: what the scheduler and the senders did, per hour, kind,
    ///   channel, outcome and reason, summed by every instance (so every instance's console
    ///   shows the same numbers); rows older than a week are pruned.
    /// - Indexes for a webhook's last deliveries on both queues.
    static func consoleReadStatements(_ dialect: SQLDialect) -> [String] {
        let integer = dialect.type(of: .integer)
        let real = dialect.type(of: .real)
        return [
            "ALTER TABLE deliveries ADD COLUMN latency_ms \(integer)",
            "ALTER TABLE webhook_messages ADD COLUMN latency_ms \(integer)",
            """
            CREATE TABLE notification_counts (
              hour \(real) NOT NULL,
              kind TEXT NOT NULL,
              channel TEXT NOT NULL,
              outcome TEXT NOT NULL,
              reason TEXT NOT NULL,
              count \(integer) NOT NULL,
              PRIMARY KEY (hour, kind, channel, outcome, reason)
            )
            """,
            "CREATE INDEX deliveries_webhook ON deliveries (target_id, created_at) WHERE channel = 'webhook'",
            "CREATE INDEX webhook_messages_webhook ON webhook_messages (webhook_id, created_at)",
        ]
    }

    /// The tables version 12 adds for this area.
    static let consoleReadTables: [TableSpec] = [notificationCounts]

    /// Counts of notifications per hour (`hour`: the hour's first instant), kind, channel
    /// (`inbox` for the scheduler's own), outcome (`scheduled`, `sent`, `retried`,
    /// `deferred`, `failed`, `dropped`) and, for a drop, its reason code (`''` otherwise).
    static let notificationCounts = TableSpec(
        "notification_counts",
        columns: [
            .init("hour", .real), .init("kind", .text), .init("channel", .text), .init("outcome", .text),
            .init("reason", .text), .init("count", .integer),
        ],
        primaryKey: ["hour", "kind", "channel", "outcome", "reason"], userReference: nil, global: true)
}
