import MomentumStore
import Synchronization

/// Guarded appends waiting to be written, and the loops that write them: a write that
/// finds a loop idle goes at once; the others queue, and whichever loop finishes a write
/// takes everything queued (up to ``maximumBatch``, one write per user) and writes it
/// together.
///
/// Under load this is a group commit across users: one statement, one commit, one round
/// trip for many appends. Alone, a write waits for nothing. The loops (``run(_:)``) run in
/// a task the store owns, or in the store's `run()` when it runs as a service.
final class GuardedWriteQueue: Sendable {
    /// The most statements in flight at once: the number of loops.
    static let maximumInFlight = 2
    /// The most writes in one statement.
    static let maximumBatch = 64

    private struct Waiting {
        var write: GuardedWrite
        var done: CheckedContinuation<Bool, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var closed = false
    }

    private let state = Mutex(State())
    private let signal = WorkSignal()

    /// Queues `write` for the loops; returns whether its version check passed.
    func write(_ write: GuardedWrite) async throws -> Bool {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Bool, any Error>) in
            let queued = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.queue.append(Waiting(write: write, done: done))
                return true
            }
            if queued {
                signal.notify()
            } else {
                done.resume(throwing: StoreError(.unavailable, "the PostgreSQL store is closed"))
            }
        }
    }

    /// Runs ``maximumInFlight`` loops that write what is queued with `writeTogether`,
    /// until ``close()``; then writes what was queued before it and returns.
    func run(_ writeTogether: @escaping @Sendable ([GuardedWrite]) async -> [Result<Bool, StoreError>]) async {
        await withDiscardingTaskGroup { group in
            for _ in 0..<Self.maximumInFlight {
                group.addTask {
                    while true {
                        let more = await self.signal.wait()
                        await self.drain(writeTogether)
                        if !more { return }
                    }
                }
            }
        }
    }

    /// Refuses writes from now on; the loops write those queued before and end.
    func close() {
        state.withLock { $0.closed = true }
        signal.close()
    }

    /// Writes what is queued, batch after batch, until nothing is left.
    private func drain(_ writeTogether: @Sendable ([GuardedWrite]) async -> [Result<Bool, StoreError>]) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                var batch: [Waiting] = []
                var users = Set<String>()
                var rest: [Waiting] = []
                for waiting in state.queue {
                    // One write per user in a statement; a second waits for the next.
                    if batch.count < Self.maximumBatch, users.insert(waiting.write.user).inserted {
                        batch.append(waiting)
                    } else {
                        rest.append(waiting)
                    }
                }
                state.queue = rest
                return batch
            }
            if batch.isEmpty { return }
            let results = await writeTogether(batch.map(\.write))
            for (waiting, result) in zip(batch, results) {
                switch result {
                case .success(let written): waiting.done.resume(returning: written)
                case .failure(let error): waiting.done.resume(throwing: error)
                }
            }
        }
    }
}
