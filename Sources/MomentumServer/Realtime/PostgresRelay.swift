import Foundation
import MomentumCore
import MomentumPostgres

/// Changes between instances through PostgreSQL's LISTEN/NOTIFY on one channel.
///
/// The notification is sent after the write transaction commits, on its own pooled
/// connection, so it never lengthens the transaction that holds the user's lock (sending
/// `pg_notify` inside the write transaction serialises commits on PostgreSQL's
/// notification queue lock).
public struct PostgresRelay: ChangeRelay {
    /// The channel name.
    public static let channel = "momentum_changes"
    let store: PostgresStore

    /// A relay over the store's connection pool.
    public init(store: PostgresStore) {
        self.store = store
    }

    /// Sends a change to every instance.
    public func publish(_ message: RelayMessage) async throws {
        let payload = String(decoding: try MomentumJSON.encodeBytes(message), as: UTF8.self)
        try await store.notify(channel: Self.channel, payload: payload)
    }

    /// Receives every instance's changes until the task is cancelled, reconnecting after
    /// a lost connection.
    public func listen(
        onListening: @escaping @Sendable (Bool) -> Void, _ receive: @escaping @Sendable (RelayMessage) -> Void
    ) async throws {
        while !Task.isCancelled {
            do {
                try await store.listen(channel: Self.channel, onListening: { onListening(true) }) { payload in
                    if let message = try? MomentumJSON.decoder().decode(RelayMessage.self, from: Data(payload.utf8)) {
                        receive(message)
                    }
                }
                onListening(false)
            } catch {
                onListening(false)
                if Task.isCancelled { return }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}
