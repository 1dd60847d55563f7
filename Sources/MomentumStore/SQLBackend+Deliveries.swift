import Foundation
import MomentumCore

extension SQLBackend {

    // MARK: The delivery queue

    /// The statement that queues the newly stored inbox entries `keys` for every push
    /// target of the user and every active webhook (`nil` for none): run in the same
    /// transaction as the inbox insert, so that an entry in the inbox is never without its
    /// deliveries. It returns each queued row's key and channel.
    static func deliveryEnqueue(keys: [String], user: String, at: Date) -> SQLStatement? {
        guard !keys.isEmpty else { return nil }
        let values = Array(repeating: "(?)", count: keys.count).joined(separator: ", ")
        let arguments = keys.map(SQLValue.text)
        return SQLStatement(
            """
            INSERT INTO deliveries
              (user_id, notification_key, channel, target_id, due_at, attempts, state, created_at)
            SELECT ?, k.column1, t.channel, t.target_id, ?, 0, 'pending', ?
            FROM (VALUES \(values)) AS k CROSS JOIN push_targets t WHERE t.user_id = ?
            UNION ALL
            SELECT ?, k.column1, 'webhook', w.webhook_id, ?, 0, 'pending', ?
            FROM (VALUES \(values)) AS k CROSS JOIN webhooks w
            WHERE w.disabled_at IS NULL AND (w.kinds IS NULL OR w.kinds <> '')
            ON CONFLICT (user_id, notification_key, channel, target_id) DO NOTHING
            RETURNING notification_key, channel
            """,
            [.text(user), .date(at), .date(at)] + arguments + [.text(user), .text(user), .date(at), .date(at)]
                + arguments)
    }

