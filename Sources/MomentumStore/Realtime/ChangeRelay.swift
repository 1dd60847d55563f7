import Foundation

/// Carries changes between server instances that share one database.
public protocol ChangeRelay: Sendable {
    /// Sends a change to every instance, and returns once it was sent.
    func publish(_ message: RelayMessage) async throws
    /// Sends a change to every instance without waiting for it to leave; changes posted
    /// one after another leave in that order. `onFailure` hears why one could not be sent.
    func post(_ message: RelayMessage, onFailure: @escaping @Sendable (any Error) -> Void)
    /// Returns once every change posted so far has been sent (or has failed).
    func flush() async
    /// Receives every instance's changes until the task is cancelled.
    ///
    /// - Parameters:
    ///   - instance: An instance whose own changes are not wanted (the listener's), or
    ///     `nil` for all of them.
    ///   - onListening: Called with `true` each time the relay starts receiving, and with
    ///     `false` when it loses its connection (and, until it is back, misses changes).
    ///   - receive: Called with every change, except those of `instance`.
    func listen(
        skipping instance: String?, onListening: @escaping @Sendable (Bool) -> Void,
        _ receive: @escaping @Sendable (RelayMessage) -> Void
    ) async throws
}

extension ChangeRelay {
    /// Publishes the change from a task of its own (so posts may overtake each other).
    public func post(_ message: RelayMessage, onFailure: @escaping @Sendable (any Error) -> Void) {
        Task {
            do {
                try await publish(message)
            } catch {
                onFailure(error)
            }
        }
    }

    /// Nothing to wait for.
    public func flush() async {}
}
