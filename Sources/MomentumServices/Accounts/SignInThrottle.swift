import Foundation
import Synchronization

/// Slows down password guessing without letting a guesser lock an account's owner out.
///
/// - An attempt is counted under keys: the email from this client (its address, or the
///   device key it showed: see ``SignInDevices``), the client address across emails, and,
///   for a client that has not signed in to that account before, the email across every
///   such client. Each key counts failed sign-ins; after its `free` failures each further
///   attempt under it must wait 1 s after the last failure, then 2 s, 4 s, … up to
///   `maxBackoff`. Failures are forgotten once a key has had none for `maxBackoff` plus 15
///   minutes. A success resets the failures of the email from that client.
/// - The email's shared key makes attempts wait only once its failures came from several
///   addresses (``Policy/sources``): one address guessing is slowed by its own key and
///   never makes the owner wait anywhere else, while guesses spread over many addresses
///   soon all wait on the shared key, the spent addresses' too. A client that signed in
///   to the account before (its address, remembered for ``knownFor`` on this instance, or
///   a device key) is not held by the shared key at all.
/// - One email has at most two password checks running at a time from unknown clients
///   (so one guessing address, one at a time on its own key, always leaves the owner a
///   slot), one once its failures came from several addresses (so guesses spread over
///   them take one bcrypt thread at most), one email from one client one, one address at
///   most two; more concurrent attempts are refused at once. So a burst of guesses never
///   queues more than a few bcrypt runs, whatever its size.
///
/// A refused attempt gets `.tooMany` with a retry delay and the same message whether or not the
/// email has an account. It holds no check slot and costs no password work, but it is
/// still a request to read and answer: a client that comes back before its `Retry-After`
/// has passed (a script retrying at once, 16 at a time) would otherwise make the server
/// answer refusals as fast as it can, and take the cores from the checks of real users. So
/// such a refusal is sent after `refusalDelay` (holding nothing but the waiting request;
/// at most `maxDelayed` wait at once, further ones are answered at once), which turns a
/// flood of thousands of attempts a second into a trickle; a client that honours
/// `Retry-After` is answered at once.
public final class SignInThrottle: Sendable {
    /// A throttled key's limits.
    public struct Policy: Sendable {
        /// Failures allowed before attempts wait.
        public var free: Int
        /// Checks that may run at once.
        public var concurrent: Int
        /// The different sources (``Key/source``) its failures must come from before the
        /// key makes attempts wait (its checks running at once are limited from the start):
        /// 0 for a key of one client.
        public var sources = 0
        /// Checks that may run at once when its failures came from those sources, if fewer.
        public var concurrentFromSources: Int?
    }

    /// One key an attempt is counted under.
    public struct Key: Sendable {
        /// The name.
        public var name: String
        var policy: Policy
        /// Where the attempt comes from, for a key that counts its sources.
        public var source: String?

        init(_ name: String, _ policy: Policy, source: String? = nil) {
            self.name = name
            self.policy = policy
            self.source = source
        }
    }

    private struct Entry {
        var failures = 0
        var lastFailure = 0.0
        var running = 0
        /// When the key's last refusal told the client to come back.
        public var retryAt = 0.0
        /// The sources of its failures, up to as many as its policy needs.
        public var sources: Set<String> = []
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// When the entries were last pruned.
        public var pruned = -Double.infinity
        /// The clients (`<email> <address>`) that signed in, and when they last did.
        public var known: [String: Double] = [:]
    }

    /// The keys of one attempt, taken by ``begin(_:now:)`` and given back by
    /// ``end(_:succeeded:resetting:now:)``.
    public struct Attempt: Sendable {
        fileprivate var keys: [Key]
    }

    private let state = Mutex(State())
    private let maxBackoff: Double
    private let refusalDelay: Duration
    private let maxDelayed: Int
    private let delayed = Atomic<Int>(0)
    /// How long a client that signed in to an account stays known to it (30 days).
    public let knownFor: Double = 30 * 86_400
    /// The most entries or known clients kept before the stale ones are forgotten.
    private let capacity: Int

    /// - Parameters:
    ///   - maxBackoffSeconds: The longest wait after failures.
    ///   - refusalDelay: How long a refusal waits before it is sent when the client came
    ///     back before its last `Retry-After` had passed.
    ///   - maxDelayed: The refusals that may wait at once.
    ///   - capacity: The entries kept before stale ones are dropped.
    public init(
        maxBackoffSeconds: Int, refusalDelay: Duration = .seconds(1), maxDelayed: Int = 10_000,
        capacity: Int = 100_000
    ) {
        maxBackoff = Double(max(1, maxBackoffSeconds))
        self.refusalDelay = refusalDelay
        self.maxDelayed = maxDelayed
        self.capacity = max(1, capacity)
    }

    /// The seconds an attempt must still wait after `failures` failures with `free` allowed.
    public func backoff(failures: Int, free: Int) -> Double {
        guard failures >= free else { return 0 }
        return min(maxBackoff, pow(2, Double(min(failures - free, 30))))
    }

