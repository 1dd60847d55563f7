import MomentumStore
import Synchronization

/// Guarded appends waiting to be written, and how many writes are in flight: a write that
/// finds a free slot goes at once; the others queue, and whoever finishes a write takes
/// everything queued (up to ``maximumBatch``, one write per user) and writes it together.
///
/// Under load this is a group commit across users: one statement, one commit, one round
/// trip for many appends. Alone, a write waits for nothing.
final class GuardedWriteQueue: Sendable {
    /// The most statements in flight at once.
    static let maximumInFlight = 2
    /// The most writes in one statement.
    static let maximumBatch = 64

    private struct Waiting {
        var write: GuardedWrite
        var done: CheckedContinuation<Bool, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var inFlight = 0
    }

    private let state = Mutex(State())

    /// Writes `write` with `writeTogether`, alone or with others queued at the same time.
    func write(
        _ write: GuardedWrite,
        with writeTogether: @escaping @Sendable ([GuardedWrite]) async -> [Result<Bool, StoreError>]
    ) async throws -> Bool {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Bool, any Error>) in
            let leads = state.withLock { state -> Bool in
                state.queue.append(Waiting(write: write, done: done))
                guard state.inFlight < Self.maximumInFlight else { return false }
                state.inFlight += 1
                return true
            }
            if leads { Task { await self.drain(writeTogether) } }
        }
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
                if batch.isEmpty { state.inFlight -= 1 }
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
