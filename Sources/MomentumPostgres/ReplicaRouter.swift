import Foundation
import Logging
import MomentumStore
import PostgresNIO
import Synchronization

/// Decides, read by read, whether a streaming replica may serve it: an LSN fence.
///
/// When a read that may go to the replica is asked for, the primary's WAL position is
/// sampled by a sample started after the read arrived (so it covers every write
/// acknowledged before), then the replica's replay position; the read goes to the replica
/// only when its replay position is at or past the fence. Every later snapshot on the
/// replica holds what it had replayed, so the answer cannot be older than any write a
/// client saw acknowledged before it asked, whichever instance wrote it. Concurrent reads
/// share samples (``CoalescedSample``). A replica behind, lagging more than allowed,
/// unreachable or not a replica at all sends the read to the primary; after a failure or
/// too long a lag it is left alone for a second.
final class ReplicaRouter: Sendable {
    /// The replica's pool.
    let client: PostgresClient
    /// The most lag at which the replica is still tried.
    let maximumLag: Duration
    /// How long a sample may take before the replica counts as unreachable.
    static let sampleTimeout = Duration.seconds(1)
    /// How long a read admitted to the replica may take before it is given up and served by
    /// the primary instead (a replica that stopped, or whose connections hang).
    static let readTimeout = Duration.seconds(3)
    /// How long the replica is left alone after it failed or lagged too far.
    static let pause = Duration.seconds(1)

    private let fence: CoalescedSample<UInt64>
    private let replay: CoalescedSample<ReplayPosition>
    private let state = Mutex(State())

    private struct State {
        var health = ReplicaHealth.ok
        var leftAloneUntil: ContinuousClock.Instant?
        /// Whether a probe of a degraded replica is under way.
        var probing = false
        /// When a sample of the replica's position last ended, either way.
        var sampled: ContinuousClock.Instant?
        var counts = ReplicaReadCounts()
    }

    /// The replica's replay position and its lag behind the primary, in seconds.
    struct ReplayPosition: Sendable {
        var lsn: UInt64
        var lagSeconds: Double
    }

    /// A router for the replica `client`, fencing with positions read by `primary`.
    init(
        client: PostgresClient, maximumLag: Duration, logger: Logger,
        primary: @escaping @Sendable (PostgresQuery) async throws -> String
    ) {
        self.client = client
        self.maximumLag = maximumLag
        fence = CoalescedSample(timeout: Self.sampleTimeout) {
            let text = try await primary("SELECT pg_current_wal_insert_lsn()::text")
            guard let lsn = Self.lsn(text) else { throw SampleError(message: "the primary answered '\(text)'") }
            return lsn
        }
        replay = CoalescedSample(timeout: Self.sampleTimeout) {
            try await client.withConnection { connection in
                let rows = try await connection.query(
                    """
                    SELECT pg_last_wal_replay_lsn()::text,
                      CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                      ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END::float8
                    """, logger: logger)
                for try await (text, lag) in rows.decode((String?, Double).self) {
                    guard let text, let lsn = Self.lsn(text) else {
                        throw SampleError(message: "it is not a replica (not in recovery)")
                    }
                    return ReplayPosition(lsn: lsn, lagSeconds: lag)
                }
                throw SampleError(message: "no answer")
            }
        }
    }

    /// Whether a read asked for now may be served by the replica; counted either way. Only
    /// the first read after the replica became unreachable waits for it (a second at most).
    func admits() async -> Bool {
        let admitted = await decide()
        state.withLock { admitted ? ($0.counts.replica += 1) : ($0.counts.primary += 1) }
        return admitted
    }

    /// Counts a read the replica was chosen for but failed, and that went to the primary.
    func fellBack(_ error: any Error) {
        state.withLock { state in
            state.counts.replica -= 1
            state.counts.primary += 1
            state.health = .unreachable("\(error)")
            state.leftAloneUntil = .now + Self.pause
        }
    }

