import Foundation
import MomentumStore

/// What an operator sees and does of the webhooks: each endpoint's health over the last
/// day on both of its queues (users' notifications and the app's events), its last
/// deliveries, and one delivery sent again. Rotating a secret and disabling or enabling an
/// endpoint are ``PushTargets``' (`rotateWebhookSecret`, `setWebhook`).
public struct WebhookConsole: Sendable {
    let store: any DeliveryQueue & ConsoleReads
    /// The now.
    public let now: @Sendable () -> Date

    /// The window the health figures cover: a day.
    public static let healthWindow: TimeInterval = 86_400

    /// One webhook and its health.
    public struct Health: Sendable, Hashable {
        /// The webhook, with its last success, last failure and its reason, consecutive
        /// failures and whether it is disabled.
        public var webhook: Webhook
        /// Deliveries its receiver accepted in the window.
        public var sent: Int
        /// Deliveries given up after failures in the window.
        public var failed: Int
        /// Deliveries not sent in the window (disabled, removed, expired).
        public var dropped: Int
        /// Deliveries waiting now.
        public var pending: Int
        /// The mean latency of the accepted deliveries, in milliseconds.
        public var averageLatencyMilliseconds: Int?

        /// Deliveries attempted to the end in the window: sent or failed.
        public var deliveries: Int { sent + failed }

        /// The share of ``deliveries`` that were sent, 0 to 1; `nil` with none.
        public var successRate: Double? { deliveries == 0 ? nil : Double(sent) / Double(deliveries) }
    }

    /// Every webhook, oldest first, with its health over the last day.
    public func endpoints() async throws -> [Health] {
        let webhooks = try await store.webhooks()
        let traffic = Dictionary(
            try await store.webhookTraffic(since: now().addingTimeInterval(-Self.healthWindow)).map {
                ($0.webhookID, $0)
            }, uniquingKeysWith: { first, _ in first })
        return webhooks.map { webhook in
            let seen = traffic[webhook.id] ?? WebhookTraffic(webhookID: webhook.id)
            return Health(
                webhook: webhook, sent: seen.sent, failed: seen.failed, dropped: seen.dropped, pending: seen.pending,
                averageLatencyMilliseconds: seen.latencyCount == 0 ? nil : seen.latencyTotal / seen.latencyCount)
        }
    }

    /// One webhook with its health.
    ///
    /// - Throws: ``ServiceError`` `not_found` for an unknown webhook.
    public func endpoint(_ id: String) async throws -> Health {
        guard let health = try await endpoints().first(where: { $0.webhook.id == id }) else {
            throw ServiceError.notFound("webhook")
        }
        return health
    }

    /// A webhook's last deliveries on both queues, the newest first.
    ///
    /// - Parameters:
    ///   - id: The webhook.
    ///   - limit: How many, 1 to 200.
    /// - Throws: ``ServiceError`` `invalid_input` naming `limit` out of bounds, `not_found`
    ///   for an unknown webhook.
    public func deliveries(of id: String, limit: Int = 50) async throws -> [WebhookDelivery] {
        guard (1...200).contains(limit) else { throw ServiceError.invalid("must be 1 to 200", field: "limit") }
        guard try await store.webhooks().contains(where: { $0.id == id }) else {
            throw ServiceError.notFound("webhook")
        }
        return try await store.webhookDeliveries(of: id, limit: limit)
    }

    /// Sends one delivery again: it is due now, and the sender's next pass (within the
    /// server's delivery interval) posts it, with the webhook's current secret. A delivery
    /// that ended (sent, failed, dropped) is attempted once more; its attempts so far
    /// count, so a failure now is final. A disabled webhook's delivery is dropped again.
    ///
    /// - Parameter id: The delivery's id (`WebhookDeliveryID.token`).
    /// - Throws: ``ServiceError`` `not_found` for an id that names no delivery,
    ///   `conflict` (`delivery_in_flight`) while a sender is posting it.
    public func retry(_ id: String) async throws -> WebhookDeliveryID {
        guard let delivery = WebhookDeliveryID(token: id) else { throw ServiceError.notFound("delivery") }
        switch try await store.retryWebhookDelivery(delivery, at: now()) {
        case .queued: return delivery
        case .notFound: throw ServiceError.notFound("delivery")
        case .inFlight:
            throw ServiceError(.conflict, "delivery_in_flight", "the delivery is being sent; try again in a minute")
        }
    }
}
