import MomentumStore

extension PostgresStore {
    /// Implements `MomentumStore` `migrate`: the migrations run on the direct connection
    /// to the primary (`PostgresTopology.direct`), not through a pooler.
    public func migrate() async throws(StoreError) {
        do {
            try await Self.$onPrimaryDirectly.withValue(true) { try await applyMigrations() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.migration, "the migrations failed: \(error)")
        }
    }

    /// Whether statements may be named prepared statements, kept by a connection: not
    /// behind a transaction-mode pooler, which hands each transaction another connection.
    var namedStatements: Bool { pooler == .none }
}

extension PostgresStore: ReplicaReporting {
    /// The replica's state, asked now (`nil` without a replica).
    public func replicaHealth() async -> ReplicaHealth? {
        await replica?.health()
    }

    /// How the reads allowed on the replica were served (`nil` without a replica).
    public var replicaReadCounts: ReplicaReadCounts? { replica?.counts }
}
