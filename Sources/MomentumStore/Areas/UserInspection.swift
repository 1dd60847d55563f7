import Foundation

/// What the operator's console reads of one user that no other use case needs: their
/// recent deliveries across every channel.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol UserInspection: Sendable {
    /// A user's most recent deliveries (to their devices and the webhooks), newest first,
    /// with the kind of notification each carried.
    func recentDeliveries(of user: String, limit: Int) async throws(StoreError) -> [UserDelivery]
}

/// One delivery of one of a user's notifications, as the console shows it (``UserInspection``).
public struct UserDelivery: Hashable, Sendable, Codable {
    /// The notification's key.
    public var notification: String
    /// The notification's kind (its raw value).
    public var kind: String
    /// The channel (`webPush`, `apns`, `fcm`, `webhook`).
    public var channel: String
    /// `pending`, `sent`, `failed` or `dropped`.
    public var state: String
    /// The attempts made.
    public var attempts: Int
    /// The last attempt's outcome, if any.
    public var outcome: String?
    /// When it was queued.
    public var createdAt: Date
    /// When it ended, if it did.
    public var finishedAt: Date?

    /// Creates a delivery.
    public init(
        notification: String, kind: String, channel: String, state: String, attempts: Int, outcome: String?,
        createdAt: Date, finishedAt: Date?
    ) {
        self.notification = notification
        self.kind = kind
        self.channel = channel
        self.state = state
        self.attempts = attempts
        self.outcome = outcome
        self.createdAt = createdAt
        self.finishedAt = finishedAt
    }
}
