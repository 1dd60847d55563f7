import Foundation
import MomentumCore

/// A device that receives a user's notifications: a browser's Web Push subscription, an iOS
/// app's APNs device token or an Android app's FCM registration token.
public struct PushTarget: Hashable, Sendable, Codable {
    /// Stable for the address: the same subscription or token registered again is the same
    /// target (`wp_…`, `apns_…`, `fcm_…`).
    public var id: String
    /// `webPush`, `apns` or `fcm`.
    public var channel: NotificationChannel
    /// The push service endpoint URL (Web Push), the hex device token (APNs) or the
    /// registration token (FCM).
    public var address: String
    /// Web Push: the subscription's P-256 public key, base64url (65 bytes uncompressed).
    public var p256dh: String?
    /// Web Push: the subscription's authentication secret, base64url (16 bytes).
    public var auth: String?
    /// APNs: `production` or `sandbox` (a development build's token).
    public var environment: String?
    /// When it was registered (or registered again).
    public var createdAt: Date

    /// Creates a push target.
    public init(
        id: String, channel: NotificationChannel, address: String, p256dh: String? = nil, auth: String? = nil,
        environment: String? = nil, createdAt: Date
    ) {
        self.id = id
        self.channel = channel
        self.address = address
        self.p256dh = p256dh
        self.auth = auth
        self.environment = environment
        self.createdAt = createdAt
    }
}

/// An app developer's webhook: every notification (of the kinds it asks for) and every
/// event of the types it takes is posted to its URL, signed with its secret (Standard
/// Webhooks). Repeated failures disable it, visibly.
public struct Webhook: Hashable, Sendable, Codable {
    /// `wh_…`.
    public var id: String
    /// Where notifications are posted.
    public var url: String
    /// The signing secret, `whsec_<base64 of the key>` (shown once, when the webhook is
    /// created or its secret rotated).
    public var secret: String
    /// Whether the secret is one made before Standard Webhooks: its HMAC key is the secret's
    /// UTF-8 bytes (the key of `whsec_` + base64 of those bytes, in Standard Webhooks terms).
    public var legacySecret: Bool
    /// The secret before the last rotation, as it was shown, while it still signs.
    public var previousSecret: String?
    /// Whether ``previousSecret`` is a legacy one (see ``legacySecret``).
    public var previousSecretIsLegacy: Bool
    /// When ``previousSecret`` stops signing.
    public var previousSecretExpiresAt: Date?
    /// The kinds of notification it receives, or `nil` for all.
    public var kinds: Set<NotificationKind>?
    /// The event types it receives (none for a webhook made only for notifications).
    public var events: Set<WebhookEventType>
    /// When it was created.
    public var createdAt: Date
    /// When repeated failures (or the admin) disabled it; `nil` while it is active.
    public var disabledAt: Date?
    /// Failed attempts since the last success.
    public var consecutiveFailures: Int
    /// What the last failed attempt met.
    public var lastError: String?
    /// When a delivery last succeeded.
    public var lastSuccessAt: Date?
    /// When an attempt last failed.
    public var lastFailureAt: Date?

    /// Creates a webhook.
    public init(
        id: String, url: String, secret: String, kinds: Set<NotificationKind>? = nil, createdAt: Date,
        disabledAt: Date? = nil, consecutiveFailures: Int = 0, lastError: String? = nil, lastSuccessAt: Date? = nil,
        lastFailureAt: Date? = nil, events: Set<WebhookEventType> = [], legacySecret: Bool = false,
        previousSecret: String? = nil, previousSecretIsLegacy: Bool = false, previousSecretExpiresAt: Date? = nil
    ) {
        self.id = id
        self.url = url
        self.secret = secret
        self.legacySecret = legacySecret
        self.previousSecret = previousSecret
        self.previousSecretIsLegacy = previousSecretIsLegacy
        self.previousSecretExpiresAt = previousSecretExpiresAt
        self.kinds = kinds
        self.events = events
        self.createdAt = createdAt
        self.disabledAt = disabledAt
        self.consecutiveFailures = consecutiveFailures
        self.lastError = lastError
        self.lastSuccessAt = lastSuccessAt
        self.lastFailureAt = lastFailureAt
    }
}