    /// Implements ``MomentumStore`` `claimDeliveries`; see the protocol for its contract.
    public func claimDeliveries(
        now: Date, lease: TimeInterval, limit: Int
    ) async throws(StoreError) -> [PendingDelivery] {
        let limit = min(max(limit, 1), 10_000)
        let lock = dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        let claim = SQLStatement(
            """
            UPDATE deliveries SET claimed_until = ?
            WHERE (user_id, notification_key, channel, target_id) IN (
              SELECT user_id, notification_key, channel, target_id FROM deliveries
              WHERE state = 'pending' AND due_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
              ORDER BY due_at LIMIT ?\(lock))
            RETURNING user_id, notification_key, channel, target_id, attempts
            """, [.date(now.addingTimeInterval(lease)), .date(now), .date(now), .int(limit)])
        let claimed = try await writeAlone(claim)
        guard !claimed.isEmpty else { return [] }
        var deliveries: [PendingDelivery] = []
        // The notifications and targets of the claimed rows, a few hundred at a time.
        var start = 0
        while start < claimed.count {
            let chunk = claimed[start..<min(claimed.count, start + 200)]
            start += chunk.count
            var arguments: [SQLValue] = []
            for row in chunk {
                arguments += [
                    .text(try row.text(0, "user_id")), .text(try row.text(1, "notification_key")),
                    .text(try row.text(2, "channel")), .text(try row.text(3, "target_id")),
                ]
            }
            let marks = Array(repeating: "(?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
            let statement = SQLStatement(
                """
                SELECT d.user_id, d.channel, d.target_id, d.attempts,
                  n.notification_key, n.kind, n.title, n.body, n.url, n.day, n.habit, n.meant_at, n.expires_at,
                  t.target_id, t.channel, t.address, t.p256dh, t.auth, t.environment, t.created_at,
                  \(Self.webhookColumns("w"))
                FROM deliveries d
                JOIN notifications n ON n.user_id = d.user_id AND n.notification_key = d.notification_key
                LEFT JOIN push_targets t ON d.channel <> 'webhook' AND t.user_id = d.user_id
                  AND t.target_id = d.target_id
                LEFT JOIN webhooks w ON d.channel = 'webhook' AND w.webhook_id = d.target_id
                \(Self.webhookOptionsJoin("w"))
                WHERE (d.user_id, d.notification_key, d.channel, d.target_id) IN (\(marks))
                """, arguments)
            let rows = try await run(
                StoreProgram(writes: false) { () throws(StoreError) in
                    .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
                })
            for row in rows {
                let channelName = try row.text(1, "channel")
                guard let channel = NotificationChannel(rawValue: channelName) else {
                    throw .corrupt("delivery channel '\(channelName)' is unknown")
                }
                deliveries.append(
                    PendingDelivery(
                        user: try row.text(0, "user_id"), notification: try Self.notification(row, from: 4),
                        channel: channel, targetID: try row.text(2, "target_id"),
                        attempts: Int(try row.int(3, "attempts")),
                        pushTarget: row.optionalText(13) == nil ? nil : try Self.pushTarget(row, from: 13),
                        webhook: row.optionalText(20) == nil ? nil : try Self.webhook(row, from: 20)))
            }
        }
        return deliveries
    }

    /// Implements ``MomentumStore`` `finishDeliveries`; see the protocol for its contract.
    public func finishDeliveries(
        _ reports: [DeliveryReport], at: Date, webhookFailureLimit: Int
    ) async throws(StoreError) {
        let at = StoreJSON.canonical(at)
        var statements: [SQLStatement] = []
        for report in reports {
            let delivery = report.delivery
            let key: [SQLValue] = [
                .text(delivery.user), .text(delivery.notification.key), .text(delivery.channel.rawValue),
                .text(delivery.targetID),
            ]
            let condition = "WHERE user_id = ? AND notification_key = ? AND channel = ? AND target_id = ?"
            statements.append(
                Self.queueOutcome(
                    report.outcome, table: "deliveries", at: at, condition: condition, key: key,
                    latency: report.latencyMilliseconds))
            if delivery.channel == .webhook {
                switch report.outcome {
                case .sent:
                    statements.append(
                        SQLStatement(
                            """
                            UPDATE webhooks SET consecutive_failures = 0, last_success_at = ?
                            WHERE webhook_id = ?
                            """, [.date(at), .text(delivery.targetID)]))
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
                                .text(delivery.targetID),
                            ]))
                case .deferred, .dropped: break
                }
            }
        }
        // One transaction for a pass's outcomes, a few hundred statements at a time: no
        // user's projections are touched, so no user's writes need to wait.
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

    /// Implements ``MomentumStore`` `sentNotificationKeys`; see the protocol for its contract.
    public func sentNotificationKeys(of user: String, since: Date) async throws(StoreError) -> Set<String> {
        let statement = SQLStatement(
            """
            SELECT DISTINCT notification_key FROM deliveries
            WHERE user_id = ? AND state = 'sent' AND finished_at >= ?
            """, [.text(user), .date(since)])
        let rows = try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
        return Set(try rows.map { row throws(StoreError) in try row.text(0, "notification_key") })
    }

    /// Implements ``MomentumStore`` `deliveries`; see the protocol for its contract.
    public func deliveries(of user: String, key: String) async throws(StoreError) -> [DeliveryStatus] {
        let statement = SQLStatement(
            """
            SELECT channel, target_id, state, attempts, outcome, due_at, finished_at FROM deliveries
            WHERE user_id = ? AND notification_key = ? ORDER BY channel, target_id
            """, [.text(user), .text(key)])
        let rows = try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
        return try rows.map { row throws(StoreError) in
            let channelName = try row.text(0, "channel")
            guard let channel = NotificationChannel(rawValue: channelName) else {
                throw .corrupt("delivery channel '\(channelName)' is unknown")
            }
            return DeliveryStatus(
                channel: channel, targetID: try row.text(1, "target_id"), state: try row.text(2, "state"),
                attempts: Int(try row.int(3, "attempts")), outcome: row.optionalText(4),
                dueAt: try row.date(5, "due_at"),
                finishedAt: row.optionalDate(6))
        }
    }

    /// Implements ``MomentumStore`` `pruneDeliveries`; see the protocol for its contract.
    @discardableResult
    public func pruneDeliveries(finishedBefore: Date) async throws(StoreError) -> Int {
        try await writeAlone(
            SQLStatement(
                """
                DELETE FROM deliveries WHERE state <> 'pending' AND finished_at < ?
                RETURNING notification_key
                """, [.date(finishedBefore)])
        ).count
    }

    /// Implements ``MomentumStore`` `serverSetting`; see the protocol for its contract.
    public func serverSetting(_ name: String, orInsert value: String) async throws(StoreError) -> String {
        _ = try await writeAlone(
            SQLStatement(
                "INSERT INTO server_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                [.text(name), .text(value)]))
        let statement = SQLStatement("SELECT value FROM server_settings WHERE name = ?", [.text(name)])
        return try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in
                    guard let row = rows[0].first else { throw .corrupt("server setting '\(name)' vanished") }
                    return .done(try row.text(0, "value"))
                }
            })
    }

    /// Inbox entries with the channels their deliveries were queued for (rows of
    /// ``deliveryEnqueue(keys:user:at:)``).
    static func entries(
        _ notifications: [PlannedNotification], stored keys: Set<String>, at: Date, queued rows: [SQLRow]
    ) throws(StoreError) -> [InboxNotification] {
        var channels: [String: [NotificationChannel]] = [:]
        for row in rows {
            let name = try row.text(1, "channel")
            guard let channel = NotificationChannel(rawValue: name) else {
                throw .corrupt("delivery channel '\(name)' is unknown")
            }
            channels[try row.text(0, "notification_key"), default: []].append(channel)
        }
        return notifications.filter { keys.contains($0.key) }.map {
            InboxNotification(notification: $0, createdAt: at, queued: channels[$0.key] ?? [])
        }
    }

    // MARK: Rows

    /// A webhook's columns from `webhooks` as `w` and its options as `wo`
    /// (``webhookOptionsJoin(_:)``), in the order ``webhook(_:from:)`` reads them.
    static func webhookColumns(_ w: String) -> String {
        [
            "webhook_id", "url", "secret", "kinds", "created_at", "disabled_at", "consecutive_failures", "last_error",
            "last_success_at", "last_failure_at",
        ].map { "\(w).\($0)" }.joined(separator: ", ")
            + ", \(w)o.events, \(w)o.legacy_secret, \(w)o.previous_secret, \(w)o.previous_legacy, \(w)o.previous_until"
    }

    /// Joins a webhook's options (event types, secrets) to `webhooks` as `w`.
    static func webhookOptionsJoin(_ w: String) -> String {
        "LEFT JOIN webhook_options \(w)o ON \(w)o.webhook_id = \(w).webhook_id"
    }

    static func webhook(_ row: SQLRow, from i: Int) throws(StoreError) -> Webhook {
        Webhook(
            id: try row.text(i, "webhook_id"), url: try row.text(i + 1, "url"), secret: try row.text(i + 2, "secret"),
            kinds: try row.optionalText(i + 3).map { text throws(StoreError) in try kinds(text) },
            createdAt: try row.date(i + 4, "created_at"), disabledAt: row.optionalDate(i + 5),
            consecutiveFailures: Int(try row.int(i + 6, "consecutive_failures")), lastError: row.optionalText(i + 7),
            lastSuccessAt: row.optionalDate(i + 8), lastFailureAt: row.optionalDate(i + 9),
            events: eventTypes(row.optionalText(i + 10) ?? ""),
            // A webhook without options predates them: its secret is a legacy one.
            legacySecret: row[i + 11].int64.map { $0 != 0 } ?? true, previousSecret: row.optionalText(i + 12),
            previousSecretIsLegacy: row[i + 13].int64 == 1, previousSecretExpiresAt: row.optionalDate(i + 14))
    }

    /// Event types stored as a space-separated list; a name this server does not know is
    /// skipped (a newer server's type).
    static func eventTypes(_ text: String) -> Set<WebhookEventType> {
        Set(text.split(separator: " ").compactMap { WebhookEventType(rawValue: String($0)) })
    }

    static func pushTarget(_ row: SQLRow, from i: Int) throws(StoreError) -> PushTarget {
        let channelName = try row.text(i + 1, "channel")
        guard let channel = NotificationChannel(rawValue: channelName) else {
            throw .corrupt("push target channel '\(channelName)' is unknown")
        }
        return PushTarget(
            id: try row.text(i, "target_id"), channel: channel, address: try row.text(i + 2, "address"),
            p256dh: row.optionalText(i + 3), auth: row.optionalText(i + 4), environment: row.optionalText(i + 5),
            createdAt: try row.date(i + 6, "created_at"))
    }

    /// A notification from its columns: key, kind, title, body, url, day, habit, meant_at,
    /// expires_at.
    static func notification(_ row: SQLRow, from i: Int) throws(StoreError) -> PlannedNotification {
        let kindName = try row.text(i + 1, "kind")
        guard let kind = NotificationKind(rawValue: kindName) else {
            throw .corrupt("notification kind '\(kindName)' is unknown")
        }
        let dayText = try row.text(i + 5, "day")
        guard let day = LocalDay(iso8601: dayText) else { throw .corrupt("notification day '\(dayText)' is not a day") }
        return PlannedNotification(
            key: try row.text(i, "notification_key"), kind: kind, title: try row.text(i + 2, "title"),
            body: try row.text(i + 3, "body"), url: try row.text(i + 4, "url"), day: day,
            habit: row.optionalText(i + 6), at: try row.date(i + 7, "meant_at"),
            expires: try row.date(i + 8, "expires_at"))
    }

    /// Kinds stored as a space-separated list; `nil` for every kind.
    static func kindList(_ kinds: Set<NotificationKind>?) -> String? {
        kinds.map { $0.map(\.rawValue).sorted().joined(separator: " ") }
    }

    static func kinds(_ text: String) throws(StoreError) -> Set<NotificationKind> {
        var kinds = Set<NotificationKind>()
        for name in text.split(separator: " ") {
            guard let kind = NotificationKind(rawValue: String(name)) else {
                throw .corrupt("webhook kind '\(name)' is unknown")
            }
            kinds.insert(kind)
        }
        return kinds
    }

    /// An error text as stored: at most 500 characters.
    static func bounded(_ text: String) -> String { String(text.prefix(500)) }
}

