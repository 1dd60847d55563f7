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
/// email has an account.
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
    }

    /// The keys of one attempt, taken by ``begin(_:now:)`` and given back by
    /// ``end(_:succeeded:now:)``.
    struct Attempt: Sendable {
        fileprivate var keys: [(key: String, policy: Policy)]
    }

    private let entries = Mutex([String: Entry]())
    private let maxBackoff: Double

    init(maxBackoffSeconds: Int) {
        maxBackoff = Double(max(1, maxBackoffSeconds))
    }

    /// The seconds an attempt must still wait after `failures` failures with `free` allowed.
    func backoff(failures: Int, free: Int) -> Double {
        guard failures >= free else { return 0 }
        return min(maxBackoff, pow(2, Double(min(failures - free, 30))))
    }

    /// Starts an attempt for the given keys, or throws 429 when one of them must wait or
    /// already has as many checks running as it may.
    func begin(_ keys: [(key: String, policy: Policy)], now: Double) throws -> Attempt {
        let wait = entries.withLock { entries -> Int? in
            if entries.count > 100_000 {
                entries = entries.filter { $0.value.running > 0 || now - $0.value.lastFailure < maxBackoff + 900 }
            }
            var wait = 0.0
            for (key, policy) in keys {
                var entry = entries[key] ?? Entry()
                if entry.failures > 0, now - entry.lastFailure > maxBackoff + 900 { entry.failures = 0 }
                entries[key] = entry
                let remaining = entry.lastFailure + backoff(failures: entry.failures, free: policy.free) - now
                wait = max(wait, remaining)
                if entry.running >= policy.concurrent { wait = max(wait, 1) }
            }
            guard wait <= 0 else { return max(1, Int(wait.rounded(.up))) }
            for (key, _) in keys { entries[key]?.running += 1 }
            return nil
        }
        if let wait {
            throw APIError(
                .tooManyRequests, "sign_in_throttled", "too many sign-in attempts; try again in \(wait) s",
                headers: [.retryAfter: String(wait)])
        }
        return Attempt(keys: keys)
    }

    /// Ends an attempt: a failure counts against every key, a success resets the email's
    /// count (`resetting`).
    func end(_ attempt: Attempt, succeeded: Bool, resetting: String? = nil, now: Double) {
        entries.withLock { entries in
            for (key, _) in attempt.keys {
                guard var entry = entries[key] else { continue }
                entry.running = max(0, entry.running - 1)
                if !succeeded {
                    entry.failures += 1
                    entry.lastFailure = now
                } else if key == resetting {
                    entry.failures = 0
                }
                if entry.running == 0, entry.failures == 0 {
                    entries[key] = nil
                } else {
                    entries[key] = entry
                }
            }
        }
    }
}
