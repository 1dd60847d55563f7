import Synchronization

/// Wakes the loops that do a store's background work (writing batched appends,
/// checkpointing), and tells them when to stop: the loops run as long-lived tasks the
/// store owns, or in the store's ``MomentumStore/run()`` when it runs as a service.
///
/// ```swift
/// while await signal.wait() { drainQueue() }   // the loop
/// signal.notify()                               // after queueing work
/// signal.close()                                // the loop drains, then ends
/// ```
package final class WorkSignal: Sendable {
    private struct State {
        /// Whether work was queued while no loop waited: the next wait returns at once. One
        /// flag is enough, since a woken loop takes everything queued before it looks again;
        /// a count would send a loop round once per append, for nothing.
        var pending = false
        var waiters: [CheckedContinuation<Bool, Never>] = []
        var closed = false
    }

    private let state = Mutex(State())

    package init() {}

    /// Work was queued: wakes one waiting loop, or lets the next wait return at once.
    package func notify() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.pending = true
            return nil
        }
        waiter?.resume(returning: true)
    }

    /// Waits for work: `true` when there may be some, `false` once the signal is closed
    /// and every wake-up was taken (the loop then ends).
    package func wait() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = state.withLock { state -> Bool? in
                if state.pending {
                    state.pending = false
                    return true
                }
                if state.closed { return false }
                state.waiters.append(continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Whether ``close()`` was called.
    package var isClosed: Bool { state.withLock { $0.closed } }

    /// Stops the loops: each wakes, finishes the work queued, and ends.
    package func close() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.closed = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }
}