extension SQLBackend {
    /// The update that records a sender's outcome on one row of a delivery queue
    /// (`deliveries` or `webhook_messages`, which share their state columns): sent,
    /// retried at a time, deferred, failed or dropped.
    /// An attempt's `latency` (milliseconds) is recorded with it; an outcome without an
    /// attempt (deferred, dropped) leaves the last one's.
    static func queueOutcome(
        _ outcome: DeliveryOutcome, table: String, at: Date, condition: String, key: [SQLValue],
        latency: Int? = nil
    ) -> SQLStatement {
        let latency: SQLValue = latency.map { .int(max($0, 0)) } ?? .null
        switch outcome {
        case .sent:
            return SQLStatement(
                """
                UPDATE \(table) SET state = 'sent', attempts = attempts + 1, claimed_until = NULL,
                  outcome = NULL, finished_at = ?, latency_ms = ? \(condition)
                """, [.date(at), latency] + key)
        case .retry(let next, let error):
            return SQLStatement(
                """
                UPDATE \(table) SET attempts = attempts + 1, claimed_until = NULL, due_at = ?,
                  outcome = ?, latency_ms = ? \(condition)
                """, [.date(StoreJSON.canonical(next)), .text(bounded(error)), latency] + key)
        case .deferred(let until):
            return SQLStatement(
                "UPDATE \(table) SET claimed_until = NULL, due_at = ? \(condition)",
                [.date(StoreJSON.canonical(until))] + key)
        case .failed(let reason):
            return SQLStatement(
                """
                UPDATE \(table) SET state = 'failed', attempts = attempts + 1, claimed_until = NULL, outcome = ?,
                  finished_at = ?, latency_ms = ? \(condition)
                """, [.text(bounded(reason)), .date(at), latency] + key)
        case .dropped(let reason):
            return SQLStatement(
                """
                UPDATE \(table) SET state = 'dropped', claimed_until = NULL, outcome = ?,
                  finished_at = ? \(condition)
                """, [.text(bounded(reason)), .date(at)] + key)
        }
    }
}
