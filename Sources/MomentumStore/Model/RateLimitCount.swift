/// Requests counted against one rate limit in one window, to add to the count every
/// server instance shares.
public struct RateLimitCount: Sendable, Hashable {
    /// What is limited: a user (`user:<id>`) or a client address (`address:<ip>`).
    public var key: String
    /// When the window started, in seconds since 1970.
    public var windowStart: Int64
    /// How many requests to add.
    public var count: Int

    /// Creates a count.
    public init(key: String, windowStart: Int64, count: Int) {
        self.key = key
        self.windowStart = windowStart
        self.count = count
    }
}
