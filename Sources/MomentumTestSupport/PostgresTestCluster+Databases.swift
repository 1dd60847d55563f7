import Foundation
import Logging
import PostgresNIO

extension PostgresTestCluster {
    /// Runs one statement on the server's `postgres` database, outside any transaction
    /// (`CREATE DATABASE`, `DROP DATABASE`), on a connection of its own.
    public func administer(_ sql: String) async throws {
        try await Self.administer(sql, on: url(database: "postgres"))
    }

    /// Runs one statement on the `postgres` database of the server `url` names, outside any
    /// transaction, on a connection of its own (a cluster's or a replica's administration).
    static func administer(_ sql: String, on url: String) async throws {
        guard let parts = URLComponents(string: url) else {
            throw ClusterError(message: "not a URL: \(url)")
        }
        let configuration = PostgresConnection.Configuration(
            host: parts.host ?? "127.0.0.1", port: parts.port ?? 5432, username: parts.user ?? "postgres",
            password: parts.password, database: "postgres", tls: .disable)
        let logger = Logger(label: "momentum.test-cluster")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).get()
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    /// Creates an empty database with a fresh name that starts with `prefix` (lowercase
    /// letters, digits and `_`); returns its URL.
    public func createDatabase(prefix: String) async throws -> (name: String, url: String) {
        let name = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        try await administer("CREATE DATABASE \(name)")
        return (name, url(database: name))
    }

    /// Runs `body` with the URL of a new, empty database, and drops the database afterwards
    /// (whether `body` succeeded or not; connections still open to it are ended).
    public func withDatabase<R>(prefix: String, _ body: (String) async throws -> R) async throws -> R {
        let (name, url) = try await createDatabase(prefix: prefix)
        let result: R
        do {
            result = try await body(url)
        } catch {
            try? await administer("DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
        try? await administer("DROP DATABASE \(name) WITH (FORCE)")
        return result
    }
}
