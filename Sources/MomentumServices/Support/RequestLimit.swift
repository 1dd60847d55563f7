/// A limit of requests per minute per key (a user or a client address).
public protocol RequestLimit: Sendable {
    /// Counts one request for `key`; returns the seconds to wait when it is over the limit.
    func take(_ key: String) -> Int?
}

extension RequestLimit {
    /// Counts one request, or throws `.tooMany` with a retry delay when it is over the limit.
    public func check(_ key: String, scope: String) throws {
        if let wait = take(key) {
            throw ServiceError(
                .tooMany(retryAfterSeconds: wait), "rate_limited", "too many requests \(scope); try again in \(wait) s")
        }
    }
}
