import Foundation

extension SQLBackend {
    // MARK: Webhook events

    /// Implements ``MomentumStore`` `queueWebhookEvents`; see the protocol for its contract.
    /// Each message keeps its event's trace context (``WebhookEvent/origin``).
    @discardableResult
    public func queueWebhookEvents(_ events: [WebhookEvent], at: Date) async throws(StoreError) -> Int {
        let contains = dialect == .postgres ? "strpos" : "instr"
        var queued = 0
        for (user, mine) in Dictionary(grouping: events, by: \.user).sorted(by: { $0.key < $1.key }) {
            let statements = mine.map { event in
                let origin = event.origin
                return SQLStatement(
                    """
                    INSERT INTO webhook_messages
                      (user_id, message_id, webhook_id, type, body, occurred_at, due_at, attempts, state, created_at,
                       trace_parent, trace_state)
                    SELECT ?, ?, w.webhook_id, ?, ?, ?, ?, 0, 'pending', ?, ?, ?
                    FROM webhooks w JOIN webhook_options o ON o.webhook_id = w.webhook_id
                    WHERE w.disabled_at IS NULL AND w.created_at <= ? AND \(contains)(' ' || o.events || ' ', ?) > 0
                    ON CONFLICT (user_id, message_id, webhook_id) DO NOTHING
                    """,
                    [
                        .text(user), .text(event.id), .text(event.type.rawValue), .text(event.body),
                        .date(StoreJSON.canonical(event.occurredAt)), .date(at), .date(at),
                        origin.map { .text($0.traceparent) } ?? .null, origin?.tracestate.map { .text($0) } ?? .null,
                        .date(StoreJSON.canonical(event.occurredAt)), .text(" \(event.type.rawValue) "),
                    ])
            }
            queued += try await run(
                StoreProgram(writes: true, user: user) { () throws(StoreError) in
                    .execute(statements) { counts throws(StoreError) in .done(counts.reduce(0, +)) }
                })
        }
        return queued
    }

    /// Implements ``MomentumStore`` `webhookEventTypes`; see the protocol for its contract.
    public func webhookEventTypes() async throws(StoreError) -> Set<WebhookEventType> {
        let statement = SQLStatement(
            """
            SELECT DISTINCT o.events FROM webhook_options o JOIN webhooks w ON w.webhook_id = o.webhook_id
            WHERE w.disabled_at IS NULL AND o.events <> ''
            """)
        let rows = try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
        return rows.reduce(into: Set<WebhookEventType>()) { types, row in
            types.formUnion(Self.eventTypes(row.optionalText(0) ?? ""))
        }
    }

