import Foundation
import MomentumCore

extension SQLBackend {
    // MARK: Push targets

    /// Implements ``MomentumStore`` `savePushTarget`; see the protocol for its contract.
    public func savePushTarget(_ target: PushTarget, of user: String) async throws(StoreError) -> Bool {
        let insert = SQLStatement(
            """
            INSERT INTO push_targets (user_id, target_id, channel, address, p256dh, auth, environment, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, target_id) DO UPDATE SET
              p256dh = excluded.p256dh, auth = excluded.auth, environment = excluded.environment
            """,
            [
                .text(user), .text(target.id), .text(target.channel.rawValue), .text(target.address),
                .optional(target.p256dh), .optional(target.auth), .optional(target.environment),
                .date(StoreJSON.canonical(target.createdAt)),
            ])
        // A browser or phone signed in to another account now belongs to this one: it stops
        // receiving the other account's notifications.
        let elsewhere = SQLStatement(
            "DELETE FROM push_targets WHERE target_id = ? AND user_id <> ?", [.text(target.id), .text(user)])
        let existing = SQLStatement(
            "SELECT 1 FROM push_targets WHERE user_id = ? AND target_id = ?", [.text(user), .text(target.id)])
        return try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .query([existing]) { rows throws(StoreError) in
                    let new = rows[0].isEmpty
                    return .execute([insert, elsewhere]) { _ throws(StoreError) in .done(new) }
                }
            })
    }

    /// Implements ``MomentumStore`` `pushTargets`; see the protocol for its contract.
    public func pushTargets(of user: String) async throws(StoreError) -> [PushTarget] {
        let statement = SQLStatement(
            """
            SELECT target_id, channel, address, p256dh, auth, environment, created_at
            FROM push_targets WHERE user_id = ? ORDER BY created_at, target_id
            """, [.text(user)])
        let rows = try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
        return try rows.map { row throws(StoreError) in try Self.pushTarget(row, from: 0) }
    }

    /// Implements ``MomentumStore`` `removePushTarget`; see the protocol for its contract.
    @discardableResult
    public func removePushTarget(_ id: String, of user: String) async throws(StoreError) -> Bool {
        try await write(
            user,
            SQLStatement("DELETE FROM push_targets WHERE user_id = ? AND target_id = ?", [.text(user), .text(id)]))
            > 0
    }

    // MARK: Webhooks

    /// Implements ``MomentumStore`` `createWebhook`; see the protocol for its contract.
    public func createWebhook(_ webhook: Webhook) async throws(StoreError) {
        let insert = SQLStatement(
            """
            INSERT INTO webhooks (webhook_id, url, secret, kinds, created_at, consecutive_failures)
            VALUES (?, ?, ?, ?, ?, 0)
            """,
            [
                .text(webhook.id), .text(webhook.url), .text(webhook.secret),
                .optional(Self.kindList(webhook.kinds)),
                .date(StoreJSON.canonical(webhook.createdAt)),
            ])
        let options = SQLStatement(
            """
            INSERT INTO webhook_options
              (webhook_id, events, legacy_secret, previous_secret, previous_legacy, previous_until)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(webhook.id), .text(webhook.events.map(\.rawValue).sorted().joined(separator: " ")),
                .bool(webhook.legacySecret), .optional(webhook.previousSecret),
                webhook.previousSecret == nil ? .null : .bool(webhook.previousSecretIsLegacy),
                webhook.previousSecretExpiresAt.map { .date(StoreJSON.canonical($0)) } ?? .null,
            ])
        _ = try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                .execute([insert, options]) { _ throws(StoreError) in .done(()) }
            })
    }

    /// Implements ``MomentumStore`` `webhooks`; see the protocol for its contract.
    public func webhooks() async throws(StoreError) -> [Webhook] {
        let statement = SQLStatement(
            """
            SELECT \(Self.webhookColumns("w")) FROM webhooks w \(Self.webhookOptionsJoin("w"))
            ORDER BY w.created_at, w.webhook_id
            """, [])
        let rows = try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
        return try rows.map { row throws(StoreError) in try Self.webhook(row, from: 0) }
    }

    /// Implements ``MomentumStore`` `removeWebhook`; see the protocol for its contract.
    @discardableResult
    public func removeWebhook(_ id: String) async throws(StoreError) -> Bool {
        // Its options and event messages go with it (its notification deliveries are
        // dropped when they come up).
        let statements = [
            SQLStatement("DELETE FROM webhook_options WHERE webhook_id = ?", [.text(id)]),
            SQLStatement("DELETE FROM webhook_messages WHERE webhook_id = ?", [.text(id)]),
            SQLStatement("DELETE FROM webhooks WHERE webhook_id = ?", [.text(id)]),
        ]
        return try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                .execute(statements) { counts throws(StoreError) in .done(counts[2] > 0) }
            })
    }

    /// Implements ``MomentumStore`` `setWebhookEnabled`; see the protocol for its contract.
    @discardableResult
    public func setWebhookEnabled(_ id: String, _ enabled: Bool, at: Date) async throws(StoreError) -> Bool {
        let statement =
            enabled
            ? SQLStatement(
                """
                UPDATE webhooks SET disabled_at = NULL, consecutive_failures = 0
                WHERE webhook_id = ? RETURNING webhook_id
                """, [.text(id)])
            : SQLStatement(
                """
                UPDATE webhooks SET disabled_at = COALESCE(disabled_at, ?)
                WHERE webhook_id = ? RETURNING webhook_id
                """, [.date(StoreJSON.canonical(at)), .text(id)])
        return try await writeAlone(statement).count > 0
    }
}
