import Foundation

/// How long the client waits before trying again after a failure: doubling from
/// ``initial`` up to ``maximum``.
public struct RetryPolicy: Hashable, Sendable {
    /// The first wait.
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - initial: The first wait.
    ///   - maximum: The longest wait.
    public init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
    }

    /// Half a second, doubling up to a minute.
    public static let standard = RetryPolicy(initial: .milliseconds(500), maximum: .seconds(60))

    /// The wait after `failures` failures in a row (1 or more).
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
}
