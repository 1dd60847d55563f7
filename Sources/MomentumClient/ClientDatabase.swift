import Foundation
import GRDB
import MomentumCore

/// The device's copy of one user's data, in a local SQLite file: the account, the log as
/// the server stored it, the outbox of events recorded here and not yet acknowledged, and
/// the events the server refused. No secret: the session token and the device keys are
/// in the ``TokenStore`` (the file is backed up; the Keychain's items are not).
///
/// Every method is one transaction. An event recorded on the device is in the outbox once
/// ``enqueue(_:recordedAt:)`` returns: a crash or a kill after that loses nothing, and the
/// next push sends it (its client id makes a resend a no-op on the server).
struct ClientDatabase: Sendable {
    let writer: DatabaseQueue

    /// Opens (creating and migrating) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: The SQLite file.
    ///   - secrets: Where a database of an earlier version moves its secrets to.
    init(path: String, secrets: any TokenStore) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // An acknowledged write survives a power cut, not only a crash.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        writer = try DatabaseQueue(path: path, configuration: configuration)
        let migrator = Self.migrator(secrets: secrets)
        let applied = try writer.read { try migrator.appliedIdentifiers($0) }
        try migrator.migrate(writer)
        // The dropped token's bytes stay in the file's free pages until it is rebuilt.
        if applied.contains("v1"), !applied.contains("v3-secrets-in-token-store") { try writer.vacuum() }
    }

    private static func migrator(secrets: any TokenStore) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE account (
                      id INTEGER PRIMARY KEY CHECK (id = 1),
                      server TEXT NOT NULL,
                      user_id TEXT NOT NULL,
                      email TEXT NOT NULL,
                      token TEXT NOT NULL,
                      device TEXT NOT NULL,
                      profile TEXT NOT NULL,
                      cursor INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE log (
                      seq INTEGER PRIMARY KEY,
                      id TEXT NOT NULL UNIQUE,
                      body TEXT NOT NULL,
                      received_at TEXT NOT NULL,
                      device TEXT
                    );
                    CREATE TABLE outbox (
                      position INTEGER PRIMARY KEY AUTOINCREMENT,
                      id TEXT NOT NULL UNIQUE,
                      body TEXT NOT NULL,
                      recorded_at TEXT NOT NULL,
                      attempts INTEGER NOT NULL DEFAULT 0,
                      last_error TEXT
                    );
                    CREATE TABLE rejected (
                      id TEXT PRIMARY KEY,
                      body TEXT NOT NULL,
                      status TEXT NOT NULL,
                      code TEXT NOT NULL,
                      message TEXT NOT NULL,
                      field TEXT,
                      refused_at TEXT NOT NULL
                    );
                    """)
        }
        // Device keys outlive the session: a key is about the device, not the sign-in.
        migrator.registerMigration("v2-device-keys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE device_keys (
                      server TEXT NOT NULL,
                      email TEXT NOT NULL,
                      key TEXT NOT NULL,
                      PRIMARY KEY (server, email)
                    )
                    """)
        }
        // The versions of the server's rules, and its dashboard while they are newer than
        // the device's (ClientDatabase+ServerRules.swift). A database of an older client has
        // none until its next sync.
        migrator.registerMigration("v3-server-rules") { db in
            try db.execute(
                sql: """
                    CREATE TABLE server_rules (
                      id INTEGER PRIMARY KEY CHECK (id = 1),
                      versions TEXT,
                      today TEXT,
                      today_fetched_at TEXT
                    )
                    """)
        }
        // Secrets leave the file: the session token and the device keys move to the token
        // store (saved there before the transaction commits: a crash between the two saves
        // them again), and their column and table go.
        migrator.registerMigration("v3-secrets-in-token-store") { db in
            if let row = try Row.fetchOne(db, sql: "SELECT server, email, token FROM account WHERE id = 1") {
                let token: String = row[2]
                let email: String = row[1]
                if !token.isEmpty {
                    try secrets.save(
                        token,
                        for: TokenKey(.session, server: row[0], email: MomentumClient.normalized(email: email)))
                }
            }
            for row in try Row.fetchAll(db, sql: "SELECT server, email, key FROM device_keys") {
                try secrets.save(row[2], for: TokenKey(.deviceKey, server: row[0], email: row[1]))
            }
            try db.execute(sql: "DROP TABLE device_keys")
            try db.execute(sql: "ALTER TABLE account DROP COLUMN token")
        }
        return migrator
    }

    // MARK: Account

    /// The signed-in account, if there is one.
    func account() throws -> StoredAccount? {
        try writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT server, user_id, email, device, profile, cursor FROM account WHERE id = 1"
            ).map { row in
                StoredAccount(
                    server: row[0], userID: row[1], email: row[2], device: row[3], profileJSON: row[4],
                    cursor: row[5])
            }
        }
    }

    /// Signs an account in on this device. Another user's data is removed first; the same
    /// user's log and outbox are kept (a new session of the same person).
    func signIn(_ account: StoredAccount) throws {
        try writer.write { db in
            let previous = try String.fetchOne(db, sql: "SELECT user_id FROM account WHERE id = 1")
            if let previous, previous != account.userID {
                try db.execute(
                    sql: "DELETE FROM log; DELETE FROM outbox; DELETE FROM rejected; DELETE FROM server_rules")
            }
            let cursor = previous == account.userID ? try Int64.fetchOne(db, sql: "SELECT cursor FROM account") : nil
            try db.execute(sql: "DELETE FROM account")
            try db.execute(
                sql: """
                    INSERT INTO account (id, server, user_id, email, device, profile, cursor)
                    VALUES (1, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    account.server, account.userID, account.email, account.device,
                    account.profileJSON, cursor ?? 0,
                ])
        }
    }

    /// Forgets the account and every event of it on this device.
    func signOut() throws {
        try writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM account; DELETE FROM log; DELETE FROM outbox; DELETE FROM rejected;
                    DELETE FROM server_rules
                    """)
        }
    }

    /// Replaces the stored profile (as the server answered it).
    func saveProfile(_ json: String) throws {
        try writer.write { db in try db.execute(sql: "UPDATE account SET profile = ?", arguments: [json]) }
    }

    // MARK: Log

    /// Every event the server stored, in the order it stored them.
    func log() throws -> [LoggedEvent] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT seq, body, received_at FROM log ORDER BY seq").map { row in
                LoggedEvent(seq: row[0], body: row[1], receivedAt: try Self.instant(row[2]))
            }
        }
    }

    /// Stores a page the server sent and moves the cursor past it, in one transaction.
    func storePulled(_ events: [LoggedEvent], devices: [String?], cursor: Int64) throws {
        try writer.write { db in
            for (event, device) in zip(events, devices) {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO log (seq, id, body, received_at, device) VALUES (?, ?, ?, ?, ?)",
                    arguments: [event.seq, event.id, event.body, RFC3339.format(event.receivedAt), device])
                // A pulled event is no longer waiting here (its push's answer may have been lost).
                try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [event.id])
            }
            try db.execute(sql: "UPDATE account SET cursor = max(cursor, ?)", arguments: [cursor])
        }
    }

    // MARK: Outbox

    /// Adds an event recorded on this device to the outbox; it is durable when this returns.
    func enqueue(_ body: String, id: String, recordedAt: Date) throws {
        try writer.write { db in
            try db.execute(
                sql: "INSERT INTO outbox (id, body, recorded_at) VALUES (?, ?, ?)",
                arguments: [id, body, RFC3339.format(recordedAt)])
        }
    }

    /// Whether an event id is already in the log, the outbox or the refused events.
    func knows(_ id: String) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM log WHERE id = ?1) OR EXISTS (SELECT 1 FROM outbox WHERE id = ?1)
                      OR EXISTS (SELECT 1 FROM rejected WHERE id = ?1)
                    """, arguments: [id]) ?? false
        }
    }

    /// Events waiting to be pushed, oldest first.
    func outbox(limit: Int = .max) throws -> [PendingEvent] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT id, body, recorded_at, attempts, last_error FROM outbox ORDER BY position LIMIT ?",
                arguments: [limit]
            ).map { row in
                PendingEvent(
                    id: row[0], body: row[1], recordedAt: try Self.instant(row[2]), attempts: row[3],
                    lastError: row[4])
            }
        }
    }

    /// How many events wait to be pushed.
    func outboxCount() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox") ?? 0 }
    }

    /// Removes events the server acknowledged (stored now, or already).
    func acknowledge(_ ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try writer.write { db in
            for id in ids { try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id]) }
        }
    }

    /// Moves events the server refused out of the outbox, keeping them with the reason.
    func refuse(_ refusals: [RefusedEvent]) throws {
        guard !refusals.isEmpty else { return }
        try writer.write { db in
            for refusal in refusals {
                guard
                    let body = try String.fetchOne(
                        db, sql: "SELECT body FROM outbox WHERE id = ?", arguments: [refusal.id])
                else { continue }
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO rejected (id, body, status, code, message, field, refused_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        refusal.id, body, refusal.status, refusal.code, refusal.message, refusal.field,
                        RFC3339.format(refusal.refusedAt),
                    ])
                try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [refusal.id])
            }
        }
    }

    /// Counts a failed attempt for events that stay in the outbox.
    func noteFailure(_ ids: [String], error: String) throws {
        guard !ids.isEmpty else { return }
        try writer.write { db in
            for id in ids {
                try db.execute(
                    sql: "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
                    arguments: [error, id])
            }
        }
    }

    /// Events the server refused, newest first.
    func refused() throws -> [RefusedEvent] {
        try writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, status, code, message, field, refused_at FROM rejected ORDER BY refused_at DESC"
            ).map { row in
                RefusedEvent(
                    id: row[0], status: row[1], code: row[2], message: row[3], field: row[4],
                    refusedAt: try Self.instant(row[5]))
            }
        }
    }

    static func instant(_ text: String) throws -> Date {
        guard let date = RFC3339.parse(text) else { throw ClientError.corruptDatabase("bad instant '\(text)'") }
        return date
    }
}

/// The account stored on the device.
struct StoredAccount: Sendable {
    var server: String
    var userID: String
    var email: String
    var device: String
    var profileJSON: String
    var cursor: Int64
}

/// An event of the server's log, as stored on the device.
struct LoggedEvent: Sendable {
    var seq: Int64
    var id: String = ""
    var body: String
    var receivedAt: Date
}
