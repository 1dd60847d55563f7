extension Schema {
    /// Version 11's statements for this area (see `Schema+Migrations11.swift`): the keys an
    /// app's backend authenticates with, and the app's users by its own ids. Both global: a
    /// key is found by its id, an app user by the app's id, before any user is known.
    static func serverKeyStatements(_ dialect: SQLDialect) -> [String] {
        let real = dialect.type(of: .real)
        return [
            """
            CREATE TABLE server_keys (
              key_id TEXT NOT NULL,
              app TEXT NOT NULL,
              name TEXT NOT NULL,
              scopes TEXT NOT NULL,
              secret_hash TEXT NOT NULL,
              created_at \(real) NOT NULL,
              last_used_at \(real),
              revoked_at \(real),
              PRIMARY KEY (key_id)
            )
            """,
            """
            CREATE TABLE app_users (
              app TEXT NOT NULL,
              app_user_id TEXT NOT NULL,
              user_id TEXT NOT NULL,
              PRIMARY KEY (app, app_user_id),
              UNIQUE (user_id),
              FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
            )
            """,
        ]
    }

    /// The tables version 11 adds for this area: `server_keys` (the SHA-256 of each key's
    /// secret, never the secret; `scopes` space-separated) and `app_users` (an app's own id
    /// for a user → the Momentum user, deleted with the account).
    static let serverKeyTables: [TableSpec] = [
        TableSpec(
            "server_keys",
            columns: [
                .init("key_id", .text), .init("app", .text), .init("name", .text), .init("scopes", .text),
                .init("secret_hash", .text), .init("created_at", .real),
                .init("last_used_at", .real, nullable: true), .init("revoked_at", .real, nullable: true),
            ],
            primaryKey: ["key_id"], userReference: nil, global: true),
        TableSpec(
            "app_users",
            columns: [.init("app", .text), .init("app_user_id", .text), .init("user_id", .text)],
            primaryKey: ["app", "app_user_id"], uniqueKeys: [["user_id"]], global: true),
    ]
}
