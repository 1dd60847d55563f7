import Synchronization

/// The stored projection versions that warm readers check, read together: a read that
/// finds a slot free reads at once, alone, in its own task; the others wait, and when a
/// read ends, everything that waited meanwhile goes in the next statement, read by the
/// first of those waiting.
///
/// A warm dashboard costs one version read and otherwise only the engine cache, so the
/// read's trip to the database was most of its cost: on PostgreSQL a round trip (a backend
/// woken, a statement run, the answer decoded), on SQLite a hop to a reader's queue and
/// back. Under load one statement now answers many readers. Each reader still sees a
/// snapshot taken after it asked: the statement that answers it starts after it was
/// queued.
package final class VersionReads: Sendable {
    /// The most statements in flight at once.
    package static let maximumInFlight = 2
    /// The most users in one statement.
    package static let maximumBatch = 256

    /// One reader's turn: its version (`nil` when the user has none), or the reads of
    /// those who waited, for it to run.
    private enum Turn: Sendable {
        case answered(Result<Int64?, any Error>)
        case lead([Waiting])
    }

    private struct Waiting: Sendable {
        let user: String
        let turn: CheckedContinuation<Turn, Never>
    }

    private struct State {
        var inFlight = 0
        /// Never empty while a slot is free: a read that ends hands its slot to those
        /// waiting.
        var queue: [Waiting] = []
    }

    private let state = Mutex(State())
    /// How many statements were run, and how many reads they answered.
    private let counts = Mutex((statements: 0, reads: 0))

    /// Reads with nothing in flight.
    package init() {}

    /// Statements run, and reads answered, so far.
    package var statistics: (statements: Int, reads: Int) { counts.withLock { $0 } }

    /// Reads waiting for a statement.
    package var waiting: Int { state.withLock { $0.queue.count } }

    /// The stored version of `user`'s projection, `nil` when there is no such user; `read`
    /// reads the versions of a set of users in one statement.
    package func version(
        of user: String, _ read: @escaping @Sendable ([String]) async throws -> [String: Int64]
    ) async throws -> Int64? {
        let alone = state.withLock { state -> Bool in
            guard state.inFlight < Self.maximumInFlight else { return false }
            state.inFlight += 1
            return true
        }
        if alone {
            return try await lead(user, others: [], read).get()
        }
        let turn = await withCheckedContinuation { (turn: CheckedContinuation<Turn, Never>) in
            let free = state.withLock { state -> Bool in
                guard state.inFlight < Self.maximumInFlight else {
                    state.queue.append(Waiting(user: user, turn: turn))
                    return false
                }
                state.inFlight += 1
                return true
            }
            if free { turn.resume(returning: .lead([])) }
        }
        switch turn {
        case .answered(let result):
            return try result.get()
        case .lead(let others):
            return try await lead(user, others: others, read).get()
        }
    }

    /// Reads the versions of `user` and `others` in one statement, answers the others,
    /// then hands the slot to those who waited meanwhile (or frees it).
    private func lead(
        _ user: String, others: [Waiting], _ read: @escaping @Sendable ([String]) async throws -> [String: Int64]
    ) async -> Result<Int64?, any Error> {
        var users = [user]
        var seen: Set<String> = [user]
        for waiting in others where seen.insert(waiting.user).inserted { users.append(waiting.user) }
        let result: Result<[String: Int64], any Error>
        if others.isEmpty {
            do {
                result = .success(try await read(users))
            } catch {
                result = .failure(error)
            }
        } else {
            // Others wait on this statement: the leader's cancellation (its client gone)
            // must not fail their reads, so the statement runs in a task of its own.
            result = await Task { try await read(users) }.result
        }
        counts.withLock {
            $0.statements += 1
            $0.reads += 1 + others.count
        }
        let next = state.withLock { state -> [Waiting] in
            guard !state.queue.isEmpty else {
                state.inFlight -= 1
                return []
            }
            let taken = min(state.queue.count, Self.maximumBatch)
            defer { state.queue.removeFirst(taken) }
            return Array(state.queue.prefix(taken))
        }
        if let first = next.first { first.turn.resume(returning: .lead(Array(next.dropFirst()))) }
        for waiting in others { waiting.turn.resume(returning: .answered(result.map { $0[waiting.user] })) }
        return result.map { $0[user] }
    }
}
