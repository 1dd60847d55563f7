extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): the operators of the console and the admin API, their sessions, and the audit log.
    ///
    /// All three are global: an operator is found by email before anything else is known, a
    /// session by its token's hash, and the audit log is the server's, not a user's.
    static func operatorStatements(_ dialect: SQLDialect) -> [String] {
        let real = dialect.type(of: .real)
        return [
            """
            CREATE TABLE operators (
              operator_id TEXT NOT NULL,
              email TEXT NOT NULL,
              name TEXT NOT NULL,
              role TEXT NOT NULL,
              password_hash TEXT NOT NULL,
              created_at \(real) NOT NULL,
              created_by TEXT NOT NULL,
              disabled_at \(real),
              PRIMARY KEY (operator_id),
              UNIQUE (email)
            )
            """,
            """
            CREATE TABLE operator_sessions (
              token_hash TEXT NOT NULL,
              operator_id TEXT NOT NULL,
              kind TEXT NOT NULL,
              csrf TEXT NOT NULL,
              created_at \(real) NOT NULL,
              expires_at \(real) NOT NULL,
              last_seen_at \(real) NOT NULL,
              PRIMARY KEY (token_hash),
              FOREIGN KEY (operator_id) REFERENCES operators (operator_id) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id)",
            """
            CREATE TABLE audit_log (
              entry_id TEXT NOT NULL,
              at \(real) NOT NULL,
              operator_id TEXT NOT NULL,
              operator_email TEXT NOT NULL,
              action TEXT NOT NULL,
              target_user TEXT,
              detail TEXT NOT NULL,
              outcome TEXT NOT NULL,
              PRIMARY KEY (entry_id)
            )
            """,
            "CREATE INDEX audit_log_operator ON audit_log (operator_id, entry_id)",
            "CREATE INDEX audit_log_target_user ON audit_log (target_user, entry_id)",
        ]
    }

    /// The tables version 12 adds for this area: `operators` (email lower-cased, a bcrypt
    /// hash of the password), `operator_sessions` (the SHA-256 of each token, never the
    /// token) and `audit_log` (entry ids sort by time).
    static let operatorTables: [TableSpec] = [
        TableSpec(
            "operators",
            columns: [
                .init("operator_id", .text), .init("email", .text), .init("name", .text), .init("role", .text),
                .init("password_hash", .text), .init("created_at", .real), .init("created_by", .text),
                .init("disabled_at", .real, nullable: true),
            ],
            primaryKey: ["operator_id"], uniqueKeys: [["email"]], userReference: nil, global: true),
        TableSpec(
            "operator_sessions",
            columns: [
                .init("token_hash", .text), .init("operator_id", .text), .init("kind", .text), .init("csrf", .text),
                .init("created_at", .real), .init("expires_at", .real), .init("last_seen_at", .real),
            ],
            primaryKey: ["token_hash"], userReference: nil, global: true),
        TableSpec(
            "audit_log",
            columns: [
                .init("entry_id", .text), .init("at", .real), .init("operator_id", .text),
                .init("operator_email", .text), .init("action", .text), .init("target_user", .text, nullable: true),
                .init("detail", .text), .init("outcome", .text),
            ],
            primaryKey: ["entry_id"], userReference: nil, global: true),
    ]
}
