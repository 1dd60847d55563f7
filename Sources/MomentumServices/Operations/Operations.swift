import Foundation
import MomentumStore

/// What an operator asks of the server: whether it is ready, its metrics, and the
/// suspicious activity it flagged for review.
struct Operations: Sendable {
    let store: any MomentumStore
    let metrics: ServerMetrics
    let hub: ChangeHub
    /// Whether the relay is receiving other instances' changes right now; `nil` when this
    /// is the only instance.
    let relayListening: RelayListening?

    /// The schema version, once the server can serve: the database reachable, its schema
    /// up to date, and (with other instances) their changes arriving.
    ///
    /// - Throws: 503 saying which is not so.
    func readiness() async throws -> Int {
        do {
            let applied = try await store.appliedMigrations()
            guard applied.last == Schema.latestVersion else {
                throw APIError(.serviceUnavailable, "not_ready", "the database schema is not up to date")
            }
            if let relayListening, !relayListening.value {
                throw APIError(
                    .serviceUnavailable, "not_ready",
                    "not yet listening for other instances' changes (PostgreSQL LISTEN)")
            }
            return applied.last ?? 0
        } catch let error as StoreError {
            throw APIError(.serviceUnavailable, "not_ready", "the database is not reachable: \(error.message)")
        }
    }

    /// The metrics in Prometheus's text format, brought up to the store's counts.
    func metricsText() -> [UInt8] {
        metrics.streams.set(Double(hub.count))
        let statistics = store.statistics
        if let appends = statistics.appends { metrics.update(appends: appends) }
        if let guarded = statistics.guardedWrites {
            metrics.update(appendStatements: guarded.statements, failedBatches: guarded.failedBatches)
        }
        if let cache = statistics.engineCache { metrics.update(engineCache: cache) }
        metrics.updateResidentMemory()
        return metrics.registry.emitToBuffer()
    }

    /// The latest suspicious activity flagged for review, newest first.
    func reviewFlags(limit: Int) async throws -> [ReviewFlag] {
        try await store.reviewFlags(limit: limit)
    }
}
