import Foundation
import GRDB
import MomentumCore

extension ClientDatabase {
    /// What the device keeps of the server's rules: the versions it last announced, and its
    /// dashboard while those are newer than the device's.
    struct ServerRules: Sendable {
        /// The versions the server last sent (JSON of `RuleVersions`); `nil` before the first
        /// sync, or when the server sends none.
        var versionsJSON: String?
        /// The server's last `GET /v1/today` answer (JSON of `TodayReport`), kept while its
        /// rules are newer than the device's.
        var todayJSON: String?
        /// When that answer was fetched.
        var todayFetchedAt: Date?
    }

    /// What the device keeps of the server's rules (nothing before the first sync).
    func serverRules() throws -> ServerRules {
        try writer.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT versions, today, today_fetched_at FROM server_rules WHERE id = 1")
            else { return ServerRules() }
            let fetched: String? = row[2]
            return ServerRules(versionsJSON: row[0], todayJSON: row[1], todayFetchedAt: try fetched.map(Self.instant))
        }
    }

    /// Replaces what the device keeps of the server's rules.
    func saveServerRules(_ rules: ServerRules) throws {
        try writer.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO server_rules (id, versions, today, today_fetched_at) VALUES (1, ?, ?, ?)
                    """,
                arguments: [rules.versionsJSON, rules.todayJSON, rules.todayFetchedAt.map(RFC3339.format)])
        }
    }
}
