import Foundation
import Hummingbird
import MomentumServices
import MomentumStore
import Synchronization

/// Token buckets, one per key: `perMinute` requests a minute, with bursts of up to that
/// many. In memory: the limit of a single server instance (SQLite).
final class RateLimiter: RequestLimit {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let perMinute: Int
    private let buckets = Mutex([String: Bucket]())
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - perMinute: Requests a minute, and the largest burst.
    ///   - now: Seconds on a clock that only moves forward.
    init(
        perMinute: Int, now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    ) {
        self.perMinute = perMinute
        self.now = now
    }

    func take(_ key: String) -> Int? {
        take(key, now: now())
    }

    /// Takes one token for `key`; returns the seconds to wait when there is none.
    func take(_ key: String, now: Double) -> Int? {
        guard perMinute > 0 else { return nil }
        let capacity = Double(perMinute)
        let rate = capacity / 60
        return buckets.withLock { buckets in
            if buckets.count > 100_000 {
                buckets = buckets.filter { now - $0.value.updated < 60 }
            }
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
        }
    }
}

/// Fixed one-minute windows counted in the database, so that a limit holds across every
/// server instance (PostgreSQL).
///
/// The request path never waits for the database: each instance counts locally and
/// ``flush(to:)`` (every 100 ms) adds its counts to the shared ones and reads the totals
/// back. A key is refused once the shared total plus what this instance counted since is
/// at the limit. A key this instance counted nothing for since its last flush is read
/// again (by adding 0) only once its known total is at half the limit, so the database
/// sees the busy keys, not every user of the minute. An instance learns of other
/// instances' requests with its next flush, so a limit may be overrun by what the
/// instances admit in one flush interval.
final class SharedRateLimiter: RequestLimit {
    private struct Window {
        var start: Int64
        /// The total across instances at the last flush (this instance's part included).
        var shared: Int
        /// Counted here since the last flush.
        var pending: Int
    }

    private let perMinute: Int
    private let prefix: String
    private let clock: @Sendable () -> Date
    private let windows = Mutex([String: Window]())

    /// - Parameters:
    ///   - prefix: What the keys name in the shared table (`user:`, `address:`).
    ///   - clock: Wall time: windows are the same minutes on every instance.
    init(perMinute: Int, prefix: String, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.perMinute = perMinute
        self.prefix = prefix
        self.clock = clock
    }

    func take(_ key: String) -> Int? {
        guard perMinute > 0 else { return nil }
        let now = clock().timeIntervalSince1970
        let start = Int64((now / 60).rounded(.down)) * 60
        return windows.withLock { windows in
            if windows.count > 100_000 { windows = windows.filter { $0.value.start == start } }
            var window = windows[key] ?? Window(start: start, shared: 0, pending: 0)
            if window.start != start { window = Window(start: start, shared: 0, pending: 0) }
            guard window.shared + window.pending < perMinute else {
                return max(1, Int((Double(start + 60) - now).rounded(.up)))
            }
            window.pending += 1
            windows[key] = window
            return nil
        }
    }

    /// Adds this instance's counts to the shared ones and learns the totals.
    func flush(to store: any MomentumStore) async throws {
        let currentStart = Int64((clock().timeIntervalSince1970 / 60).rounded(.down)) * 60
        let batch = windows.withLock { windows -> [(key: String, count: RateLimitCount)] in
            var batch: [(key: String, count: RateLimitCount)] = []
            for (key, window) in windows where window.pending > 0 || window.shared * 2 >= perMinute {
                guard window.pending > 0 || window.start == currentStart else { continue }
                batch.append((key, RateLimitCount(key: prefix + key, windowStart: window.start, count: window.pending)))
                windows[key]?.shared += window.pending
                windows[key]?.pending = 0
            }
            return batch
        }
        guard !batch.isEmpty else { return }
        let totals = try await store.addRateLimitCounts(batch.map(\.count))
        windows.withLock { windows in
            for (entry, total) in zip(batch, totals) {
                guard var window = windows[entry.key], window.start == entry.count.windowStart else { continue }
                window.shared = max(window.shared, total)
                windows[entry.key] = window
            }
        }
    }
}

/// Limits requests per client address (before authentication), the address taken from a
/// trusted proxy's headers when the peer is one.
struct AddressRateLimitMiddleware: RouterMiddleware {
    typealias Context = MomentumContext
    let limiter: any RequestLimit
    let proxies: TrustedProxies

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var context = context
        if !proxies.networks.isEmpty {
            context.clientAddress = proxies.clientAddress(
                peer: context.remoteAddress.flatMap(TrustedProxies.canonical), headers: request.headers)
        }
        try limiter.check(context.addressKey, scope: "from this address")
        return try await next(request, context)
    }
}
