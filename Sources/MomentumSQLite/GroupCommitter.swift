import Foundation
import GRDB
import MomentumStore
import Synchronization

/// Group commit for SQLite: many write programs, one transaction, one fsync.
///
/// Programs wait in a queue. A single flusher (``run()``, a long-lived loop) takes
/// everything queued (up to the batch limit), runs each program in its own savepoint
/// inside one transaction, and commits.
/// While it commits, new programs queue for the next batch, so under load a batch grows
/// until the fsync is shared by many appends; alone, an append commits at once. A
/// program whose savepoint fails is rolled back alone; if the commit itself fails, every
/// program of the batch fails and none is acknowledged.
final class GroupCommitter: Sendable {
    private struct Job: Sendable {
        /// Runs the program inside a savepoint; returns whether it succeeded.
        let run: @Sendable (Database) -> Bool
        /// Delivers the outcome: `nil` after a successful commit, else the error.
        let finish: @Sendable (StoreError?) -> Void
    }

    private struct State {
        var queue: [Job] = []
        var closed = false
    }

    private let pool: DatabasePool
    private let maximumBatch: Int
    private let state = Mutex(State())

    private let checkpointer: Checkpointer
    /// Wakes ``run()`` when a program is queued.
    private let signal = WorkSignal()

    init(pool: DatabasePool, maximumBatch: Int, checkpointer: Checkpointer) {
        self.pool = pool
        self.maximumBatch = max(1, maximumBatch)
        self.checkpointer = checkpointer
    }

    func submit<Result: Sendable>(_ program: StoreProgram<Result>) async throws(StoreError) -> Result {
        let outcome = Mutex<Swift.Result<Result, StoreError>?>(nil)
        let result: Swift.Result<Result, StoreError> = await withCheckedContinuation { continuation in
            let job = Job(
                run: { db in
                    do {
                        var value: Result?
                        try db.inSavepoint {
                            do throws(StoreError) {
                                value = try SQLiteStore.interpret(program, in: db)
                                return .commit
                            } catch {
                                outcome.withLock { $0 = .failure(error) }
                                return .rollback
                            }
                        }
                        guard let value else { return false }
                        outcome.withLock { $0 = .success(value) }
                        return true
                    } catch {
                        outcome.withLock { $0 = .failure(StoreError.wrap(error)) }
                        return false
                    }
                },
                finish: { error in
                    if let error {
                        program.rollback()
                        let earlier = outcome.withLock { $0 }
                        if case .failure(let own)? = earlier {
                            continuation.resume(returning: .failure(own))
                        } else {
                            continuation.resume(returning: .failure(error))
                        }
                    } else {
                        let value = outcome.withLock { $0 } ?? .failure(StoreError(.unavailable, "no result"))
                        if case .failure = value { program.rollback() }
                        continuation.resume(returning: value)
                    }
                })
            let queued = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.queue.append(job)
                return true
            }
            if queued {
                signal.notify()
            } else {
                job.finish(StoreError(.unavailable, "the SQLite store is closed"))
            }
        }
        return try result.get()
    }

    /// Writes what is queued, batch after batch, whenever programs arrive, until
    /// ``close()``; then writes what was queued before it and returns. The store runs it
    /// in a task of its own, or in its `run()` when it runs as a service.
    func run() async {
        while true {
            let more = await signal.wait()
            await flush()
            if !more { return }
        }
    }

    /// Refuses programs from now on; ``run()`` writes those queued before and ends.
    func close() {
        state.withLock { $0.closed = true }
        signal.close()
    }

    private func flush() async {
        while true {
            let batch = state.withLock { state -> [Job] in
                let batch = Array(state.queue.prefix(maximumBatch))
                state.queue.removeFirst(batch.count)
                return batch
            }
            if batch.isEmpty { return }
            do {
                try await pool.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        for job in batch { _ = job.run(db) }
                        return .commit
                    }
                    if checkpointer.takeWriterTurn() {
                        // Committed already: a failed checkpoint is tried again later.
                        _ = try? db.checkpoint(.passive)
                    }
                }
                checkpointer.committed()
                for job in batch { job.finish(nil) }
            } catch {
                let failure = StoreError.wrap(error)
                for job in batch { job.finish(failure) }
            }
        }
    }
}
