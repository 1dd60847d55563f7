import Foundation

/// Wakes whoever waits for the outbox (``MomentumClient/keepInSync(retry:onSync:)``) when
/// an event enters it, instead of their polling it.
///
/// Each waiter subscribes to a stream of its own that keeps the newest wake-up: one sent
/// between the waiter's look at the outbox and its wait is not lost, and many sent while
/// it syncs make one more sync, not many.
final class OutboxSignal: @unchecked Sendable {  // every access holds the lock
    private let lock = NSLock()
    private var waiters: [UUID: AsyncStream<Void>.Continuation] = [:]

    /// A stream that yields after each ``signal()`` from now on, until ``unsubscribe(_:)``.
    ///
    /// - Returns: The subscription's id and its stream.
    func subscribe() -> (id: UUID, wakeUps: AsyncStream<Void>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        lock.withLock { waiters[id] = continuation }
        return (id, stream)
    }

    /// Ends a subscription: its stream finishes.
    func unsubscribe(_ id: UUID) {
        lock.withLock { waiters.removeValue(forKey: id) }?.finish()
    }

    /// Wakes every subscriber.
    func signal() {
        for waiter in lock.withLock({ Array(waiters.values) }) { waiter.yield() }
    }
}
