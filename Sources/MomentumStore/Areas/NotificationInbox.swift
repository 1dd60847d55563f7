import Foundation
import MomentumCore

/// The notification scheduler's runs and each user's in-app inbox.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol NotificationInbox: Sendable {
    /// Asks for the users' notifications to be looked at again by `at` (their habits, zone
    /// or preferences changed): a user the scheduler did not know yet starts with nothing
    /// missed before `at`.
    func touchNotifications(of users: [String], at: Date) async throws(StoreError)

    /// Claims up to `limit` users whose notifications are due at `now`, for `lease` seconds
    /// (a scheduler that dies mid-run leaves its users to the next after the lease). On
    /// PostgreSQL, instances share the work: a user claimed by one is skipped by the others
    /// (`FOR UPDATE SKIP LOCKED`).
    func claimNotificationRuns(
        now: Date, lease: TimeInterval, limit: Int
    ) async throws(StoreError)
        -> [NotificationClaim]

    /// Ends a claimed run in one transaction: stores the notifications in the inbox (a key
    /// already stored is not stored again: at most once per key), records that the run
    /// covered everything up to `now`, and sets the next wake (at once when the user's log
    /// or preferences changed during the run).
    ///
    /// - Returns: The notifications newly stored.
    func finishNotificationRun(
        _ claim: NotificationClaim, now: Date, deliver: [PlannedNotification], nextWake: Date?
    ) async throws(StoreError) -> [InboxNotification]

    /// Stores notifications that go at once (a milestone) in the user's inbox, each key at
    /// most once.
    ///
    /// - Returns: The notifications newly stored.
    func deliverNotifications(
        _ notifications: [PlannedNotification], to user: String, at: Date
    ) async throws(StoreError) -> [InboxNotification]

    /// The user's inbox, newest first: `limit` notifications delivered before the cursor
    /// (`createdAt` and key of the last one of the previous page), or the newest.
    func notifications(
        of user: String, before cursor: (createdAt: Date, key: String)?, limit: Int
    ) async throws(StoreError) -> [InboxNotification]

    /// How many of the user's notifications are unread.
    func unreadNotificationCount(of user: String) async throws(StoreError) -> Int

    /// Rewrites the title and body of an inbox entry and marks it unread again (a grouped
    /// notification that grew: "Ana and 3 others reacted"); its deliveries are not queued again.
    ///
    /// - Returns: `false` when the user has no entry with that key.
    @discardableResult
    func regroupNotification(
        of user: String, key: String, title: String, body: String
    ) async throws(StoreError)
        -> Bool

    /// Marks the user's notifications with these keys read (all of them when `keys` is
    /// `nil`).
    ///
    /// - Returns: How many were unread and now are read.
    @discardableResult
    func markNotificationsRead(of user: String, keys: [String]?, at: Date) async throws(StoreError) -> Int
}