/// One notification on its way to one device or webhook: a row of the durable delivery
/// queue, claimed by one sender for a lease.
public struct PendingDelivery: Hashable, Sendable {
    /// Whose notification it is.
    public var user: String
    /// The notification (from the user's inbox).
    public var notification: PlannedNotification
    /// The channel it goes by.
    public var channel: NotificationChannel
    /// The push target's or webhook's id.
    public var targetID: String
    /// Attempts made before this one.
    public var attempts: Int
    /// The push target, when the channel is Web Push or APNs and it is still registered.
    public var pushTarget: PushTarget?
    /// The webhook, when the channel is webhooks and it still exists.
    public var webhook: Webhook?

    /// Creates a pending delivery.
    public init(
        user: String, notification: PlannedNotification, channel: NotificationChannel, targetID: String,
        attempts: Int, pushTarget: PushTarget? = nil, webhook: Webhook? = nil
    ) {
        self.user = user
        self.notification = notification
        self.channel = channel
        self.targetID = targetID
        self.attempts = attempts
        self.pushTarget = pushTarget
        self.webhook = webhook
    }
}

/// What became of a delivery attempt (``MomentumStore`` `finishDeliveries`).
public enum DeliveryOutcome: Hashable, Sendable {
    /// The channel accepted it.
    case sent
    /// It failed and is tried again at an instant; the attempt counts.
    case retry(at: Date, error: String)
    /// It failed for good (the last attempt, or a refusal that will not change).
    case failed(String)
    /// It waits, without an attempt, until an instant (quiet hours).
    case deferred(until: Date)
    /// It was not sent and will not be: the user's preferences, the daily cap, a target
    /// gone, an expiry. The reason is kept.
    case dropped(String)

    /// The queue state the outcome leaves: `pending`, `sent`, `failed` or `dropped`.
    public var state: String {
        switch self {
        case .sent: "sent"
        case .retry, .deferred: "pending"
        case .failed: "failed"
        case .dropped: "dropped"
        }
    }
}

/// A delivery attempt's result, reported back to the queue.
public struct DeliveryReport: Hashable, Sendable {
    /// The delivery.
    public var delivery: PendingDelivery
    /// What became of it.
    public var outcome: DeliveryOutcome
    /// How long the attempt took, in milliseconds (`nil` when none was made).
    public var latencyMilliseconds: Int?

    /// Creates a report.
    public init(_ delivery: PendingDelivery, _ outcome: DeliveryOutcome, latencyMilliseconds: Int? = nil) {
        self.delivery = delivery
        self.outcome = outcome
        self.latencyMilliseconds = latencyMilliseconds
    }
}

/// Where one notification stands on one channel and target (``MomentumStore`` `deliveries`).
public struct DeliveryStatus: Hashable, Sendable, Codable {
    /// The channel.
    public var channel: NotificationChannel
    /// The push target's or webhook's id.
    public var targetID: String
    /// `pending`, `sent`, `failed` or `dropped`.
    public var state: String
    /// Attempts made.
    public var attempts: Int
    /// Why it was dropped or failed, or what the last failed attempt met.
    public var outcome: String?
    /// When it is (or was last) due.
    public var dueAt: Date
    /// When it was sent, failed for good or dropped.
    public var finishedAt: Date?

    /// Creates a status.
    public init(
        channel: NotificationChannel, targetID: String, state: String, attempts: Int, outcome: String?, dueAt: Date,
        finishedAt: Date?
    ) {
        self.channel = channel
        self.targetID = targetID
        self.state = state
        self.attempts = attempts
        self.outcome = outcome
        self.dueAt = dueAt
        self.finishedAt = finishedAt
    }
}
