extension Schema {
    /// Version 11 of ``migrations``: an app's own users and backend (server keys, the
    /// app's users by its own ids, sign-in identities, mail, webhook events, stream
    /// tickets; Android push needed no table). Each area's statements and tables are
    /// written in its own file.
    static let migrations11: [Migration] = [
        Migration(
            version: 11, name: "own_users_and_backend",
            sqlite: ownUsersMigration(.sqlite),
            postgres: ownUsersMigration(.postgres)
        )
    ]

    /// Version 11's statements, area by area.
    private static func ownUsersMigration(_ dialect: SQLDialect) -> [String] {
        serverKeyStatements(dialect) + identityStatements(dialect) + mailStatements(dialect)
            + webhookEventStatements(dialect) + streamTicketStatements(dialect)
    }

    /// The tables version 11 adds, area by area.
    static var ownUsersTables: [TableSpec] {
        serverKeyTables + identityTables + mailTables + webhookEventTables + streamTicketTables
    }
}
