import Foundation
import MomentumStore

/// What an operator asks of the server: whether it is ready, and the suspicious activity it
/// flagged for review. (Its metrics are the HTTP layer's: `MomentumServer`'s `/metrics`.)
public struct Operations: Sendable {
    let store: any StoreSchema & ReviewFlags
    /// Whether the relay is receiving other instances' changes right now; `nil` when this
    /// is the only instance.
    public let relayListening: (@Sendable () -> Bool)?

    /// Creates the operator's use case.
    ///
    /// - Parameters:
    ///   - store: The schema and the review flags.
    ///   - relayListening: Whether other instances' changes are arriving; `nil` when this is
    ///     the only instance.
    public init(store: any StoreSchema & ReviewFlags, relayListening: (@Sendable () -> Bool)?) {
        self.store = store
        self.relayListening = relayListening
    }

    /// The schema version, once the server can serve: the database reachable, its schema
    /// up to date, and (with other instances) their changes arriving.
    ///
    /// - Throws: ``ServiceError`` `not_ready` (unavailable), saying which is not so.
    public func readiness() async throws -> Int {
        do {
            let applied = try await store.appliedMigrations()
            guard applied.last == Schema.latestVersion else {
                throw ServiceError(
                    .unavailable(retryAfterSeconds: nil), "not_ready", "the database schema is not up to date")
            }
            if let relayListening, !relayListening() {
                throw ServiceError(
                    .unavailable(retryAfterSeconds: nil), "not_ready",
                    "not yet listening for other instances' changes (PostgreSQL LISTEN)")
            }
            return applied.last ?? 0
        } catch let error as StoreError {
            throw ServiceError(
                .unavailable(retryAfterSeconds: nil), "not_ready", "the database is not reachable: \(error.message)")
        }
    }

    /// The streaming replica's state, asked now; `nil` without a replica. A degraded
    /// replica leaves the server ready: the reads it would serve go to the primary.
    public func replicaHealth() async -> ReplicaHealth? {
        await (store as? any ReplicaReporting)?.replicaHealth()
    }

    /// The latest suspicious activity flagged for review, newest first.
    public func reviewFlags(limit: Int) async throws -> [ReviewFlag] {
        try await store.reviewFlags(limit: limit)
    }
}
