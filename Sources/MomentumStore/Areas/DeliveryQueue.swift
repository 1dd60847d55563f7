import Foundation
import MomentumCore

/// Devices' push registrations, webhooks, and the queue of deliveries to them.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol DeliveryQueue: Sendable {
    /// Registers a device for the user's notifications (the same address again updates its
    /// keys). An address registered by another user moves to this one: a browser or phone
    /// receives only the notifications of the account signed in on it.
    ///
    /// - Returns: Whether the target is new to this user.
    func savePushTarget(_ target: PushTarget, of user: String) async throws(StoreError) -> Bool

    /// The user's registered devices, oldest first.
    func pushTargets(of user: String) async throws(StoreError) -> [PushTarget]

    /// Removes one of the user's devices (unregistered, or its push service said it is
    /// gone).
    ///
    /// - Returns: Whether it existed.
    @discardableResult
    func removePushTarget(_ id: String, of user: String) async throws(StoreError) -> Bool

    /// Adds an app developer's webhook; it receives every notification stored from now on.
    func createWebhook(_ webhook: Webhook) async throws(StoreError)

    /// Every webhook, oldest first, with its status.
    func webhooks() async throws(StoreError) -> [Webhook]

    /// Removes a webhook; its pending deliveries are dropped when they come up.
    ///
    /// - Returns: Whether it existed.
    @discardableResult
    func removeWebhook(_ id: String) async throws(StoreError) -> Bool

    /// Enables a webhook again (its failures forgotten) or disables it.
    ///
    /// - Returns: Whether it exists.
    @discardableResult
    func setWebhookEnabled(_ id: String, _ enabled: Bool, at: Date) async throws(StoreError) -> Bool

    /// Claims up to `limit` deliveries due at `now` for `lease` seconds, with their
    /// notification and target. On PostgreSQL, senders on several instances share the queue
    /// (`FOR UPDATE SKIP LOCKED`); a sender that dies leaves its claims to the next after the
    /// lease. Every notification stored in an inbox was queued, in the same transaction, for
    /// each of the user's devices and every active webhook.
    func claimDeliveries(now: Date, lease: TimeInterval, limit: Int) async throws(StoreError) -> [PendingDelivery]

    /// Records what became of claimed deliveries, and each webhook's health: a success
    /// resets its failures, a failure counts, and `webhookFailureLimit` failures in a row
    /// disable it.
    func finishDeliveries(_ reports: [DeliveryReport], at: Date, webhookFailureLimit: Int) async throws(StoreError)

    /// The keys of the user's notifications sent to a device or webhook since an instant
    /// (the daily cap counts them).
    func sentNotificationKeys(of user: String, since: Date) async throws(StoreError) -> Set<String>

    /// Where one of the user's notifications stands on each channel and target.
    func deliveries(of user: String, key: String) async throws(StoreError) -> [DeliveryStatus]

    /// Forgets deliveries that ended (sent, failed, dropped) before an instant.
    ///
    /// - Returns: How many were forgotten.
    @discardableResult
    func pruneDeliveries(finishedBefore: Date) async throws(StoreError) -> Int

    /// A setting shared by every instance (the Web Push key pair): the stored value, or
    /// `value` stored now when there is none (the first instance to ask decides).
    func serverSetting(_ name: String, orInsert value: String) async throws(StoreError) -> String
}
