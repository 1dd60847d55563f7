import Foundation
import MomentumCore

/// Suspicious activity flagged for an operator to review.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol ReviewFlags: Sendable {
    /// Records suspicious activity for review; the user's data is not touched. A flag
    /// with an id already recorded for the user is ignored, and so is one whose events
    /// all belong to flags of the user an operator confirmed (the same evidence).
    ///
    /// - Returns: Whether the flag was recorded.
    @discardableResult
    func flag(_ flag: ReviewFlag) async throws(StoreError) -> Bool

    /// The most recent review flags of every user awaiting review (neither cleared nor
    /// confirmed), newest first.
    func reviewFlags(limit: Int) async throws(StoreError) -> [ReviewFlag]

    /// One of a user's review flags with where it stands, whatever its status.
    func reviewFlag(_ id: String, of user: String) async throws(StoreError) -> ReviewFlagEntry?

    /// A user's most recent review flags, whatever their status, newest first.
    func reviewFlags(of user: String, limit: Int) async throws(StoreError) -> [ReviewFlagEntry]

    /// Confirms one of a user's open review flags: it stays open (the user's posts stay
    /// held) but leaves the list awaiting review. Confirming a confirmed flag again changes
    /// nothing; a cleared flag is not confirmed.
    ///
    /// - Returns: The flag as it stands afterwards (check its status), or `nil` when the
    ///   user has no flag of that id.
    func confirmReviewFlag(
        _ id: String, of user: String, by operatorID: String, at: Date
    ) async throws(StoreError) -> ReviewFlagEntry?

    /// Clears one of a user's review flags. When it was the user's last open flag, their
    /// held posts are released to their friends' feeds in the same transaction.
    ///
    /// - Returns: `nil` when the user has no open flag of that id.
    func clearReviewFlag(_ id: String, of user: String, at: Date) async throws(StoreError) -> ClearedFlag?

    /// How many of a user's review flags are open.
    func openReviewFlagCount(of user: String) async throws(StoreError) -> Int
}
