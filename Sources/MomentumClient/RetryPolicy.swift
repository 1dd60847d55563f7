import Foundation

/// How long the client waits before trying again after a failure: up to ``initial``
/// doubling to ``maximum``, with full jitter, for at most ``attempts`` tries where a caller
/// bounds them.
///
/// Full jitter (a wait drawn at random between zero and the doubled ceiling) keeps a fleet
/// of phones that lost the server at the same moment from coming back at the same moment.
public struct RetryPolicy: Hashable, Sendable {
    /// The first ceiling.
    public var initial: Duration
    /// The highest ceiling.
    public var maximum: Duration
    /// How many times one request is sent at most, the first included, where a caller
    /// bounds its tries (a request is; ``MomentumClient/keepInSync(retry:onSync:)`` tries
    /// on until it is cancelled).
    public var attempts: Int

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - initial: The first ceiling.
    ///   - maximum: The highest ceiling.
    ///   - attempts: How many times one request is sent at most (at least 1).
    public init(initial: Duration, maximum: Duration, attempts: Int = 4) {
        self.initial = initial
        self.maximum = maximum
        self.attempts = max(1, attempts)
    }

    /// Half a second, doubling up to a minute.
    public static let standard = RetryPolicy(initial: .milliseconds(500), maximum: .seconds(60))

    /// One request's retries: three tries, the waits under 200 ms then 400 ms, so that a
    /// call the user waits for fails within a second when the server is away.
    public static let requests = RetryPolicy(initial: .milliseconds(200), maximum: .seconds(5), attempts: 3)

    /// Never tries again.
    public static let never = RetryPolicy(initial: .zero, maximum: .zero, attempts: 1)

    /// The ceiling of the wait after `failures` failures in a row (1 or more).
    ///
    /// - Parameter failures: Failures so far.
    /// - Returns: `initial × 2^(failures − 1)`, at most `maximum`.
    public func delay(after failures: Int) -> Duration {
        var delay = initial
        for _ in 1..<max(1, min(failures, 32)) {
            delay *= 2
            if delay >= maximum { return maximum }
        }
        return min(delay, maximum)
    }

    /// The wait after `failures` failures in a row: drawn uniformly between zero and
    /// ``delay(after:)`` ("full jitter").
    ///
    /// - Parameters:
    ///   - failures: Failures so far.
    ///   - generator: The source of randomness (tests pass a seeded one).
    /// - Returns: A wait in `0...delay(after: failures)`.
    public func jitteredDelay(after failures: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let ceiling = delay(after: failures)
        let (seconds, attoseconds) = ceiling.components
        // Clamped to a century, so that no ceiling overflows the nanoseconds.
        let nanoseconds = min(max(0, seconds), 3_155_760_000) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        guard nanoseconds > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...nanoseconds, using: &generator))
    }

    /// The wait after `failures` failures in a row, drawn with the system's randomness.
    ///
    /// - Parameter failures: Failures so far.
    /// - Returns: A wait in `0...delay(after: failures)`.
    public func jitteredDelay(after failures: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return jitteredDelay(after: failures, using: &generator)
    }
}
