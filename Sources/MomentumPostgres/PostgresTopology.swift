import Foundation
import MomentumStore
import PostgresNIO

/// Where a ``PostgresStore``'s connections go besides its main URL: a pooler in front of
/// the primary, a direct way to the primary, a streaming replica.
///
/// ```swift
/// let store = try PostgresStore(
///     url: "postgres://momentum@pgbouncer:6432/momentum",
///     topology: PostgresTopology(
///         direct: "postgres://momentum@primary:5432/momentum", pooler: .transaction,
///         replica: "postgres://momentum@replica:5432/momentum"))
/// ```
public struct PostgresTopology: Sendable, Equatable {
    /// What stands between the store and the primary on its main URL.
    public enum Pooler: String, Sendable, CaseIterable {
        /// Nothing, or a pooler in session mode: a connection is the store's until it
        /// gives it back, so it keeps named prepared statements.
        case none
        /// A pooler in transaction mode (PgBouncer's `pool_mode = transaction`): each
        /// transaction may run on another server connection, so nothing session-scoped is
        /// used on the main URL (no named prepared statements, no `LISTEN`, no session
        /// locks).
        case transaction
    }

    /// A URL straight to the primary, for what needs a session of its own: the relay's
    /// `LISTEN` and the migrations. `nil`: the main URL.
    public var direct: String?
    /// What the main URL goes through.
    public var pooler: Pooler
    /// A streaming replica's URL, or `nil` for none: reads that may be served from it
    /// are, when it has replayed every write acknowledged before they were asked for.
    public var replica: String?
    /// Above this replication lag the replica is not even tried.
    public var replicaMaxLag: Duration

    /// A topology; the defaults are one primary on the main URL, no pooler, no replica.
    public init(
        direct: String? = nil, pooler: Pooler = .none, replica: String? = nil, replicaMaxLag: Duration = .seconds(5)
    ) {
        self.direct = direct
        self.pooler = pooler
        self.replica = replica
        self.replicaMaxLag = replicaMaxLag
    }
}

extension PostgresClient.Configuration {
    /// A configuration from a URL: `postgres://user:password@host:port/database`, with
    /// `?sslmode=` (`disable`, `require`; `prefer` by default) and `?pool=N`.
    ///
    /// - Throws: `StoreError.Code.invalidInput` for a URL that is not a PostgreSQL URL.
    static func momentum(url: String) throws(StoreError) -> PostgresClient.Configuration {
        guard let parts = URLComponents(string: url), ["postgres", "postgresql"].contains(parts.scheme ?? ""),
            let host = parts.host, !host.isEmpty
        else {
            throw StoreError(.invalidInput, "'\(url)' is not a postgres://user@host:port/database URL")
        }
        let query = Dictionary(
            (parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let tls: PostgresClient.Configuration.TLS
        switch query["sslmode"] ?? "prefer" {
        case "disable": tls = .disable
        case "require", "verify-full", "verify-ca": tls = .require(.makeClientConfiguration())
        default: tls = .prefer(.makeClientConfiguration())
        }
        let database = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        var configuration = PostgresClient.Configuration(
            host: host, port: parts.port ?? 5432, username: parts.user ?? "postgres", password: parts.password,
            database: database.isEmpty ? nil : database, tls: tls)
        if let pool = query["pool"].flatMap(Int.init), pool > 0 { configuration.options.maximumConnections = pool }
        return configuration
    }
}
