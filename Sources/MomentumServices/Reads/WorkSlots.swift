import Synchronization

/// A counting semaphore whose callers wait a bounded time: at most `count` holders at
/// once, and a caller that gets no slot within its wait is told so, so that a burst turns
/// into quick refusals instead of a queue that grows without end.
public final class WorkSlots: Sendable {
    private struct Waiter {
        /// The id.
        public let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var free: Int
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    /// Creates `count` slots (at least one).
    public init(count: Int) {
        state = Mutex(State(free: max(1, count)))
    }

    /// How many callers are waiting for a slot now.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// Takes a slot, waiting at most `wait` for one; `false` when none came free in time
    /// (or the task was cancelled). A `true` must be followed by ``release()``.
    public func acquire(waitingAtMost wait: Duration) async -> Bool {
        let id: Int? = state.withLock { state in
            if state.free > 0 {
                state.free -= 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return true }
        guard wait > .zero else { return false }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let granted: Bool? = state.withLock { state in
                    if state.free > 0 {
                        state.free -= 1
                        return true
                    }
                    // A task cancelled before it waits gives up now: its cancellation handler
                    // ran before there was a waiter to give up, and no later one will.
                    // (Checked under the lock that `giveUp` takes, so a cancellation finds
                    // either this refusal or the waiter.)
                    if Task.isCancelled { return false }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let granted {
                    continuation.resume(returning: granted)
                    return
                }
                Task { [weak self] in
                    try? await Task.sleep(for: wait)
                    self?.giveUp(id)
                }
            }
        } onCancel: {
            giveUp(id)
        }
    }

    /// Returns a slot: the longest waiter gets it, or it becomes free.
    public func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume(returning: true)
    }

    /// Tells a waiter that is still waiting that no slot came.
    private func giveUp(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: false)
    }
}
