import Foundation
import Synchronization

/// Slows down password guessing, per email and per client address.
///
/// - Each key (an email, whether or not it has an account, and an address) counts failed
///   sign-ins. After `free` failures, each further attempt must wait: 1 s after the last
///   failure, then 2 s, 4 s, … up to `maxBackoff`. A success resets the email's count.
///   Failures are forgotten once a key has had none for `maxBackoff` plus 15 minutes.
/// - One email has at most one password check running at a time, one address at most
///   two; more concurrent attempts are refused at once. So a burst of guesses never
///   queues more than a few bcrypt runs, whatever its size.
///
/// A refused attempt gets 429 with `Retry-After` and the same message whether or not the
/// email has an account. It holds no check slot and costs no password work, but it is
/// still a request to read and answer: a client that comes back before its `Retry-After`
/// has passed (a script retrying at once, 16 at a time) would otherwise make the server
/// answer refusals as fast as it can, and take the cores from the checks of real users. So
/// such a refusal is sent after `refusalDelay` (holding nothing but the waiting request;
/// at most `maxDelayed` wait at once, further ones are answered at once), which turns a
/// flood of thousands of attempts a second into a trickle; a client that honours
/// `Retry-After` is answered at once.
final class SignInThrottle: Sendable {
    /// A throttled key's limits.
    struct Policy: Sendable {
        /// Failures allowed before attempts wait.
        var free: Int
        /// Checks that may run at once.
        var concurrent: Int
    }

    private struct Entry {
        var failures = 0
        var lastFailure = 0.0
        var running = 0
        /// When the key's last refusal told the client to come back.
        var retryAt = 0.0
    }

    /// The keys of one attempt, taken by ``begin(_:now:)`` and given back by
    /// ``end(_:succeeded:now:)``.
    struct Attempt: Sendable {
        fileprivate var keys: [(key: String, policy: Policy)]
    }

    private let entries = Mutex([String: Entry]())
    private let maxBackoff: Double
    private let refusalDelay: Duration
    private let maxDelayed: Int
    private let delayed = Atomic<Int>(0)

    /// - Parameters:
    ///   - maxBackoffSeconds: The longest wait after failures.
    ///   - refusalDelay: How long a refusal waits before it is sent when the client came
    ///     back before its last `Retry-After` had passed.
    ///   - maxDelayed: The refusals that may wait at once.
    init(maxBackoffSeconds: Int, refusalDelay: Duration = .seconds(1), maxDelayed: Int = 10_000) {
        maxBackoff = Double(max(1, maxBackoffSeconds))
        self.refusalDelay = refusalDelay
        self.maxDelayed = maxDelayed
    }

    /// The seconds an attempt must still wait after `failures` failures with `free` allowed.
    func backoff(failures: Int, free: Int) -> Double {
        guard failures >= free else { return 0 }
        return min(maxBackoff, pow(2, Double(min(failures - free, 30))))
    }

    /// Starts an attempt for the given keys, or throws 429 when one of them must wait or
    /// already has as many checks running as it may (after `refusalDelay` when the client
    /// did not wait for its last refusal's `Retry-After`).
    func begin(_ keys: [(key: String, policy: Policy)], now: Double) async throws -> Attempt {
        let refusal = entries.withLock { entries -> (wait: Int, early: Bool)? in
            if entries.count > 100_000 {
                entries = entries.filter { $0.value.running > 0 || now - $0.value.lastFailure < maxBackoff + 900 }
            }
            var wait = 0.0
            var early = false
            var limiting: [String] = []
            for (key, policy) in keys {
                var entry = entries[key] ?? Entry()
                if entry.failures > 0, now - entry.lastFailure > maxBackoff + 900 { entry.failures = 0 }
                entries[key] = entry
                var remaining = entry.lastFailure + backoff(failures: entry.failures, free: policy.free) - now
                if entry.running >= policy.concurrent { remaining = max(remaining, 1) }
                if remaining > 0 { limiting.append(key) }
                wait = max(wait, remaining)
                if now < entry.retryAt { early = true }
            }
            guard wait <= 0 else {
                // The keys that refused this attempt remember when it may come back.
                let seconds = max(1, Int(wait.rounded(.up)))
                for key in limiting { entries[key]?.retryAt = now + Double(seconds) }
                return (seconds, early)
            }
            for (key, _) in keys { entries[key]?.running += 1 }
            return nil
        }
        guard let refusal else { return Attempt(keys: keys) }
        if refusal.early { await delayRefusal() }
        throw APIError(
            .tooManyRequests, "sign_in_throttled", "too many sign-in attempts; try again in \(refusal.wait) s",
            headers: [.retryAfter: String(refusal.wait)])
    }

    /// Waits `refusalDelay`, unless `maxDelayed` refusals wait already. Cancellation ends
    /// the wait early.
    private func delayRefusal() async {
        defer { delayed.wrappingSubtract(1, ordering: .relaxed) }
        guard delayed.wrappingAdd(1, ordering: .relaxed).newValue <= maxDelayed else { return }
        try? await Task.sleep(for: refusalDelay)
    }

    /// Ends an attempt: a failure counts against every key, a success resets the email's
    /// count (`resetting`).
    func end(_ attempt: Attempt, succeeded: Bool?, resetting: String? = nil, now: Double) {
        entries.withLock { entries in
            for (key, _) in attempt.keys {
                guard var entry = entries[key] else { continue }
                entry.running = max(0, entry.running - 1)
                // `nil`: the password was never checked (bcrypt busy, the store failed):
                // neither a failure to count against the user nor a success.
                if succeeded == false {
                    entry.failures += 1
                    entry.lastFailure = now
                } else if succeeded == true, key == resetting {
                    entry.failures = 0
                }
                if entry.running == 0, entry.failures == 0, entry.retryAt <= now {
                    entries[key] = nil
                } else {
                    entries[key] = entry
                }
            }
        }
    }
}
