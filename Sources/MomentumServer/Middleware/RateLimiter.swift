import Foundation
import Hummingbird
import Synchronization

/// Token buckets, one per key: `perMinute` requests a minute, with bursts of up to that
/// many. In memory, per server instance.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let perMinute: Int
    private let buckets = Mutex([String: Bucket]())

    init(perMinute: Int) {
        self.perMinute = perMinute
    }

    /// Takes one token for `key`; returns the seconds to wait when there is none.
    func take(_ key: String, now: Double = Double(DispatchTime.now().uptimeNanoseconds) / 1e9) -> Int? {
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

    func check(_ key: String, scope: String) throws {
        if let wait = take(key) {
            throw APIError(
                .tooManyRequests, "rate_limited", "too many requests \(scope); try again in \(wait) s",
                headers: [.retryAfter: String(wait)])
        }
    }
}

/// Limits requests per client address (before authentication).
struct AddressRateLimitMiddleware: RouterMiddleware {
    typealias Context = MomentumContext
    let limiter: RateLimiter

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        try limiter.check(context.addressKey, scope: "from this address")
        return try await next(request, context)
    }
}
