import Foundation
import MomentumCore

/// Rate limit counters shared by server instances.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol RateLimitCounts: Sendable {
    /// Adds to request counters shared by every server instance, in one transaction.
    ///
    /// - Parameter counts: Counts to add, each for a limit key and the start of its
    ///   window (in seconds since 1970); one entry per key and window.
    /// - Returns: Each counter's total after the addition, in the order of `counts`.
    func addRateLimitCounts(_ counts: [RateLimitCount]) async throws(StoreError) -> [Int]

    /// Deletes counters of windows that started before `windowStart`.
    ///
    /// - Returns: How many were deleted.
    @discardableResult
    func deleteRateLimitCounts(before windowStart: Int64) async throws(StoreError) -> Int
}
