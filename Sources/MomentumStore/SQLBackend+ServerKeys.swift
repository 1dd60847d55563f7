import Foundation

extension SQLBackend {
    static var serverKeyColumns: String {
        "SELECT key_id, app, name, scopes, secret_hash, created_at, last_used_at, revoked_at FROM server_keys"
    }

    /// Implements ``MomentumStore`` `createServerKey`; see the protocol for its contract.
    public func createServerKey(_ key: ServerKey) async throws(StoreError) {
        try ServerKeyPrograms.validate(key)
        let insert = SQLStatement(
            """
            INSERT INTO server_keys (key_id, app, name, scopes, secret_hash, created_at, last_used_at, revoked_at)
            VALUES (?, ?, ?, ?, ?, ?, NULL, NULL) ON CONFLICT (key_id) DO NOTHING
            """,
            [
                .text(key.id), .text(key.app), .text(key.name), .text(key.scopes.joined(separator: " ")),
                .text(key.secretHash), .date(StoreJSON.canonical(key.createdAt)),
            ])
        guard try await write(nil, insert) == 1 else {
            throw StoreError(.userExists, "a server key '\(key.id)' already exists")
        }
    }

    /// Implements ``MomentumStore`` `serverKeys`; see the protocol for its contract.
    public func serverKeys() async throws(StoreError) -> [ServerKey] {
        try await serverKeys(SQLStatement("\(Self.serverKeyColumns) ORDER BY created_at DESC, key_id", []))
    }

    /// Implements ``MomentumStore`` `serverKey`; see the protocol for its contract.
    public func serverKey(id: String) async throws(StoreError) -> ServerKey? {
        try await serverKeys(SQLStatement("\(Self.serverKeyColumns) WHERE key_id = ?", [.text(id)])).first
    }

    /// Implements ``MomentumStore`` `revokeServerKey`; see the protocol for its contract.
    public func revokeServerKey(id: String, at instant: Date) async throws(StoreError) -> ServerKey? {
        _ = try await write(
            nil,
            SQLStatement(
                "UPDATE server_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL",
                [.date(StoreJSON.canonical(instant)), .text(id)]))
        return try await serverKey(id: id)
    }

    /// Implements ``MomentumStore`` `touchServerKey`; see the protocol for its contract.
    public func touchServerKey(id: String, at instant: Date) async throws(StoreError) {
        _ = try await write(
            nil,
            SQLStatement(
                "UPDATE server_keys SET last_used_at = ? WHERE key_id = ?",
                [.date(StoreJSON.canonical(instant)), .text(id)]))
    }

    /// Implements ``MomentumStore`` `appUser`; see the protocol for its contract.
    public func appUser(app: String, appUserID: String) async throws(StoreError) -> AppUser? {
        try await run(ServerKeyPrograms.appUser(app: app, appUserID: appUserID))
    }