    private func decide() async -> Bool {
        // A degraded replica (unreachable, lagging) costs reads nothing: they go to the
        // primary at once, while a probe, at most one a second, finds when it is back.
        let (degraded, probes) = state.withLock { state -> (Bool, Bool) in
            guard state.health != .ok else { return (false, false) }
            let resting = state.leftAloneUntil.map { ContinuousClock.now < $0 } ?? false
            guard !resting, !state.probing else { return (true, false) }
            state.probing = true
            return (true, true)
        }
        if probes {
            Task {
                _ = await self.position()
                self.state.withLock { $0.probing = false }
            }
        }
        if degraded { return false }
        guard case .success(let fence) = await fence.next() else { return false }
        // Under a steady write load the replica is always a little behind the position
        // just sampled (by its replication lag, about a millisecond here): it is asked
        // again, for at most ``catchUpWait``, before the read goes to the primary.
        let deadline = ContinuousClock.now + Self.catchUpWait
        while true {
            guard let position = await position() else { return false }
            if position.lsn >= fence { return true }
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// How long a read waits for the replica to replay up to its fence before it goes to
    /// the primary.
    static let catchUpWait = Duration.milliseconds(50)

    /// The replica's position, unless it is unreachable or lags too far (then it is left
    /// alone for a while).
    private func position() async -> ReplayPosition? {
        switch await replay.next() {
        case .failure(let error):
            state.withLock { state in
                state.health = .unreachable("\(error)")
                state.leftAloneUntil = .now + Self.pause
                state.sampled = .now
            }
            return nil
        case .success(let position):
            let lagging = position.lagSeconds > Double(maximumLag.components.seconds)
            state.withLock { state in
                state.health = lagging ? .lagging(seconds: Int(position.lagSeconds.rounded(.up))) : .ok
                state.leftAloneUntil = lagging ? .now + Self.pause : nil
                state.sampled = .now
            }
            return lagging ? nil : position
        }
    }

    /// The replica's health for `/readyz`, which a load balancer asks every second or so
    /// and which must not wait for an unreachable replica (a check that times out takes the
    /// instance out of the balance, though it serves everything from the primary). A finding
    /// less than a second old is the answer; otherwise the replica is asked, and the answer
    /// waits for it at most ``healthWait``, except for the very first finding.
    func health() async -> ReplicaHealth {
        let (recent, first) = state.withLock { state -> (ReplicaHealth?, Bool) in
            guard let sampled = state.sampled else { return (nil, true) }
            return (ContinuousClock.now - sampled < Self.pause ? state.health : nil, false)
        }
        if let recent { return recent }
        let probe = Task { _ = await self.position() }
        if first {
            await probe.value
        } else {
            _ = await CoalescedSample<Void>.within(Self.healthWait) { await probe.value }
        }
        return state.withLock { $0.health }
    }

    /// The longest `/readyz` waits for a new finding about the replica.
    static let healthWait = Duration.milliseconds(250)

    /// How the reads allowed on the replica were served.
    var counts: ReplicaReadCounts { state.withLock { $0.counts } }

    /// An LSN's text (`16/B374D848`) as a number.
    static func lsn(_ text: String) -> UInt64? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16),
            high <= UInt64(UInt32.max), low <= UInt64(UInt32.max)
        else { return nil }
        return high << 32 | low
    }

    struct SampleError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// A value sampled for many waiters at once: a waiter gets the first sample that started
/// after it arrived (one under way when it arrives is too early for it, so it waits for
/// the next, which starts as soon as that one ends), so concurrent waiters share one.
final class CoalescedSample<Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Result<Value, any Error>, Never>
    private struct State {
        var running = false
        /// Waiting for the sample under way.
        var current: [Waiter] = []
        /// Arrived while it ran: waiting for the next.
        var next: [Waiter] = []
    }

    private let state = Mutex(State())
    private let timeout: Duration
    private let sample: @Sendable () async throws -> Value

    init(timeout: Duration, _ sample: @escaping @Sendable () async throws -> Value) {
        self.timeout = timeout
        self.sample = sample
    }

    /// A sample started after this call.
    func next() async -> Result<Value, any Error> {
        await withCheckedContinuation { (waiter: Waiter) in
            let starts = state.withLock { state -> Bool in
                if state.running {
                    state.next.append(waiter)
                    return false
                }
                state.running = true
                state.current = [waiter]
                return true
            }
            if starts { Task { await self.loop() } }
        }
    }

    private func loop() async {
        while true {
            let result = await Self.within(timeout, sample)
            let (done, more) = state.withLock { state -> ([Waiter], Bool) in
                let done = state.current
                state.current = state.next
                state.next = []
                if state.current.isEmpty { state.running = false }
                return (done, state.running)
            }
            for waiter in done { waiter.resume(returning: result) }
            if !more { return }
        }
    }

    /// `body`'s result, or a failure once `limit` has passed (the work is then cancelled
    /// and left to end on its own).
    static func within(
        _ limit: Duration, _ body: @escaping @Sendable () async throws -> Value
    ) async -> Result<Value, any Error> {
        await withCheckedContinuation { (answer: CheckedContinuation<Result<Value, any Error>, Never>) in
            let once = Once(answer)
            let work = Task {
                let result: Result<Value, any Error>
                do { result = .success(try await body()) } catch { result = .failure(error) }
                once.take()?.resume(returning: result)
            }
            Task {
                try? await Task.sleep(for: limit)
                guard let answer = once.take() else { return }
                work.cancel()
                answer.resume(returning: .failure(ReplicaRouter.SampleError(message: "no answer within \(limit)")))
            }
        }
    }

    /// A continuation resumed once, by whichever of the work and the timer ends first.
    private final class Once: Sendable {
        private let answer: Mutex<CheckedContinuation<Result<Value, any Error>, Never>?>
        init(_ answer: CheckedContinuation<Result<Value, any Error>, Never>) { self.answer = Mutex(answer) }
        func take() -> CheckedContinuation<Result<Value, any Error>, Never>? { answer.withLock { $0.take() } }
    }
}