    /// Implements ``MomentumStore`` `rotateWebhookSecret`; see the protocol for its contract.
    public func rotateWebhookSecret(
        _ id: String, to secret: String, previous: String, previousIsLegacy: Bool, previousUntil: Date
    ) async throws(StoreError) -> Bool {
        let exists = SQLStatement("SELECT 1 FROM webhooks WHERE webhook_id = ?", [.text(id)])
        let update = SQLStatement("UPDATE webhooks SET secret = ? WHERE webhook_id = ?", [.text(secret), .text(id)])
        let options = SQLStatement(
            """
            INSERT INTO webhook_options
              (webhook_id, events, legacy_secret, previous_secret, previous_legacy, previous_until)
            VALUES (?, '', 0, ?, ?, ?)
            ON CONFLICT (webhook_id) DO UPDATE SET legacy_secret = 0, previous_secret = excluded.previous_secret,
              previous_legacy = excluded.previous_legacy, previous_until = excluded.previous_until
            """, [.text(id), .text(previous), .bool(previousIsLegacy), .date(StoreJSON.canonical(previousUntil))])
        return try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                .query([exists]) { rows throws(StoreError) in
                    guard !rows[0].isEmpty else { return .done(false) }
                    return .execute([update, options]) { _ throws(StoreError) in .done(true) }
                }
            })
    }

    /// Implements ``MomentumStore`` `claimWebhookMessages`; see the protocol for its contract.
    public func claimWebhookMessages(
        now: Date, lease: TimeInterval, limit: Int
    ) async throws(StoreError) -> [PendingWebhookMessage] {
        let limit = min(max(limit, 1), 10_000)
        let lock = dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        let claim = SQLStatement(
            """
            UPDATE webhook_messages SET claimed_until = ?
            WHERE (user_id, message_id, webhook_id) IN (
              SELECT user_id, message_id, webhook_id FROM webhook_messages
              WHERE state = 'pending' AND due_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
              ORDER BY due_at LIMIT ?\(lock))
            RETURNING user_id, message_id, webhook_id, type, body, occurred_at, attempts, trace_parent, trace_state
            """, [.date(now.addingTimeInterval(lease)), .date(now), .date(now), .int(limit)])
        let claimed = try await writeAlone(claim)
        guard !claimed.isEmpty else { return [] }
        let webhooks = Dictionary(try await webhooks().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try claimed.map { row throws(StoreError) in
            let typeName = try row.text(3, "type")
            guard let type = WebhookEventType(rawValue: typeName) else {
                throw .corrupt("webhook event type '\(typeName)' is unknown")
            }
            let webhookID = try row.text(2, "webhook_id")
            return PendingWebhookMessage(
                user: try row.text(0, "user_id"), id: try row.text(1, "message_id"), type: type,
                body: try row.text(4, "body"), occurredAt: try row.date(5, "occurred_at"), webhookID: webhookID,
                attempts: Int(try row.int(6, "attempts")), webhook: webhooks[webhookID],
                origin: TraceOrigin(traceparent: row.optionalText(7), tracestate: row.optionalText(8)))
        }
    }

    /// Implements ``MomentumStore`` `finishWebhookMessages`; see the protocol for its contract.
    public func finishWebhookMessages(
        _ reports: [WebhookMessageReport], at: Date, webhookFailureLimit: Int
    ) async throws(StoreError) {
        let at = StoreJSON.canonical(at)
        var statements: [SQLStatement] = []
        for report in reports {
            let message = report.message
            let key: [SQLValue] = [.text(message.user), .text(message.id), .text(message.webhookID)]
            let condition = "WHERE user_id = ? AND message_id = ? AND webhook_id = ?"
            statements.append(
                Self.queueOutcome(
                    report.outcome, table: "webhook_messages", at: at, condition: condition, key: key,
                    latency: report.latencyMilliseconds))
            if case .sent = report.outcome {
                statements.append(
                    SQLStatement(
                        "UPDATE webhooks SET consecutive_failures = 0, last_success_at = ? WHERE webhook_id = ?",
                        [.date(at), .text(message.webhookID)]))
            }
            switch report.outcome {
            case .retry(_, let error), .failed(let error):
                statements.append(
                    SQLStatement(
                        """
                        UPDATE webhooks SET consecutive_failures = consecutive_failures + 1, last_error = ?,
                          last_failure_at = ?,
                          disabled_at = CASE WHEN disabled_at IS NULL AND consecutive_failures + 1 >= ?
                            THEN ? ELSE disabled_at END
                        WHERE webhook_id = ?
                        """,
                        [
                            .text(Self.bounded(error)), .date(at), .int(max(webhookFailureLimit, 1)), .date(at),
                            .text(message.webhookID),
                        ]))
            case .sent, .deferred, .dropped: break
            }
        }
        var start = 0
        while start < statements.count {
            let batch = Array(statements[start..<min(statements.count, start + 400)])
            start += batch.count
            _ = try await run(
                StoreProgram(writes: true) { () throws(StoreError) in
                    .execute(batch) { _ throws(StoreError) in .done(()) }
                })
        }
    }

    /// Implements ``MomentumStore`` `webhookMessages`; see the protocol for its contract.
    public func webhookMessages(of user: String) async throws(StoreError) -> [WebhookMessageStatus] {
        let statement = SQLStatement(
            """
            SELECT message_id, type, webhook_id, state, attempts, body FROM webhook_messages
            WHERE user_id = ? ORDER BY created_at, occurred_at, message_id, webhook_id
            """, [.text(user)])
        let rows = try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
        return try rows.map { row throws(StoreError) in
            let typeName = try row.text(1, "type")
            guard let type = WebhookEventType(rawValue: typeName) else {
                throw .corrupt("webhook event type '\(typeName)' is unknown")
            }
            return WebhookMessageStatus(
                id: try row.text(0, "message_id"), type: type, webhookID: try row.text(2, "webhook_id"),
                state: try row.text(3, "state"), attempts: Int(try row.int(4, "attempts")),
                body: try row.text(5, "body"))
        }
    }

    /// Implements ``MomentumStore`` `pruneWebhookMessages`; see the protocol for its contract.
    @discardableResult
    public func pruneWebhookMessages(finishedBefore: Date) async throws(StoreError) -> Int {
        try await writeAlone(
            SQLStatement(
                """
                DELETE FROM webhook_messages WHERE state <> 'pending' AND finished_at < ?
                RETURNING message_id
                """, [.date(finishedBefore)])
        ).count
    }
}