    /// Implements ``MomentumStore`` `appUser`; see the protocol for its contract.
    public func appUser(of user: String) async throws(StoreError) -> AppUser? {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(
                    SQLStatement("SELECT app, app_user_id, user_id FROM app_users WHERE user_id = ?", [.text(user)])
                ) { rows throws(StoreError) in .done(try rows.first.map(ServerKeyPrograms.appUser(from:))) }
            })
    }

    /// Implements ``MomentumStore`` `provisionAppUser`; see the protocol for its contract.
    public func provisionAppUser(
        _ user: AppUser, account: Account, profile: Profile
    ) async throws(StoreError) -> AppUser {
        try Validate.userID(account.id)
        guard account.id == user.userID, account.email == nil, account.passwordHash == nil else {
            throw StoreError(.invalidInput, "an app's user is an account of its own id, without email or password")
        }
        guard (1...128).contains(user.appUserID.utf8.count), (1...64).contains(user.app.utf8.count) else {
            throw StoreError(.invalidInput, "an app user id has 1 to 128 bytes, an app 1 to 64")
        }
        try profile.validate(in: packLibrary)
        var account = account
        account.createdAt = StoreJSON.canonical(account.createdAt)
        var profile = profile
        profile.updatedAt = StoreJSON.canonical(profile.updatedAt)
        let create = AccountPrograms.create(account, profile: profile, form: storedForm)
        let existing = ServerKeyPrograms.appUser(app: user.app, appUserID: user.appUserID)
        let insert = SQLStatement(
            "INSERT INTO app_users (app, app_user_id, user_id) VALUES (?, ?, ?)",
            [.text(user.app), .text(user.appUserID), .text(user.userID)])
        return try await run(
            StoreProgram(writes: true, user: account.id) { () throws(StoreError) in
                // Two first calls for one app user at once: the second waits here, then
                // finds the first one's mapping and creates nothing.
                .lock("app-user:\(user.app)\n\(user.appUserID)") { () throws(StoreError) in
                    try ServerKeyPrograms.then(existing.start()) { found throws(StoreError) in
                        if let found { return .done(found) }
                        return try ServerKeyPrograms.then(create.start()) { _ throws(StoreError) in
                            .execute([insert]) { _ throws(StoreError) in .done(user) }
                        }
                    }
                }
            })
    }

    private func serverKeys(_ statement: SQLStatement) async throws(StoreError) -> [ServerKey] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in .done(try rows.map(ServerKeyPrograms.key(from:))) }
            })
    }
}

/// Programs and row decoders for server keys and app users.
enum ServerKeyPrograms {
    static func validate(_ key: ServerKey) throws(StoreError) {
        guard (1...64).contains(key.id.utf8.count), (1...64).contains(key.app.utf8.count),
            (1...200).contains(key.name.utf8.count), (1...256).contains(key.secretHash.utf8.count),
            !key.scopes.isEmpty, key.scopes.allSatisfy({ !$0.isEmpty && !$0.contains(" ") && $0.utf8.count <= 64 })
        else {
            throw StoreError(.invalidInput, "a server key needs an id, an app, a name, scopes and a secret hash")
        }
    }

    static func appUser(app: String, appUserID: String) -> StoreProgram<AppUser?> {
        StoreProgram(writes: false) { () throws(StoreError) in
            .query(
                SQLStatement(
                    "SELECT app, app_user_id, user_id FROM app_users WHERE app = ? AND app_user_id = ?",
                    [.text(app), .text(appUserID)])
            ) { rows throws(StoreError) in .done(try rows.first.map(appUser(from:))) }
        }
    }

    static func appUser(from row: SQLRow) throws(StoreError) -> AppUser {
        AppUser(
            app: try row.text(0, "app"), appUserID: try row.text(1, "app_user_id"), userID: try row.text(2, "user_id"))
    }

    static func key(from row: SQLRow) throws(StoreError) -> ServerKey {
        ServerKey(
            id: try row.text(0, "key_id"), app: try row.text(1, "app"), name: try row.text(2, "name"),
            scopes: try row.text(3, "scopes").split(separator: " ").map(String.init),
            secretHash: try row.text(4, "secret_hash"), createdAt: try row.date(5, "created_at"),
            lastUsedAt: row.optionalDate(6), revokedAt: row.optionalDate(7))
    }

    /// A step that runs `step` to its end, then continues with its result.
    static func then<A: Sendable, B: Sendable>(
        _ step: StoreStep<A>, _ next: @escaping @Sendable (A) throws(StoreError) -> StoreStep<B>
    ) throws(StoreError) -> StoreStep<B> {
        switch step {
        case .done(let value):
            return try next(value)
        case .lock(let name, let body):
            return .lock(name) { () throws(StoreError) in try then(try body(), next) }
        case .query(let statements, let body):
            return .query(statements) { rows throws(StoreError) in try then(try body(rows), next) }
        case .execute(let statements, let body):
            return .execute(statements) { counts throws(StoreError) in try then(try body(counts), next) }
        }
    }
}
