import Synchronization

/// In-process, per-key mutual exclusion for async code.
///
/// Writes of one user wait here, in arrival order, instead of each holding a pooled
/// connection while blocked on the database lock; writes of different users never wait
/// on each other. Across server instances the database's advisory lock does the same job.
public final class UserLocks: Sendable {
    /// Creates an empty set of locks.
    public init() {}

    private let waiters = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `body` holding the lock named `key`; callers with the same key run one at a
    /// time, in arrival order.
    public func withLock<R: Sendable>(
        _ key: String, _ body: () async throws(StoreError) -> R
    ) async throws(StoreError) -> R {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: String) async {
        let free = waiters.withLock { waiters -> Bool in
            guard waiters[key] == nil else { return false }
            waiters[key] = []
            return true
        }
        if free { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = waiters.withLock { waiters -> Bool in
                if waiters[key] == nil {
                    waiters[key] = []
                    return true
                }
                waiters[key]!.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func release(_ key: String) {
        let next = waiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
            guard var queue = waiters[key], !queue.isEmpty else {
                waiters[key] = nil
                return nil
            }
            let next = queue.removeFirst()
            waiters[key] = queue
            return next
        }
        next?.resume()
    }
}
