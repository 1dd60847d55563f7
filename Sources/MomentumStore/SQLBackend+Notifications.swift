import Foundation
import MomentumCore

extension SQLBackend {
    /// Implements ``MomentumStore`` `touchNotifications`; see the protocol for its contract.
    public func touchNotifications(of users: [String], at: Date) async throws(StoreError) {
        let at = StoreJSON.canonical(at)
        var start = 0
        let unique = Array(Set(users)).sorted()
        while start < unique.count {
            let chunk = unique[start..<min(unique.count, start + 200)]
            start += chunk.count
            var arguments: [SQLValue] = []
            for user in chunk { arguments += [.text(user), .date(at), .date(at)] }
            let rows = Array(repeating: "(?, ?, ?, 1)", count: chunk.count).joined(separator: ", ")
            // Only users that exist: a touch for an account deleted meanwhile is nothing.
            _ = try await writeAlone(
                SQLStatement(
                    """
                    INSERT INTO notification_wakes (user_id, next_at, checked_until, touched)
                    SELECT v.column1, v.column2, v.column3, v.column4
                    FROM (VALUES \(rows)) AS v
                    WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = v.column1)
                    ON CONFLICT (user_id) DO UPDATE SET
                      next_at = CASE WHEN notification_wakes.next_at IS NULL
                        OR notification_wakes.next_at > excluded.next_at
                        THEN excluded.next_at ELSE notification_wakes.next_at END,
                      touched = notification_wakes.touched + 1
                    """, arguments))
        }
    }

    /// Implements ``MomentumStore`` `claimNotificationRuns`; see the protocol for its contract.
    public func claimNotificationRuns(
        now: Date, lease: TimeInterval, limit: Int
    ) async throws(StoreError) -> [NotificationClaim] {
        let limit = min(max(limit, 1), 10_000)
        let due: String
        switch dialect {
        case .postgres:
            due = """
                SELECT user_id FROM notification_wakes
                WHERE next_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
                ORDER BY next_at LIMIT ? FOR UPDATE SKIP LOCKED
                """
        case .sqlite:
            // One process, one writer: nothing to skip.
            due = """
                SELECT user_id FROM notification_wakes
                WHERE next_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
                ORDER BY next_at LIMIT ?
                """
        }
        let rows = try await writeAlone(
            SQLStatement(
                """
                UPDATE notification_wakes SET claimed_until = ?
                WHERE user_id IN (\(due))
                RETURNING user_id, checked_until, touched
                """, [.date(now.addingTimeInterval(lease)), .date(now), .date(now), .int(limit)]))
        return try rows.map { row throws(StoreError) in
            NotificationClaim(
                user: try row.text(0, "user_id"), checkedUntil: try row.date(1, "checked_until"),
                touched: try row.int(2, "touched"))
        }
    }

