import Foundation
import MomentumCore

/// Programs and row decoders for accounts, profiles, sessions and idempotency records.
enum AccountPrograms {
    static let sessionColumns =
        "SELECT user_id, token_hash, device_name, created_at, last_seen_at, expires_at FROM device_sessions"

    static func create(_ account: Account, profile: Profile, form: StoredForm) -> StoreProgram<Bool> {
        let user = account.id
        return StoreProgram(writes: true, user: user) { () throws(StoreError) in
            .lock(user) { () throws(StoreError) in
                .execute([
                    SQLStatement(
                        """
                        INSERT INTO accounts (user_id, email, password_hash, created_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (user_id) DO NOTHING
                        """,
                        // '' stands for none in both NOT NULL columns (see `Schema.accounts`).
                        [
                            .text(user), .text(account.email ?? ""), .text(account.passwordHash ?? ""),
                            .date(account.createdAt),
                        ])
                ]) { counts throws(StoreError) in
                    guard counts[0] == 1 else { throw StoreError(.userExists, "an account '\(user)' already exists") }
                    let rest: @Sendable () throws(StoreError) -> StoreStep<Bool> = { () throws(StoreError) in
                        .execute([
                            try insertProfile(profile, for: user, form: form),
                            SQLStatement(
                                """
                                INSERT INTO user_heads (user_id, version, head_seq, diamonds, freezes, evaluated_at)
                                VALUES (?, 0, 0, 0, 0, ?)
                                """, [.text(user), .date(account.createdAt)]),
                        ]) { _ throws(StoreError) in .done(true) }
                    }
                    // Only a real email gets a row in the global lookup.
                    guard let email = account.email else { return try rest() }
                    return .execute([
                        SQLStatement(
                            "INSERT INTO account_emails (email, user_id) VALUES (?, ?) ON CONFLICT (email) DO NOTHING",
                            [.text(email), .text(user)])
                    ]) { counts throws(StoreError) in
                        guard counts[0] == 1 else {
                            throw StoreError(.emailTaken, "another account already uses '\(email)'")
                        }
                        return try rest()
                    }
                }
            }
        }
    }

    static func insertProfile(
        _ profile: Profile, for user: String, form: StoredForm
    ) throws(StoreError) -> SQLStatement {
        SQLStatement(
            """
            INSERT INTO profiles (user_id, display_name, time_zone, day_start_hour, pack, preferences, updated_at,
              notifications, language)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, time_zone = excluded.time_zone,
              day_start_hour = excluded.day_start_hour, pack = excluded.pack, preferences = excluded.preferences,
              updated_at = excluded.updated_at, notifications = excluded.notifications,
              language = excluded.language
            """,
            [
                .text(user), .text(profile.displayName), .text(profile.timeZone), .int(profile.dayStartHour),
                .text(profile.pack), .text(try StoreJSON.encode(profile.preferences, form.preferences)),
                .date(profile.updatedAt),
                .text(try StoreJSON.encode(profile.notifications, form.notifications)),
                profile.language.map(SQLValue.text) ?? .null,
            ])
    }

    static func account(where column: String, equals value: String) -> StoreProgram<Account?> {
        let sql =
            column == "email"
            ? """
            SELECT a.user_id, a.email, a.password_hash, a.created_at FROM account_emails e
            JOIN accounts a ON a.user_id = e.user_id WHERE e.email = ?
            """
            : "SELECT user_id, email, password_hash, created_at FROM accounts WHERE user_id = ?"
        return StoreProgram(writes: false) { () throws(StoreError) in
            .query(SQLStatement(sql, [.text(value)])) { rows throws(StoreError) in
                guard let row = rows.first else { return .done(nil) }
                // Account's initializer reads the '' of an account without an email or a
                // password as nil.
                return .done(
                    Account(
                        id: try row.text(0, "user_id"), email: try row.text(1, "email"),
                        passwordHash: try row.text(2, "password_hash"), createdAt: try row.date(3, "created_at")))
            }
        }
    }

    /// Decodes `display_name, time_zone, day_start_hour, pack, preferences, updated_at, notifications,
    /// language`.
    static func profile(from row: SQLRow, form: StoredForm) throws(StoreError) -> Profile {
        Profile(
            displayName: try row.text(0, "display_name"), timeZone: try row.text(1, "time_zone"),
            dayStartHour: Int(try row.int(2, "day_start_hour")), pack: try row.text(3, "pack"),
            preferences: try StoreJSON.decode(
                CelebrationPreferences.self, try row.text(4, "preferences"), "preferences", form.preferences),
            notifications: try StoreJSON.decode(
                NotificationPreferences.self, try row.text(6, "notifications"), "notifications", form.notifications),
            language: row.optionalText(7), updatedAt: try row.date(5, "updated_at"))
    }

    static func session(from row: SQLRow) throws(StoreError) -> DeviceSession {
        DeviceSession(
            userID: try row.text(0, "user_id"), tokenHash: try row.text(1, "token_hash"),
            deviceName: try row.text(2, "device_name"), createdAt: try row.date(3, "created_at"),
            lastSeenAt: try row.date(4, "last_seen_at"), expiresAt: row.optionalDate(5))
    }

    static func idempotencyRecord(of user: String, key: String) -> StoreProgram<IdempotencyRecord?> {
        StoreProgram(writes: false) { () throws(StoreError) in
            .query(selectRecord(user, key)) { rows throws(StoreError) in .done(try rows.first.map(record(from:))) }
        }
    }

    static func saveIdempotencyRecord(_ record: IdempotencyRecord, for user: String) -> StoreProgram<IdempotencyRecord>
    {
        StoreProgram(writes: true, user: user) { () throws(StoreError) in
            .execute([
                SQLStatement(
                    """
                    INSERT INTO idempotency_keys (user_id, idempotency_key, request_hash, status, response, created_at)
                    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, idempotency_key) DO NOTHING
                    """,
                    [
                        .text(user), .text(record.key), .text(record.requestHash), .int(record.status),
                        .blob(record.response), .date(record.createdAt),
                    ])
            ]) { counts throws(StoreError) in
                if counts[0] == 1 { return .done(record) }
                return .query(selectRecord(user, record.key)) { rows throws(StoreError) in
                    guard let row = rows.first else { throw .corrupt("idempotency key '\(record.key)' vanished") }
                    let stored = try Self.record(from: row)
                    guard stored.requestHash == record.requestHash else {
                        throw StoreError(
                            .idempotencyConflict,
                            "idempotency key '\(record.key)' was already used for a different request")
                    }
                    return .done(stored)
                }
            }
        }
    }

    private static func selectRecord(_ user: String, _ key: String) -> SQLStatement {
        SQLStatement(
            """
            SELECT idempotency_key, request_hash, status, response, created_at FROM idempotency_keys
            WHERE user_id = ? AND idempotency_key = ?
            """, [.text(user), .text(key)])
    }

    private static func record(from row: SQLRow) throws(StoreError) -> IdempotencyRecord {
        IdempotencyRecord(
            key: try row.text(0, "idempotency_key"), requestHash: try row.text(1, "request_hash"),
            status: Int(try row.int(2, "status")), response: row[3].bytes ?? [],
            createdAt: try row.date(4, "created_at"))
    }
}
