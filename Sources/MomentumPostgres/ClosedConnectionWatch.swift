import Logging
import MomentumStore
import NIOCore
import PostgresNIO
import Synchronization

/// Ends the work on a pooled connection that its connection's closing left waiting forever.
///
/// PostgresNIO 1.33 writes a query to its channel without a promise for the write: when the
/// channel closed just before (a pooler restarted, a primary went away) and the pool had not
/// yet learnt of it, the write fails where nobody hears it and the query waits forever. Seen
/// behind PgBouncer: its safe shutdown closes every client connection at once, and an
/// append that leased one of them in the next milliseconds held its user's lock until the
/// process ended, so every later check-in of that user timed out.
///
/// Each operation's work runs in a task of its own; once its connection has been closed for
/// ``grace``, the operation fails with `StoreError.Code.unavailable` (a retry goes to a new
/// connection) and the work is left to end, or not, on its own. Its lease is no loss: the
/// pool forgets a connection that closed, leased or not; the work, if it never ends, stays in
/// memory until the process does, and each such operation is logged as an error. An
/// operation that ends normally costs a task, a continuation and a few short locks (BENCHMARKS.md
/// §17). One callback is registered per connection, not per operation, so a long-lived
/// connection gathers nothing.
@_spi(Benchmarks) public final class ClosedConnectionWatch: Sendable {
    /// How long an operation may go on after its connection closed: enough for a statement
    /// the closing failed to report its error, and for work done after the last statement.
    static let grace: TimeAmount = .seconds(2)

    private struct State {
        /// The connections whose closing is watched, held so that no other connection takes
        /// their identity while they are.
        var watched: [ObjectIdentifier: PostgresConnection] = [:]
        /// The operations under way, by a number of their own, with their connection.
        var operations: [UInt64: (connection: ObjectIdentifier, operation: any Abandonable)] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())
    private let logger: Logger
    private let abandonedCount = Mutex(0)

    /// A watch with nothing under way, which logs the operations it gives up on to `logger`.
    public init(logger: Logger = Logger(label: "momentum.postgres")) {
        self.logger = logger
    }

    /// Operations given up on so far.
    var abandoned: Int { abandonedCount.withLock { $0 } }

    /// Operations under way, over every connection.
    var underWay: Int { state.withLock { $0.operations.count } }

    /// Connections whose closing is watched.
    var watching: Int { state.withLock { $0.watched.count } }

    /// Runs `body` with `connection`; fails with `StoreError.Code.unavailable` once the
    /// connection has been closed for ``grace`` and `body` has not ended. A cancellation of
    /// the calling task reaches `body`.
    public func run<Value: Sendable>(
        on connection: PostgresConnection,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let operation = Operation<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                operation.answer.withLock { $0 = continuation }
                let key = ObjectIdentifier(connection)
                let (number, unwatched) = state.withLock { state -> (UInt64, Bool) in
                    state.next &+= 1
                    state.operations[state.next] = (key, operation)
                    guard state.watched[key] == nil else { return (state.next, false) }
                    state.watched[key] = connection
                    return (state.next, true)
                }
                if unwatched {
                    // Fires at once for a connection already closed.
                    connection.closeFuture.whenComplete { _ in
                        self.state.withLock { _ = $0.watched.removeValue(forKey: key) }
                        // `connection` is held until then: no other takes its identity.
                        connection.eventLoop.scheduleTask(in: Self.grace) { self.abandon(connection) }
                    }
                }
                operation.start {
                    let result: Result<Value, any Error>
                    do { result = .success(try await body(connection)) } catch { result = .failure(error) }
                    self.state.withLock { _ = $0.operations.removeValue(forKey: number) }
                    operation.resume(result)
                }
            }
        } onCancel: {
            operation.cancel()
        }
    }

    /// Fails the operations still under way on `connection`, closed ``grace`` ago.
    private func abandon(_ connection: PostgresConnection) {
        let key = ObjectIdentifier(connection)
        let stuck = state.withLock { state -> [any Abandonable] in
            let numbers = state.operations.filter { $0.value.connection == key }.map(\.key)
            return numbers.compactMap { state.operations.removeValue(forKey: $0)?.operation }
        }
        guard !stuck.isEmpty else { return }
        abandonedCount.withLock { $0 += stuck.count }
        logger.error(
            "a PostgreSQL connection closed under operations that did not end; they failed after the grace",
            metadata: ["operations": "\(stuck.count)", "grace": "\(Self.grace)"])
        for operation in stuck { operation.abandon() }
    }
}

/// An operation ``ClosedConnectionWatch`` can give up on.
private protocol Abandonable: Sendable {
    func abandon()
}

/// One operation: its work's task, and its answer, given once (by the work, or by the
/// connection's closing).
private final class Operation<Value: Sendable>: Abandonable {
    let answer = Mutex<CheckedContinuation<Value, any Error>?>(nil)
    private let work = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    func start(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        let cancelled = work.withLock { work -> Bool in
            work.task = task
            return work.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        work.withLock { work -> Task<Void, Never>? in
            work.cancelled = true
            return work.task
        }?.cancel()
    }

    func resume(_ result: Result<Value, any Error>) {
        answer.withLock { $0.take() }?.resume(with: result)
    }

    func abandon() {
        cancel()
        resume(
            .failure(StoreError(.unavailable, "the connection to PostgreSQL closed under a statement that never ended"))
        )
    }
}
