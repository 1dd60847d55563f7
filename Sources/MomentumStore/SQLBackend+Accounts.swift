import Foundation
import MomentumCore

extension SQLBackend {
    /// Implements ``MomentumStore`` `createAccount`; see the protocol for its contract.
    public func createAccount(_ account: Account, profile: Profile) async throws(StoreError) {
        try Validate.userID(account.id)
        if let email = account.email { try Validate.email(email) }
        try profile.validate(in: packLibrary)
        var account = account
        account.createdAt = StoreJSON.canonical(account.createdAt)
        var profile = profile
        profile.updatedAt = StoreJSON.canonical(profile.updatedAt)
        _ = try await run(AccountPrograms.create(account, profile: profile, form: storedForm))
    }

    /// Implements ``MomentumStore`` `account`; see the protocol for its contract.
    public func account(id: String) async throws(StoreError) -> Account? {
        try await run(AccountPrograms.account(where: "user_id", equals: id))
    }

    /// Implements ``MomentumStore`` `account`; see the protocol for its contract.
    public func account(email: String) async throws(StoreError) -> Account? {
        try await run(AccountPrograms.account(where: "email", equals: Account.normalize(email: email)))
    }

    /// Implements ``MomentumStore`` `deleteAccount`; see the protocol for its contract.
    @discardableResult
    public func deleteAccount(id: String) async throws(StoreError) -> Bool {
        engines.forget(id)
        let deleted = try await run(
            StoreProgram(writes: true, user: id) { () throws(StoreError) in
                .lock(id) { () throws(StoreError) in
                    // Tables without a foreign key to `accounts` first, then the account,
                    // which cascades to every per-user table.
                    // The rows other people keep about this user (a friendship, a block, a
                    // post on a feed, a reaction, a family membership) name it without a
                    // foreign key, so that every key stays led by its own user id: they go too.
                    // Events this user logged for someone else's subject stay in that log.
                    .execute([
                        SQLStatement("DELETE FROM account_emails WHERE user_id = ?", [.text(id)]),
                        SQLStatement("DELETE FROM accounts WHERE user_id = ?", [.text(id)]),
                        SQLStatement("DELETE FROM friendships WHERE friend_id = ?", [.text(id)]),
                        SQLStatement("DELETE FROM blocks WHERE blocked_id = ?", [.text(id)]),
                        SQLStatement("DELETE FROM feed_entries WHERE author_id = ?", [.text(id)]),
                        SQLStatement("DELETE FROM reactions WHERE reactor_id = ?", [.text(id)]),
                        SQLStatement("DELETE FROM subject_members WHERE member_id = ?", [.text(id)]),
                        SQLStatement("DELETE FROM memberships WHERE owner_id = ?", [.text(id)]),
                    ]) { counts throws(StoreError) in .done(counts[1] > 0) }
                }
            })
        engines.forget(id)
        return deleted
    }

