import Foundation
import MomentumCore

/// The event log and the projections derived from it: appends, reads, evaluations of a user's engine, and the per-user documents (memories, celebrations) kept beside it.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol EventStore: Sendable {
    /// Appends events to the user's log and updates their projections, in one transaction.
    ///
    /// Each event is judged on its own: an event already in the log is a ``EventOutcome/Status/duplicate``
    /// (retries are safe), one the engine refuses is reported and not stored, and the rest
    /// are stored in order.
    ///
    /// - Parameters:
    ///   - events: The events, in the order the device recorded them.
    ///   - user: The user.
    ///   - receivedAt: When the server received them (the engine's `now`).
    ///   - device: The device that sent them, if known.
    /// - Returns: An outcome per event, the unlocks granted, and the new head of the log.
    /// - Throws: ``StoreError/Code/notFound`` when the account does not exist.
    func append(
        _ events: [Event], for user: String, receivedAt: Date, device: String?
    ) async throws(StoreError)
        -> AppendResult

    /// Events of the user's log after a position, oldest first (the sync cursor).
    ///
    /// - Parameters:
    ///   - user: The user.
    ///   - seq: The last position the client has; 0 for the whole log.
    ///   - limit: The most events to return.
    func events(of user: String, after seq: Int64, limit: Int) async throws(StoreError) -> [StoredEvent]

    /// The user's latest events, the newest first (at most 1,000).
    func latestEvents(of user: String, limit: Int) async throws(StoreError) -> [StoredEvent]

    // MARK: Projections

    /// Everything the projections hold for the user.
    ///
    /// - Throws: ``StoreError/Code/notFound`` when the account does not exist.
    func projection(of user: String) async throws(StoreError) -> UserProjection

    /// Sets or clears a memory's note and photo.
    ///
    /// - Returns: The memory as it now is.
    /// - Throws: ``StoreError/Code/notFound`` when the user has no such memory.
    @discardableResult
    func updateMemory(
        of user: String, id: String, note: String?, photo: MemoryPhoto?
    ) async throws(StoreError)
        -> Memory

    /// Changes the user's celebration planner in one transaction (delivering a celebration,
    /// starting a session, Do Not Disturb).
    ///
    /// - Parameters:
    ///   - user: The user.
    ///   - now: The current instant.
    ///   - change: Changes the planner and returns a value.
    /// - Returns: What `change` returned.
    func updateCelebrations<Result: Sendable>(
        of user: String, now: Date, _ change: @escaping @Sendable (inout CelebrationPlanner) -> Result
    ) async throws(StoreError) -> Result

    /// Runs `body` on the user's engine as of their latest append (from the engine cache
    /// when current, else replayed from the log), without writing anything.
    ///
    /// The body gets a copy: it may advance it to a later instant (to read today's state,
    /// for example) without affecting what is stored.
    ///
    /// - Throws: ``StoreError/Code/notFound`` for an unknown user, or whatever `body` throws.
    func evaluate<Result: Sendable>(
        _ user: String, _ body: @escaping @Sendable (inout MomentumUser, Profile) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result

    /// Like ``evaluate(_:_:)``, with the projection version the engine is at: what `body`
    /// computes from the engine and the profile stays the same for as long as the stored
    /// version does (an append or a profile change bumps it), so a reader may keep it by
    /// version.
    func evaluateWithVersion<Result: Sendable>(
        _ user: String, _ body: @escaping @Sendable (inout MomentumUser, Profile, Int64) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result

    /// Like ``evaluate(_:_:)``, for the state an append just produced: when the engine
    /// cache still holds the user's engine at `version` (``AppendResult/version``), `body`
    /// runs on it without reading the database; otherwise this is ``evaluate(_:_:)``.
    ///
    /// A write that followed the append makes the cached engine newer, and the read falls
    /// back to the database, so the answer is never older than the append.
    func evaluate<Result: Sendable>(
        _ user: String, after version: Int64,
        _ body: @escaping @Sendable (inout MomentumUser, Profile) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result
}
