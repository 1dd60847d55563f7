import Foundation

/// What an app's backend can ask its webhook to receive, beside notifications.
public enum WebhookEventType: String, CaseIterable, Hashable, Sendable, Codable {
    /// An achievement or milestone was unlocked.
    case unlockCreated = "unlock.created"
    /// A habit's streak began (its first day counted).
    case streakStarted = "streak.started"
    /// A habit's streak ended: a due day closed undone with no freeze to cover it.
    case streakLost = "streak.lost"
    /// A freeze covered a missed day and kept a streak.
    case streakFrozen = "streak.frozen"
    /// A store purchase was made with diamonds.
    case purchaseCreated = "purchase.created"
    /// Suspicious activity was flagged for review.
    case reviewFlagRaised = "review_flag.raised"
}

/// One event for the app's webhooks: the body every webhook taking its type receives.
public struct WebhookEvent: Hashable, Sendable {
    /// Whose event it is.
    public var user: String
    /// The message id (`webhook-id`): derived from what happened, so that noticing it again
    /// queues nothing new (`msg_…`).
    public var id: String
    /// The type.
    public var type: WebhookEventType
    /// The exact JSON body posted: `{"type", "timestamp", "data"}`.
    public var body: String
    /// When it happened; a webhook created after this instant does not receive it.
    public var occurredAt: Date
    /// The trace context of the work that noticed it (a request's, or a background pass's),
    /// which its posts continue.
    public var origin: TraceOrigin?

    /// Creates an event.
    public init(
        user: String, id: String, type: WebhookEventType, body: String, occurredAt: Date, origin: TraceOrigin? = nil
    ) {
        self.origin = origin
        self.user = user
        self.id = id
        self.type = type
        self.body = body
        self.occurredAt = occurredAt
    }
}

/// One event message on its way to one webhook, claimed by one sender for a lease.
public struct PendingWebhookMessage: Hashable, Sendable {
    /// Whose event it is.
    public var user: String
    /// The message id (`webhook-id`), the same for every attempt.
    public var id: String
    /// The type.
    public var type: WebhookEventType
    /// The body to post.
    public var body: String
    /// When it happened.
    public var occurredAt: Date
    /// The webhook's id.
    public var webhookID: String
    /// Attempts made before this one.
    public var attempts: Int
    /// The webhook, while it exists.
    public var webhook: Webhook?
    /// The trace context of the work that queued it (``WebhookEvent/origin``), which its post
    /// continues.
    public var origin: TraceOrigin?

    /// Creates a pending message.
    public init(
        user: String, id: String, type: WebhookEventType, body: String, occurredAt: Date, webhookID: String,
        attempts: Int, webhook: Webhook?, origin: TraceOrigin? = nil
    ) {
        self.origin = origin
        self.user = user
        self.id = id
        self.type = type
        self.body = body
        self.occurredAt = occurredAt
        self.webhookID = webhookID
        self.attempts = attempts
        self.webhook = webhook
    }
}

/// What became of an event message's attempt (``WebhookEventQueue`` `finishWebhookMessages`).
public struct WebhookMessageReport: Hashable, Sendable {
    /// The message.
    public var message: PendingWebhookMessage
    /// What became of it.
    public var outcome: DeliveryOutcome
    /// How long the attempt took, in milliseconds (`nil` when none was made).
    public var latencyMilliseconds: Int?

    /// Creates a report.
    public init(_ message: PendingWebhookMessage, _ outcome: DeliveryOutcome, latencyMilliseconds: Int? = nil) {
        self.message = message
        self.outcome = outcome
        self.latencyMilliseconds = latencyMilliseconds
    }
}
