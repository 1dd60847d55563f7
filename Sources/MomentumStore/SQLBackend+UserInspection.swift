import Foundation

extension SQLBackend {
    // MARK: User inspection

    /// Implements ``MomentumStore`` `recentDeliveries`; see the protocol for its contract.
    public func recentDeliveries(of user: String, limit: Int) async throws(StoreError) -> [UserDelivery] {
        try await read(
            SQLStatement(
                """
                SELECT d.notification_key, COALESCE(n.kind, ''), d.channel, d.state, d.attempts, d.outcome,
                d.created_at, d.finished_at FROM deliveries d
                LEFT JOIN notifications n ON n.user_id = d.user_id AND n.notification_key = d.notification_key
                WHERE d.user_id = ? ORDER BY d.created_at DESC, d.notification_key, d.channel, d.target_id LIMIT ?
                """, [.text(user), .int(max(0, min(limit, 1_000)))])
        ).map { row throws(StoreError) in
            UserDelivery(
                notification: try row.text(0, "notification_key"), kind: try row.text(1, "kind"),
                channel: try row.text(2, "channel"), state: try row.text(3, "state"),
                attempts: Int(try row.int(4, "attempts")), outcome: row.optionalText(5),
                createdAt: try row.date(6, "created_at"), finishedAt: row.optionalDate(7))
        }
    }
}
