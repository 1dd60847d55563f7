import Foundation

/// What the operator's console reads of deliveries and notifications, beyond what the
/// senders need: each webhook's traffic and last deliveries on both of its queues
/// (notifications and event messages), one delivery sent again, and the counts of what
/// the scheduler and the senders did, summed by every instance.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol ConsoleReads: Sendable {
    /// Adds counts to the hours they name (several instances add to the same rows).
    func addNotificationCounts(_ counts: [NotificationCount]) async throws(StoreError)

    /// The counts of the hours that begin at or after `since`, oldest hour first.
    func notificationCounts(since: Date) async throws(StoreError) -> [NotificationCount]

    /// Forgets the counts of the hours that begin before an instant.
    ///
    /// - Returns: How many rows were forgotten.
    @discardableResult
    func pruneNotificationCounts(before: Date) async throws(StoreError) -> Int

    /// Each webhook's deliveries on both queues that ended since an instant (sent, failed,
    /// dropped, with the sent ones' latency) and those waiting now.
    func webhookTraffic(since: Date) async throws(StoreError) -> [WebhookTraffic]

    /// A webhook's last deliveries on both queues, the newest first.
    func webhookDeliveries(of webhook: String, limit: Int) async throws(StoreError) -> [WebhookDelivery]

    /// Sends one delivery to a webhook again: it is due at `at`, whatever its state
    /// (sent, failed, dropped or waiting for a retry); its attempts are kept.
    ///
    /// - Returns: Whether it was queued again; ``WebhookRetry/inFlight`` while a sender
    ///   holds it, ``WebhookRetry/notFound`` when there is no such delivery.
    func retryWebhookDelivery(_ id: WebhookDeliveryID, at: Date) async throws(StoreError) -> WebhookRetry
}

/// How many notifications had one outcome in one hour (``ConsoleReads``).
public struct NotificationCount: Hashable, Sendable {
    /// The hour's first instant.
    public var hour: Date
    /// The notification's kind (its raw value; a newer server's kind is kept as it is).
    public var kind: String
    /// `inbox` (the scheduler), or a delivery channel (`webPush`, `apns`, `fcm`, `webhook`).
    public var channel: String
    /// `scheduled`, `sent`, `retried`, `deferred`, `failed` or `dropped`.
    public var outcome: String
    /// Why it was dropped (a stable code), `""` for other outcomes.
    public var reason: String
    /// How many.
    public var count: Int

    /// Creates a count.
    public init(hour: Date, kind: String, channel: String, outcome: String, reason: String = "", count: Int) {
        self.hour = hour
        self.kind = kind
        self.channel = channel
        self.outcome = outcome
        self.reason = reason
        self.count = count
    }

    /// The first instant of the hour `instant` falls in.
    public static func hour(of instant: Date) -> Date {
        let seconds = instant.timeIntervalSince1970
        guard seconds.isFinite else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: (seconds / 3600).rounded(.down) * 3600)
    }
}

/// A webhook's deliveries on both of its queues since an instant (``ConsoleReads``).
public struct WebhookTraffic: Hashable, Sendable {
    /// The webhook's id.
    public var webhookID: String
    /// Deliveries its receiver accepted.
    public var sent = 0
    /// Deliveries given up after failures.
    public var failed = 0
    /// Deliveries not sent (the webhook disabled or removed, a notification expired…).
    public var dropped = 0
    /// Deliveries waiting now (a first attempt or a retry), whenever they were queued.
    public var pending = 0
    /// The sum of the sent deliveries' latencies, in milliseconds, and how many had one.
    public var latencyTotal = 0
    /// How many sent deliveries recorded a latency.
    public var latencyCount = 0

    /// Creates empty traffic.
    public init(webhookID: String) { self.webhookID = webhookID }
}

/// Which queue a delivery to a webhook is on.
public enum WebhookQueue: String, Hashable, Sendable, Codable {
    /// A user's notification (`deliveries`).
    case notification
    /// An app-level event message (`webhook_messages`).
    case event
}

/// One delivery to a webhook, as the console lists it (``ConsoleReads``).
public struct WebhookDelivery: Hashable, Sendable {
    /// Its id.
    public var id: WebhookDeliveryID
    /// The notification's kind or the event's type.
    public var type: String
    /// `pending`, `sent`, `failed` or `dropped`.
    public var state: String
    /// Attempts made.
    public var attempts: Int
    /// Why it failed or was dropped, or what the last failed attempt met.
    public var outcome: String?
    /// When it was queued.
    public var createdAt: Date
    /// When it is (or was last) due: the next attempt while it is pending.
    public var dueAt: Date
    /// When it ended.
    public var finishedAt: Date?
    /// How long its last attempt took, in milliseconds.
    public var latencyMilliseconds: Int?

    /// The receiver's HTTP status when the last attempt got an answer that was not a
    /// success (the sender records it as `HTTP <status>`); `nil` otherwise.
    public var httpStatus: Int? {
        guard let outcome, outcome.hasPrefix("HTTP ") else { return nil }
        let digits = outcome.dropFirst(5).prefix(while: \.isNumber)
        guard digits.count == 3 else { return nil }
        return Int(digits)
    }

    /// Creates a delivery.
    public init(
        id: WebhookDeliveryID, type: String, state: String, attempts: Int, outcome: String?, createdAt: Date,
        dueAt: Date, finishedAt: Date?, latencyMilliseconds: Int?
    ) {
        self.id = id
        self.type = type
        self.state = state
        self.attempts = attempts
        self.outcome = outcome
        self.createdAt = createdAt
        self.dueAt = dueAt
        self.finishedAt = finishedAt
        self.latencyMilliseconds = latencyMilliseconds
    }
}

/// What became of a request to send a delivery again (``ConsoleReads``).
public enum WebhookRetry: Hashable, Sendable {
    /// It is due now.
    case queued
    /// A sender holds it now: it is being sent.
    case inFlight
    /// There is no such delivery (it never was, or it ended long ago and was pruned).
    case notFound
}