    /// Implements ``MomentumStore`` `finishNotificationRun`; see the protocol for its contract.
    public func finishNotificationRun(
        _ claim: NotificationClaim, now: Date, deliver: [PlannedNotification], nextWake: Date?
    ) async throws(StoreError) -> [InboxNotification] {
        let now = StoreJSON.canonical(now)
        let insert = Self.inboxInsert(deliver, user: claim.user, at: now)
        let wake = SQLStatement(
            """
            UPDATE notification_wakes SET checked_until = ?, claimed_until = NULL,
              next_at = CASE WHEN touched = ? THEN ? ELSE ? END
            WHERE user_id = ?
            """,
            [
                .date(now), .integer(claim.touched), nextWake.map { .date(StoreJSON.canonical($0)) } ?? .null,
                .date(now), .text(claim.user),
            ])
        return try await run(
            StoreProgram(writes: true, user: claim.user) { () throws(StoreError) in
                .query(insert.map { [$0] } ?? []) { inserted throws(StoreError) in
                    let stored = try (inserted.first ?? []).map { row throws(StoreError) in try row.text(0, "key") }
                    let keys = Set(stored)
                    let enqueue = Self.deliveryEnqueue(keys: stored, user: claim.user, at: now)
                    return .execute([wake]) { _ throws(StoreError) in
                        guard let enqueue else {
                            return .done(try Self.entries(deliver, stored: keys, at: now, queued: []))
                        }
                        return .query([enqueue]) { queued throws(StoreError) in
                            .done(try Self.entries(deliver, stored: keys, at: now, queued: queued[0]))
                        }
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `deliverNotifications`; see the protocol for its contract.
    public func deliverNotifications(
        _ notifications: [PlannedNotification], to user: String, at: Date
    ) async throws(StoreError) -> [InboxNotification] {
        let at = StoreJSON.canonical(at)
        guard let insert = Self.inboxInsert(notifications, user: user, at: at) else { return [] }
        return try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .query([insert]) { inserted throws(StoreError) in
                    let stored = try inserted[0].map { row throws(StoreError) in try row.text(0, "key") }
                    let keys = Set(stored)
                    guard let enqueue = Self.deliveryEnqueue(keys: stored, user: user, at: at) else {
                        return .done(try Self.entries(notifications, stored: keys, at: at, queued: []))
                    }
                    return .query([enqueue]) { queued throws(StoreError) in
                        .done(try Self.entries(notifications, stored: keys, at: at, queued: queued[0]))
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `regroupNotification`; see the protocol for its contract.
    @discardableResult
    public func regroupNotification(
        of user: String, key: String, title: String, body: String
    ) async throws(StoreError) -> Bool {
        try await write(
            user,
            SQLStatement(
                "UPDATE notifications SET title = ?, body = ?, read_at = NULL WHERE user_id = ? AND notification_key = ?",
                [.text(title), .text(body), .text(user), .text(key)])) > 0
    }

    /// Implements ``MomentumStore`` `notifications`; see the protocol for its contract.
    public func notifications(
        of user: String, before cursor: (createdAt: Date, key: String)?, limit: Int
    ) async throws(StoreError) -> [InboxNotification] {
        var sql = """
            SELECT notification_key, kind, title, body, url, day, habit, meant_at, expires_at, created_at, read_at
            FROM notifications WHERE user_id = ?
            """
        var arguments: [SQLValue] = [.text(user)]
        if let cursor {
            sql += " AND (created_at < ? OR (created_at = ? AND notification_key < ?))"
            arguments += [.date(cursor.createdAt), .date(cursor.createdAt), .text(cursor.key)]
        }
        sql += " ORDER BY created_at DESC, notification_key DESC LIMIT ?"
        arguments.append(.int(min(max(limit, 1), 1_000)))
        let statement = SQLStatement(sql, arguments)
        let rows = try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
        return try rows.map { row throws(StoreError) in
            InboxNotification(
                notification: try Self.notification(row, from: 0), createdAt: try row.date(9, "created_at"),
                readAt: row.optionalDate(10))
        }
    }

    /// Implements ``MomentumStore`` `unreadNotificationCount`; see the protocol for its contract.
    public func unreadNotificationCount(of user: String) async throws(StoreError) -> Int {
        let statement = SQLStatement(
            "SELECT COUNT(*) FROM notifications WHERE user_id = ? AND read_at IS NULL", [.text(user)])
        return try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in
                    .done(Int(try rows[0].first?.int(0, "count") ?? 0))
                }
            })
    }

    /// Implements ``MomentumStore`` `markNotificationsRead`; see the protocol for its contract.
    @discardableResult
    public func markNotificationsRead(of user: String, keys: [String]?, at: Date) async throws(StoreError) -> Int {
        let at = StoreJSON.canonical(at)
        guard let keys else {
            return try await write(
                user,
                SQLStatement(
                    "UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL",
                    [.date(at), .text(user)]))
        }
        var marked = 0
        var start = 0
        let unique = Array(Set(keys)).sorted()
        while start < unique.count {
            let chunk = unique[start..<min(unique.count, start + 500)]
            start += chunk.count
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            marked += try await write(
                user,
                SQLStatement(
                    """
                    UPDATE notifications SET read_at = ?
                    WHERE user_id = ? AND read_at IS NULL AND notification_key IN (\(marks))
                    """, [.date(at), .text(user)] + chunk.map(SQLValue.text)))
        }
        return marked
    }

    /// One `INSERT … ON CONFLICT DO NOTHING RETURNING` of inbox entries (`nil` for none):
    /// the keys it returns are the ones newly stored.
    static func inboxInsert(_ notifications: [PlannedNotification], user: String, at: Date) -> SQLStatement? {
        guard !notifications.isEmpty else { return nil }
        var arguments: [SQLValue] = []
        var seen = Set<String>()
        for notification in notifications where seen.insert(notification.key).inserted {
            arguments += [
                .text(user), .text(notification.key), .text(notification.kind.rawValue), .text(notification.title),
                .text(notification.body), .text(notification.url), .text(notification.day.description),
                .optional(notification.habit), .date(StoreJSON.canonical(notification.at)),
                .date(StoreJSON.canonical(notification.expires)), .date(at),
            ]
        }
        let rows = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: seen.count).joined(separator: ", ")
        return SQLStatement(
            """
            INSERT INTO notifications
              (user_id, notification_key, kind, title, body, url, day, habit, meant_at, expires_at, created_at)
            VALUES \(rows)
            ON CONFLICT (user_id, notification_key) DO NOTHING
            RETURNING notification_key AS key
            """, arguments)
    }
}
