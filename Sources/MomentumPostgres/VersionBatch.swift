import MomentumStore
import PostgresNIO

/// The versions of a set of users' projections, in one prepared statement whose argument
/// is the users as a text array.
struct VersionBatch: PostgresPreparedStatement {
    typealias Row = (String, Int64)

    static let name = "momentum_versions_of_users"
    static let sql = "SELECT user_id, version FROM user_heads WHERE user_id = ANY($1)"

    let users: [String]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(users)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> (String, Int64) { try row.decode((String, Int64).self) }

    /// Reads the versions on `connection`: as the prepared statement, or as an unnamed
    /// one unless `named` (behind a transaction-mode pooler).
    static func run(
        _ users: [String], on connection: PostgresConnection, named: Bool, logger: Logger
    ) async throws -> [String: Int64] {
        var versions: [String: Int64] = [:]
        versions.reserveCapacity(users.count)
        guard named else {
            let batch = VersionBatch(users: users)
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: sql, binds: try batch.makeBindings()), logger: logger)
            for try await (user, version) in rows.decode((String, Int64).self) { versions[user] = version }
            return versions
        }
        for try await (user, version) in try await connection.execute(VersionBatch(users: users), logger: logger) {
            versions[user] = version
        }
        return versions
    }
}
