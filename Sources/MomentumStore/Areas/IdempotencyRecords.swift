import Foundation
import MomentumCore

/// Answers kept by idempotency key, so that a retried request gets the first answer.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol IdempotencyRecords: Sendable {
    /// The record stored for an idempotency key, if any.
    func idempotencyRecord(of user: String, key: String) async throws(StoreError) -> IdempotencyRecord?

    /// Stores a record unless one with the same key exists.
    ///
    /// - Returns: The record now stored: `record`, or the earlier one.
    /// - Throws: ``StoreError/Code/idempotencyConflict`` when the key was used for a
    ///   different request.
    @discardableResult
    func saveIdempotencyRecord(
        _ record: IdempotencyRecord, for user: String
    ) async throws(StoreError)
        -> IdempotencyRecord

    /// Deletes records created before an instant.
    ///
    /// - Returns: How many were deleted.
    @discardableResult
    func deleteIdempotencyRecords(before instant: Date) async throws(StoreError) -> Int
}
