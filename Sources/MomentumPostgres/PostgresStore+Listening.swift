import Foundation
import MomentumCore
import MomentumStore
import PostgresNIO

extension PostgresStore {
    /// Sends `payload` on a notification channel (`pg_notify`), outside any transaction.
    ///
    /// - Throws: `StoreError.Code.unavailable` when PostgreSQL refuses.
    public func notify(channel: String, payload: String) async throws(StoreError) {
        do {
            try await connection { connection in
                _ = try await Self.rows(
                    of: SQLStatement("SELECT pg_notify(?, ?)", [.text(channel), .text(payload)]), on: connection,
                    named: self.namedStatements, logger: self.logger)
            }
        } catch {
            throw StoreError(.unavailable, "PostgreSQL refused the notification: \(error)")
        }
    }

    /// Listens on a notification channel on one connection straight to the primary
    /// (`PostgresTopology.direct`: a transaction-mode pooler would not keep a session's
    /// `LISTEN`), calling `receive` with each payload, until the task is cancelled or the
    /// connection is lost.
    ///
    /// - Parameters:
    ///   - channel: The channel name.
    ///   - onListening: Called once `LISTEN` has succeeded, when no notification sent from
    ///     then on can be missed.
    ///   - receive: Called with each notification's payload.
    /// - Throws: `StoreError.Code.unavailable` when the connection fails.
    public func listen(
        channel: String, onListening: @escaping @Sendable () -> Void = {},
        _ receive: @escaping @Sendable (String) -> Void
    ) async throws(StoreError) {
        do {
            // Not counted among the operations ``close()`` waits for: a listener lasts until
            // it is cancelled (the relay's service stops it first).
            if usage.withLock({ $0.closed }) { throw StoreError(.unavailable, "the PostgreSQL store is closed") }
            // Watched: a `LISTEN` sent on a connection that had just closed would wait
            // forever, and this instance would hear no other from then on.
            let watch = self.watch
            try await primaryDirectly.withConnection { connection in
                try await watch.run(on: connection) { connection in
                    try await connection.listen(on: channel) { notifications in
                        onListening()
                        for try await notification in notifications {
                            receive(notification.payload)
                        }
                    }
                }
            }
        } catch {
            if Task.isCancelled { return }
            throw StoreError(.unavailable, "PostgreSQL listening on '\(channel)' failed: \(error)")
        }
    }
}
