import Foundation

/// What-if runs: replays of a candidate pack version over users' logs, their progress and
/// reports, and the pages of users they walk.
///
/// One area of ``MomentumStore``. Runs live in the database, so every instance sharing it
/// sees a run's progress, a cancellation from any instance stops it, and a run whose
/// instance stopped is resumed by another once its lease runs out.
public protocol WhatIfRuns: Sendable {
    /// Stores a new running run, unless a run of the same pack and version is running.
    ///
    /// - Returns: The run stored and `true`, or the run already running and `false`.
    func startWhatIfRun(_ run: WhatIfRun) async throws(StoreError) -> (run: WhatIfRun, started: Bool)

    /// The run with this id, or `nil`.
    func whatIfRun(id: String) async throws(StoreError) -> WhatIfRun?

    /// The latest runs of a pack version, newest first.
    func whatIfRuns(pack: String, version: String, limit: Int) async throws(StoreError) -> [WhatIfRun]

    /// Records a running run's progress and extends its lease.
    ///
    /// - Returns: `false` when the run is no longer running (cancelled): the caller stops.
    func recordWhatIfProgress(
        id: String, done: Int, total: Int, cursor: String?, report: String?, leaseUntil: Date
    ) async throws(StoreError) -> Bool

    /// Ends a running run with `status` and its final report.
    ///
    /// - Returns: `false` when it was no longer running.
    func finishWhatIfRun(
        id: String, status: WhatIfRun.Status, report: String?, at instant: Date
    ) async throws(StoreError) -> Bool

    /// Cancels a running run (a finished one stays as it is).
    ///
    /// - Returns: The run as it now is, or `nil` for an unknown id.
    func cancelWhatIfRun(id: String, at instant: Date) async throws(StoreError) -> WhatIfRun?

    /// Takes over one running run whose lease ran out before `now` (its instance stopped),
    /// leasing it until `leaseUntil`; of several instances asking at once, one gets it.
    func claimStaleWhatIfRun(now: Date, leaseUntil: Date) async throws(StoreError) -> WhatIfRun?

    /// One page of users with the pack their profile names, in id order.
    ///
    /// - Parameters:
    ///   - user: The last user of the previous page; `nil` for the first page.
    ///   - limit: The most users to return.
    func packUsers(after user: String?, limit: Int) async throws(StoreError) -> [PackUser]

    /// The named users that exist, with their packs, in id order.
    func packUsers(_ users: [String]) async throws(StoreError) -> [PackUser]
}
