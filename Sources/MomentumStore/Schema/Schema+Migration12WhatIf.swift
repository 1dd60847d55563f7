extension Schema {
    /// Version 12's statements for this area (see `Schema+Migrations12.swift`): the what-if replays of a candidate pack and their reports.
    static func whatIfStatements(_ dialect: SQLDialect) -> [String] {
        let real = dialect.type(of: .real)
        let integer = dialect.type(of: .integer)
        return [
            """
            CREATE TABLE what_if_runs (
              id TEXT NOT NULL,
              pack TEXT NOT NULL,
              version TEXT NOT NULL,
              sample TEXT NOT NULL,
              status TEXT NOT NULL,
              done \(integer) NOT NULL,
              total \(integer) NOT NULL,
              report TEXT,
              cursor TEXT,
              lease_until \(real),
              started_by TEXT NOT NULL,
              started_at \(real) NOT NULL,
              finished_at \(real),
              PRIMARY KEY (id)
            )
            """
        ]
    }

    /// The tables version 12 adds for this area: `what_if_runs`, one row per replay of a
    /// candidate pack version (global: an operator's run over every user). `sample` and
    /// `report` are JSON; `cursor` is the last user replayed and `lease_until` how long the
    /// instance running it holds it, so that another instance resumes a run whose instance
    /// stopped.
    static let whatIfTables: [TableSpec] = [
        TableSpec(
            "what_if_runs",
            columns: [
                .init("id", .text), .init("pack", .text), .init("version", .text), .init("sample", .text),
                .init("status", .text), .init("done", .integer), .init("total", .integer),
                .init("report", .text, nullable: true), .init("cursor", .text, nullable: true),
                .init("lease_until", .real, nullable: true), .init("started_by", .text),
                .init("started_at", .real), .init("finished_at", .real, nullable: true),
            ],
            primaryKey: ["id"], userReference: nil, global: true)
    ]
}