    /// Starts an attempt for the given keys, or throws `.tooMany` when one of them must wait or
    /// already has as many checks running as it may (after `refusalDelay` when the client
    /// did not wait for its last refusal's `Retry-After`).
    public func begin(_ keys: [Key], now: Double) async throws -> Attempt {
        let outcome = state.withLock { state -> Result<Attempt, Refusal> in
            prune(&state, now: now)
            var wait = 0.0
            var early = false
            var limiting: [String] = []
            for key in keys {
                var entry = state.entries[key.name] ?? Entry()
                if entry.failures > 0, now - entry.lastFailure > maxBackoff + 900 {
                    entry.failures = 0
                    entry.sources = []
                }
                state.entries[key.name] = entry
                // A key whose failures came from too few sources makes no attempt wait yet.
                let sourced = entry.sources.count >= key.policy.sources
                var remaining =
                    sourced ? entry.lastFailure + backoff(failures: entry.failures, free: key.policy.free) - now : 0
                let concurrent =
                    sourced ? key.policy.concurrentFromSources ?? key.policy.concurrent : key.policy.concurrent
                if entry.running >= concurrent { remaining = max(remaining, 1) }
                if remaining > 0 { limiting.append(key.name) }
                wait = max(wait, remaining)
                if now < entry.retryAt { early = true }
            }
            guard wait <= 0 else {
                // The keys that refused this attempt remember when it may come back.
                let seconds = max(1, Int(wait.rounded(.up)))
                for name in limiting { state.entries[name]?.retryAt = now + Double(seconds) }
                return .failure(Refusal(wait: seconds, early: early))
            }
            for key in keys { state.entries[key.name]?.running += 1 }
            return .success(Attempt(keys: keys))
        }
        switch outcome {
        case .success(let attempt):
            return attempt
        case .failure(let refusal):
            if refusal.early { await delayRefusal() }
            throw ServiceError(
                .tooMany(retryAfterSeconds: refusal.wait), "sign_in_throttled",
                "too many sign-in attempts; try again in \(refusal.wait) s")
        }
    }

    private struct Refusal: Error {
        var wait: Int
        var early: Bool
    }

    /// Waits `refusalDelay`, unless `maxDelayed` refusals wait already. Cancellation ends
    /// the wait early.
    private func delayRefusal() async {
        defer { delayed.wrappingSubtract(1, ordering: .relaxed) }
        guard delayed.wrappingAdd(1, ordering: .relaxed).newValue <= maxDelayed else { return }
        try? await Task.sleep(for: refusalDelay)
    }

    /// Ends an attempt: a failure counts against every key (and its source), a success
    /// resets the failures of the key named `resetting` (the email from that client).
    ///
    /// - Parameters:
    ///   - attempt: The attempt ``begin(_:now:)`` admitted.
    ///   - succeeded: `nil` when the password was never checked (bcrypt busy, the
    ///     store failed): neither a failure to count against the user nor a success.
    ///   - resetting: The key whose failures a success resets (the email from that client).
    ///   - now: Seconds on the throttle's clock (uptime).
    public func end(_ attempt: Attempt, succeeded: Bool?, resetting: String? = nil, now: Double) {
        state.withLock { state in
            for key in attempt.keys {
                guard var entry = state.entries[key.name] else { continue }
                entry.running = max(0, entry.running - 1)
                if succeeded == false {
                    entry.failures += 1
                    entry.lastFailure = now
                    if let source = key.source, entry.sources.count < key.policy.sources {
                        entry.sources.insert(source)
                    }
                } else if succeeded == true, key.name == resetting {
                    entry.failures = 0
                    entry.sources = []
                }
                if entry.running == 0, entry.failures == 0, entry.retryAt <= now {
                    state.entries[key.name] = nil
                } else {
                    state.entries[key.name] = entry
                }
            }
        }
    }

    /// Remembers that `client` (an address) signed in to the account of `email`, so that
    /// the email's shared key does not hold it back for ``knownFor``.
    public func remember(_ client: String, signedInTo email: String, now: Double) {
        state.withLock { state in
            if state.known.count >= capacity {
                state.known = state.known.filter { now - $0.value < knownFor }
                // Still full of clients seen within the month: the least recent half goes.
                if state.known.count >= capacity {
                    let kept = state.known.sorted { $0.value > $1.value }.prefix(capacity / 2)
                    state.known = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
                }
            }
            state.known[email + " " + client] = now
        }
    }

    /// Whether `client` signed in to the account of `email` within ``knownFor``.
    public func knows(_ client: String, signedInTo email: String, now: Double) -> Bool {
        state.withLock { state in
            state.known[email + " " + client].map { now - $0 < knownFor } ?? false
        }
    }

    /// Forgets the entries that hold nothing (no check running, no failure within the
    /// longest wait and 15 minutes) once there are more than `capacity`, at most once a
    /// second so that a table full of fresh entries is not scanned on every attempt.
    private func prune(_ state: inout State, now: Double) {
        guard state.entries.count > capacity, now - state.pruned >= 1 else { return }
        state.pruned = now
        state.entries = state.entries.filter { $0.value.running > 0 || now - $0.value.lastFailure < maxBackoff + 900 }
    }
}
