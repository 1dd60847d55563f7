extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): the incident amnesties operators declare.
    static func amnestyStatements(_ dialect: SQLDialect) -> [String] {
        let real = dialect.type(of: .real)
        let integer = dialect.type(of: .integer)
        return [
            """
            CREATE TABLE amnesties (
              id TEXT NOT NULL,
              start_at \(real) NOT NULL,
              end_at \(real) NOT NULL,
              reason TEXT NOT NULL,
              declared_by TEXT NOT NULL,
              declared_at \(real) NOT NULL,
              lifted_by TEXT,
              lifted_at \(real),
              status TEXT NOT NULL,
              users_done \(integer) NOT NULL,
              users_total \(integer) NOT NULL,
              cursor TEXT,
              lease_until \(real),
              PRIMARY KEY (id)
            )
            """
        ]
    }

    /// The tables version 12 adds for this area: `amnesties`, one row per outage window an
    /// operator declared (global: it reaches every user). `start_at` and `end_at` are the
    /// window (`start` and `end` are SQL keywords); `status` says which job runs over the
    /// users (`declaring`, then `active`; `lifting`, then `lifted`), `users_done` of
    /// `users_total` how far it got, `cursor` the last user it reached, and `lease_until`
    /// how long the instance running it holds it, so that another instance resumes a job
    /// whose instance stopped.
    static let amnestyTables: [TableSpec] = [
        TableSpec(
            "amnesties",
            columns: [
                .init("id", .text), .init("start_at", .real), .init("end_at", .real), .init("reason", .text),
                .init("declared_by", .text), .init("declared_at", .real), .init("lifted_by", .text, nullable: true),
                .init("lifted_at", .real, nullable: true), .init("status", .text), .init("users_done", .integer),
                .init("users_total", .integer), .init("cursor", .text, nullable: true),
                .init("lease_until", .real, nullable: true),
            ],
            primaryKey: ["id"], userReference: nil, global: true)
    ]
}
