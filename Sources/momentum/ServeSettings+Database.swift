import Foundation
import MomentumPostgres

/// The settings of a PostgreSQL deployment beside `database`: a pooler in front of the
/// primary, a direct way to the primary, a streaming replica.
struct DatabaseTopologySettings: Sendable {
    var direct: String?
    var pooler = PostgresTopology.Pooler.none.rawValue
    var replica: String?
    var replicaMaxLag = 5

    /// The topology these settings describe.
    var topology: PostgresTopology {
        PostgresTopology(
            direct: direct, pooler: PostgresTopology.Pooler(rawValue: pooler) ?? .none, replica: replica,
            replicaMaxLag: .seconds(replicaMaxLag))
    }
}

extension ServeSettings {
    /// A pooler, the primary directly, a replica (PostgreSQL only).
    static let databaseTopologySettings: [Setting] = [
        .optionalText(
            "databaseDirect", \.databaseTopology.direct,
            help:
                "A postgres:// URL straight to the primary, for the relay's LISTEN and the migrations (also read by migrate), when database goes through a pooler; default: database."
        ),
        Setting(
            key: "databasePooler", kind: .choice(PostgresTopology.Pooler.allCases.map(\.rawValue)),
            help:
                "What database goes through: none, or transaction (a transaction-mode pooler such as PgBouncer: no named prepared statements, no session state on it).",
            read: { .text($0.databaseTopology.pooler) },
            write: { settings, value in if case .text(let pooler) = value { settings.databaseTopology.pooler = pooler }
            }),
        .optionalText(
            "databaseReplica", \.databaseTopology.replica,
            help:
                "A postgres:// URL of a streaming replica: cold loads, feeds and exports read from it when it has replayed every write acknowledged before the request, else from the primary."
        ),
        .integer(
            "replicaMaxLag", 0...86_400, \.databaseTopology.replicaMaxLag,
            help:
                "Seconds of replication lag above which the replica is not tried (reads go to the primary and /readyz names it degraded)."
        ),
    ]
}
