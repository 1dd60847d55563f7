import Foundation

/// Incident amnesties: the outage windows operators declare, and the progress of the jobs
/// that write them into users' logs.
///
/// One area of ``MomentumStore``. Amnesties live in the database, so every instance sharing
/// it sees one's progress, and a job whose instance stopped is resumed by another once its
/// lease runs out (``claimStaleAmnesty(now:leaseUntil:)``).
public protocol AmnestyStore: Sendable {
    /// Stores a new amnesty (status ``AmnestyRecord/Status/declaring``).
    ///
    /// - Throws: ``StoreError`` `invalidInput` for an id already used or a missing field.
    func declareAmnesty(_ amnesty: AmnestyRecord) async throws(StoreError)

    /// The amnesty with this id, or `nil`.
    func amnesty(id: String) async throws(StoreError) -> AmnestyRecord?

    /// The latest amnesties, newest first.
    func amnesties(limit: Int) async throws(StoreError) -> [AmnestyRecord]

    /// Starts lifting an active amnesty: status ``AmnestyRecord/Status/lifting``,
    /// progress from zero, leased to the caller until `leaseUntil`.
    ///
    /// - Returns: The amnesty as it now is, `nil` for an unknown id; one that is not active
    ///   (still declaring, already lifting or lifted) is returned unchanged.
    func liftAmnesty(
        id: String, by operatorID: String, at instant: Date, leaseUntil: Date
    ) async throws(StoreError) -> AmnestyRecord?

    /// Records a running job's progress and extends its lease.
    ///
    /// - Returns: `false` when the amnesty's job is no longer the one in `status`.
    func recordAmnestyProgress(
        id: String, status: AmnestyRecord.Status, done: Int, total: Int, cursor: String?, leaseUntil: Date
    ) async throws(StoreError) -> Bool

    /// Ends a running job: `declaring` becomes `active`, `lifting` becomes `lifted`.
    ///
    /// - Returns: `false` when the amnesty was not in `status`.
    func finishAmnestyJob(id: String, status: AmnestyRecord.Status) async throws(StoreError) -> Bool

    /// Takes over one amnesty whose job's lease ran out before `now` (its instance
    /// stopped), leasing it until `leaseUntil`; of several instances asking at once, one
    /// gets it.
    func claimStaleAmnesty(now: Date, leaseUntil: Date) async throws(StoreError) -> AmnestyRecord?

    /// One page of the accounts created before `createdBefore`, in id order, with their
    /// profiles' zones.
    ///
    /// - Parameters:
    ///   - createdBefore: Only accounts created before this instant.
    ///   - user: The last user of the previous page; `nil` for the first page.
    ///   - limit: The most users to return.
    func amnestyUsers(createdBefore: Date, after user: String?, limit: Int) async throws(StoreError) -> [AmnestyUser]

    /// How many accounts were created before `createdBefore`.
    func amnestyUserCount(createdBefore: Date) async throws(StoreError) -> Int
}
