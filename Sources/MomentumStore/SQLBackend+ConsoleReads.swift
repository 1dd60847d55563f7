import Foundation

extension SQLBackend {
    // MARK: What the console reads

    /// Implements ``MomentumStore`` `addNotificationCounts`; see the protocol for its contract.
    public func addNotificationCounts(_ counts: [NotificationCount]) async throws(StoreError) {
        let statements = counts.filter { $0.count > 0 }.map { count in
            SQLStatement(
                """
                INSERT INTO notification_counts (hour, kind, channel, outcome, reason, count) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (hour, kind, channel, outcome, reason)
                DO UPDATE SET count = notification_counts.count + excluded.count
                """,
                [
                    .date(NotificationCount.hour(of: count.hour)), .text(String(count.kind.prefix(64))),
                    .text(String(count.channel.prefix(64))), .text(String(count.outcome.prefix(64))),
                    .text(String(count.reason.prefix(64))), .int(count.count),
                ])
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

    /// Implements ``MomentumStore`` `notificationCounts`; see the protocol for its contract.
    public func notificationCounts(since: Date) async throws(StoreError) -> [NotificationCount] {
        let statement = SQLStatement(
            """
            SELECT hour, kind, channel, outcome, reason, count FROM notification_counts WHERE hour >= ?
            ORDER BY hour, kind, channel, outcome, reason
            """, [.date(since)])
        let rows = try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
        return try rows.map { row throws(StoreError) in
            NotificationCount(
                hour: try row.date(0, "hour"), kind: try row.text(1, "kind"), channel: try row.text(2, "channel"),
                outcome: try row.text(3, "outcome"), reason: try row.text(4, "reason"),
                count: Int(try row.int(5, "count")))
        }
    }

    /// Implements ``MomentumStore`` `pruneNotificationCounts`; see the protocol for its contract.
    @discardableResult
    public func pruneNotificationCounts(before: Date) async throws(StoreError) -> Int {
        try await writeAlone(
            SQLStatement("DELETE FROM notification_counts WHERE hour < ? RETURNING kind", [.date(before)])
        ).count
    }

    /// Implements ``MomentumStore`` `webhookTraffic`; see the protocol for its contract.
    public func webhookTraffic(since: Date) async throws(StoreError) -> [WebhookTraffic] {
        let statement = SQLStatement(
            """
            SELECT target_id, state, COUNT(*), CAST(SUM(latency_ms) AS BIGINT), COUNT(latency_ms) FROM deliveries
            WHERE channel = 'webhook' AND state <> 'pending' AND finished_at >= ? GROUP BY target_id, state
            UNION ALL
            SELECT webhook_id, state, COUNT(*), CAST(SUM(latency_ms) AS BIGINT), COUNT(latency_ms) FROM webhook_messages
            WHERE state <> 'pending' AND finished_at >= ? GROUP BY webhook_id, state
            UNION ALL
            SELECT target_id, state, COUNT(*), NULL, 0 FROM deliveries
            WHERE channel = 'webhook' AND state = 'pending' GROUP BY target_id, state
            UNION ALL
            SELECT webhook_id, state, COUNT(*), NULL, 0 FROM webhook_messages
            WHERE state = 'pending' GROUP BY webhook_id, state
            """, [.date(since), .date(since)])
        let rows = try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
        var traffic: [String: WebhookTraffic] = [:]
        for row in rows {
            let id = try row.text(0, "webhook_id")
            let count = Int(try row.int(2, "count"))
            var entry = traffic[id] ?? WebhookTraffic(webhookID: id)
            switch try row.text(1, "state") {
            case "sent":
                entry.sent += count
                entry.latencyTotal += Int(row[3].int64 ?? 0)
                entry.latencyCount += Int(row[4].int64 ?? 0)
            case "failed": entry.failed += count
            case "dropped": entry.dropped += count
            case "pending": entry.pending += count
            default: break
            }
            traffic[id] = entry
        }
        return traffic.values.sorted { $0.webhookID < $1.webhookID }
    }

    /// Implements ``MomentumStore`` `webhookDeliveries`; see the protocol for its contract.
    public func webhookDeliveries(of webhook: String, limit: Int) async throws(StoreError) -> [WebhookDelivery] {
        let limit = min(max(limit, 1), 1000)
        let statement = SQLStatement(
            """
            SELECT * FROM (
              SELECT 'notification' AS queue, d.user_id, d.notification_key, n.kind AS type, d.state, d.attempts,
                d.outcome, d.created_at, d.due_at, d.finished_at, d.latency_ms
              FROM deliveries d JOIN notifications n
                ON n.user_id = d.user_id AND n.notification_key = d.notification_key
              WHERE d.channel = 'webhook' AND d.target_id = ?
              ORDER BY d.created_at DESC LIMIT ?) AS a
            UNION ALL
            SELECT * FROM (
              SELECT 'event' AS queue, user_id, message_id, type, state, attempts, outcome, created_at, due_at,
                finished_at, latency_ms
              FROM webhook_messages WHERE webhook_id = ?
              ORDER BY created_at DESC LIMIT ?) AS b
            ORDER BY created_at DESC, queue, user_id, notification_key LIMIT ?
            """, [.text(webhook), .int(limit), .text(webhook), .int(limit), .int(limit)])
        let rows = try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
        return try rows.map { row throws(StoreError) in
            let queue = try row.text(0, "queue") == "event" ? WebhookQueue.event : .notification
            return WebhookDelivery(
                id: WebhookDeliveryID(
                    queue: queue, user: try row.text(1, "user_id"), key: try row.text(2, "key"), webhookID: webhook),
                type: try row.text(3, "type"), state: try row.text(4, "state"),
                attempts: Int(try row.int(5, "attempts")), outcome: row.optionalText(6),
                createdAt: try row.date(7, "created_at"), dueAt: try row.date(8, "due_at"),
                finishedAt: row.optionalDate(9), latencyMilliseconds: row[10].int64.map { Int($0) })
        }
    }

    /// Implements ``MomentumStore`` `retryWebhookDelivery`; see the protocol for its contract.
    public func retryWebhookDelivery(_ id: WebhookDeliveryID, at: Date) async throws(StoreError) -> WebhookRetry {
        let (table, condition, key): (String, String, [SQLValue]) =
            switch id.queue {
            case .notification:
                (
                    "deliveries", "user_id = ? AND notification_key = ? AND channel = 'webhook' AND target_id = ?",
                    [.text(id.user), .text(id.key), .text(id.webhookID)]
                )
            case .event:
                (
                    "webhook_messages", "user_id = ? AND message_id = ? AND webhook_id = ?",
                    [.text(id.user), .text(id.key), .text(id.webhookID)]
                )
            }
        let at = StoreJSON.canonical(at)
        let update = SQLStatement(
            """
            UPDATE \(table) SET state = 'pending', due_at = ?, claimed_until = NULL, finished_at = NULL
            WHERE \(condition) AND (state <> 'pending' OR claimed_until IS NULL OR claimed_until <= ?)
            RETURNING state
            """, [.date(at)] + key + [.date(at)])
        let exists = SQLStatement("SELECT 1 FROM \(table) WHERE \(condition)", key)
        return try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                .query([update, exists]) { rows throws(StoreError) in
                    if !rows[0].isEmpty { return .done(.queued) }
                    return .done(rows[1].isEmpty ? .notFound : .inFlight)
                }
            })
    }
}
