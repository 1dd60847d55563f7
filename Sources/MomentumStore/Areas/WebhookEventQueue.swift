import Foundation

/// The events app backends receive at their webhooks (`unlock.created`, `streak.lost`, …):
/// each webhook's event types and signing secrets, and the durable queue of event messages.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol WebhookEventQueue: Sendable {
    /// Queues events for every active webhook that takes their type and was created before
    /// each happened. An event already queued for a webhook (the same user and message id)
    /// is not queued again, so the same happening noticed twice, by two scheduler runs or
    /// two instances, is sent once.
    ///
    /// - Returns: How many messages were queued.
    @discardableResult
    func queueWebhookEvents(_ events: [WebhookEvent], at: Date) async throws(StoreError) -> Int

    /// The event types at least one active webhook takes (to skip the work of events
    /// nobody takes).
    func webhookEventTypes() async throws(StoreError) -> Set<WebhookEventType>

    /// Gives a webhook a new (Standard Webhooks) secret: `previous`, the current one, keeps
    /// signing until `previousUntil`, and the one before it stops.
    ///
    /// - Returns: Whether the webhook exists.
    func rotateWebhookSecret(
        _ id: String, to secret: String, previous: String, previousIsLegacy: Bool, previousUntil: Date
    ) async throws(StoreError) -> Bool

    /// Claims up to `limit` event messages due at `now` for `lease` seconds, each with its
    /// webhook (shared by instances on PostgreSQL with `FOR UPDATE SKIP LOCKED`).
    func claimWebhookMessages(
        now: Date, lease: TimeInterval, limit: Int
    ) async throws(StoreError) -> [PendingWebhookMessage]

    /// Records what became of claimed messages and each webhook's health, as
    /// ``DeliveryQueue/finishDeliveries(_:at:webhookFailureLimit:)`` does.
    func finishWebhookMessages(
        _ reports: [WebhookMessageReport], at: Date, webhookFailureLimit: Int
    ) async throws(StoreError)

    /// Where a user's event messages stand, oldest first: type, webhook and state.
    func webhookMessages(of user: String) async throws(StoreError) -> [WebhookMessageStatus]

    /// Forgets messages that ended (sent, failed, dropped) before an instant.
    ///
    /// - Returns: How many were forgotten.
    @discardableResult
    func pruneWebhookMessages(finishedBefore: Date) async throws(StoreError) -> Int
}

/// Where one event message stands for one webhook (``WebhookEventQueue`` `webhookMessages`).
public struct WebhookMessageStatus: Hashable, Sendable {
    /// The message id.
    public var id: String
    /// The type.
    public var type: WebhookEventType
    /// The webhook's id.
    public var webhookID: String
    /// `pending`, `sent`, `failed` or `dropped`.
    public var state: String
    /// Attempts made.
    public var attempts: Int
    /// The body posted.
    public var body: String

    /// Creates a status.
    public init(id: String, type: WebhookEventType, webhookID: String, state: String, attempts: Int, body: String) {
        self.id = id
        self.type = type
        self.webhookID = webhookID
        self.state = state
        self.attempts = attempts
        self.body = body
    }
}
