import Foundation
import MomentumCore

/// Suspicious activity flagged for an operator to review.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol ReviewFlags: Sendable {
    /// Records suspicious activity for review; the user's data is not touched. A flag
    /// with an id already recorded for the user is ignored.
    func flag(_ flag: ReviewFlag) async throws(StoreError)

    /// The most recent review flags of every user that are not cleared, newest first.
    func reviewFlags(limit: Int) async throws(StoreError) -> [ReviewFlag]

    /// Clears one of a user's review flags. When it was the user's last open flag, their
    /// held posts are released to their friends' feeds in the same transaction.
    ///
    /// - Returns: `nil` when the user has no open flag of that id.
    func clearReviewFlag(_ id: String, of user: String, at: Date) async throws(StoreError) -> ClearedFlag?

    /// How many of a user's review flags are open.
    func openReviewFlagCount(of user: String) async throws(StoreError) -> Int
}