    /// Implements ``MomentumStore`` `profile`; see the protocol for its contract.
    public func profile(of user: String) async throws(StoreError) -> Profile? {
        let form = storedForm
        return try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(
                    SQLStatement(
                        "SELECT display_name, time_zone, day_start_hour, pack, preferences, updated_at, notifications, language FROM profiles WHERE user_id = ?",
                        [.text(user)])
                ) { rows throws(StoreError) in
                    .done(
                        try rows.first.map { row throws(StoreError) in
                            try AccountPrograms.profile(from: row, form: form)
                        })
                }
            })
    }

    /// Implements ``MomentumStore`` `updateProfile`; see the protocol for its contract.
    public func updateProfile(_ profile: Profile, for user: String) async throws(StoreError) {
        try profile.validate(in: packLibrary)
        var profile = profile
        profile.updatedAt = StoreJSON.canonical(profile.updatedAt)
        _ = try await run(AppendPrograms.updateProfile(profile, for: user, cache: engines))
    }

    /// Implements ``MomentumStore`` `changePassword`; see the protocol for its contract.
    public func changePassword(
        to hash: String, of user: String, keeping: String?
    ) async throws(StoreError) -> [String]? {
        guard !hash.isEmpty, hash.utf8.count <= 256 else {
            throw StoreError(.invalidInput, "a password hash is 1 to 256 bytes")
        }
        let update = SQLStatement(
            "UPDATE accounts SET password_hash = ? WHERE user_id = ?", [.text(hash), .text(user)])
        let ended = SQLStatement(
            "SELECT token_hash FROM device_sessions WHERE user_id = ? AND token_hash <> ? ORDER BY token_hash",
            [.text(user), .text(keeping ?? "")])
        let delete = SQLStatement(
            "DELETE FROM device_sessions WHERE user_id = ? AND token_hash <> ?", [.text(user), .text(keeping ?? "")])
        return try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .execute([update]) { counts throws(StoreError) in
                    guard counts[0] > 0 else { return .done(nil) }
                    guard keeping != nil else { return .done([]) }
                    return .query(ended) { rows throws(StoreError) in
                        let hashes = try rows.map { row throws(StoreError) in try row.text(0, "token_hash") }
                        return .execute([delete]) { _ throws(StoreError) in .done(hashes) }
                    }
                }
            })
    }

    // MARK: Sessions

    /// Implements ``MomentumStore`` `saveSession`; see the protocol for its contract.
    public func saveSession(_ session: DeviceSession) async throws(StoreError) {
        guard !session.tokenHash.isEmpty, session.tokenHash.count <= 256 else {
            throw StoreError(.invalidInput, "a session needs a token hash of 1 to 256 characters")
        }
        let user = session.userID
        try await requireWrite(
            user,
            SQLStatement(
                """
                INSERT INTO device_sessions (user_id, token_hash, device_name, created_at, last_seen_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, token_hash) DO UPDATE SET device_name = excluded.device_name,
                  created_at = excluded.created_at, last_seen_at = excluded.last_seen_at, expires_at = excluded.expires_at
                """,
                [
                    .text(user), .text(session.tokenHash), .text(session.deviceName), .date(session.createdAt),
                    .date(session.lastSeenAt), session.expiresAt.map(SQLValue.date) ?? .null,
                ]))
    }

    /// Implements ``MomentumStore`` `session`; see the protocol for its contract.
    public func session(of user: String, tokenHash: String) async throws(StoreError) -> DeviceSession? {
        try await sessions(
            SQLStatement(
                "\(AccountPrograms.sessionColumns) WHERE user_id = ? AND token_hash = ?",
                [.text(user), .text(tokenHash)])
        ).first
    }

    /// Implements ``MomentumStore`` `sessions`; see the protocol for its contract.
    public func sessions(of user: String) async throws(StoreError) -> [DeviceSession] {
        try await sessions(
            SQLStatement(
                "\(AccountPrograms.sessionColumns) WHERE user_id = ? ORDER BY created_at DESC, token_hash",
                [.text(user)]))
    }

    private func sessions(_ statement: SQLStatement) async throws(StoreError) -> [DeviceSession] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in
                    .done(try rows.map(AccountPrograms.session(from:)))
                }
            })
    }

    /// Implements ``MomentumStore`` `touchSession`; see the protocol for its contract.
    public func touchSession(of user: String, tokenHash: String, at instant: Date) async throws(StoreError) {
        _ = try await write(
            user,
            SQLStatement(
                "UPDATE device_sessions SET last_seen_at = ? WHERE user_id = ? AND token_hash = ?",
                [.date(instant), .text(user), .text(tokenHash)]))
    }

    /// Implements ``MomentumStore`` `deleteSession`; see the protocol for its contract.
    @discardableResult
    public func deleteSession(of user: String, tokenHash: String) async throws(StoreError) -> Bool {
        try await write(
            user,
            SQLStatement(
                "DELETE FROM device_sessions WHERE user_id = ? AND token_hash = ?", [.text(user), .text(tokenHash)])
        ) > 0
    }

    // MARK: Photos

    /// Implements ``MomentumStore`` `savePhoto`; see the protocol for its contract.
    public func savePhoto(_ photo: StoredPhoto, for user: String) async throws(StoreError) {
        do throws(MomentumError) {
            try MemoryPhoto.validateStored(photo.path)
        } catch {
            throw StoreError(.invalidInput, error.message)
        }
        try await requireWrite(
            user,
            SQLStatement(
                """
                INSERT INTO photos (user_id, path, content_type, bytes, created_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (user_id, path) DO UPDATE SET content_type = excluded.content_type,
                  bytes = excluded.bytes, created_at = excluded.created_at
                """,
                [
                    .text(user), .text(photo.path), .text(photo.contentType), .blob(photo.bytes),
                    .date(StoreJSON.canonical(photo.createdAt)),
                ]))
    }

    /// Implements ``MomentumStore`` `photo`; see the protocol for its contract.
    public func photo(of user: String, path: String) async throws(StoreError) -> StoredPhoto? {
        try await photos(
            SQLStatement(
                "SELECT path, content_type, bytes, created_at FROM photos WHERE user_id = ? AND path = ?",
                [.text(user), .text(path)])
        ).first
    }

    /// Implements ``MomentumStore`` `photos`; see the protocol for its contract.
    public func photos(of user: String) async throws(StoreError) -> [StoredPhoto] {
        try await photos(
            SQLStatement(
                "SELECT path, content_type, bytes, created_at FROM photos WHERE user_id = ? ORDER BY path",
                [.text(user)]))
    }

    /// Implements ``MomentumStore`` `deletePhoto`; see the protocol for its contract.
    @discardableResult
    public func deletePhoto(of user: String, path: String) async throws(StoreError) -> Bool {
        try await write(
            user,
            SQLStatement("DELETE FROM photos WHERE user_id = ? AND path = ?", [.text(user), .text(path)])
        ) > 0
    }

    private func photos(_ statement: SQLStatement) async throws(StoreError) -> [StoredPhoto] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in
                    .done(
                        try rows.map { row throws(StoreError) in
                            StoredPhoto(
                                path: try row.text(0, "path"), contentType: try row.text(1, "content_type"),
                                bytes: row[2].bytes ?? [], createdAt: try row.date(3, "created_at"))
                        })
                }
            })
    }

    // MARK: Idempotency

    /// Implements ``MomentumStore`` `idempotencyRecord`; see the protocol for its contract.
    public func idempotencyRecord(of user: String, key: String) async throws(StoreError) -> IdempotencyRecord? {
        try await run(AccountPrograms.idempotencyRecord(of: user, key: key))
    }

    /// Implements ``MomentumStore`` `saveIdempotencyRecord`; see the protocol for its contract.
    @discardableResult
    public func saveIdempotencyRecord(
        _ record: IdempotencyRecord, for user: String
    ) async throws(StoreError)
        -> IdempotencyRecord
    {
        guard !record.key.isEmpty, record.key.count <= 255 else {
            throw StoreError(.invalidInput, "an idempotency key must have 1 to 255 characters")
        }
        return try await run(AccountPrograms.saveIdempotencyRecord(record, for: user))
    }

    /// Implements ``MomentumStore`` `deleteIdempotencyRecords`; see the protocol for its contract.
    @discardableResult
    public func deleteIdempotencyRecords(before instant: Date) async throws(StoreError) -> Int {
        try await write(nil, SQLStatement("DELETE FROM idempotency_keys WHERE created_at < ?", [.date(instant)]))
    }

    // MARK: Helpers

    /// Runs one statement in a write transaction and returns the rows it changed.
    func write(_ user: String?, _ statement: SQLStatement) async throws(StoreError) -> Int {
        try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .execute([statement]) { counts throws(StoreError) in .done(counts[0]) }
            })
    }

    /// Runs one statement for a user that must exist.
    func requireWrite(_ user: String, _ statement: SQLStatement) async throws(StoreError) {
        guard try await account(id: user) != nil else { throw StoreError(.notFound, "no account '\(user)'") }
        _ = try await write(user, statement)
    }
}

/// Checks of identifiers before they reach the database.
enum Validate {
    static func userID(_ id: String) throws(StoreError) {
        guard !id.isEmpty, id.utf8.count <= 128,
            id.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 })
        else {
            throw StoreError(.invalidInput, "a user id must be 1 to 128 printable ASCII characters without spaces")
        }
    }

    static func email(_ email: String) throws(StoreError) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), email.count <= 254,
            !email.contains(where: \.isWhitespace)
        else {
            throw StoreError(.invalidInput, "'\(email)' is not an email address")
        }
    }
}
