import Foundation
import MomentumStore

/// Posts event messages (`WebhookEventType`) to webhooks: the webhook channel's transport
/// also conforms, so that one sender, with its retries, backoff and failure limit, sends
/// notifications and events alike.
public protocol WebhookMessageTransport: DeliveryTransport {
    /// Posts one event message; never throws: every failure is a ``TransportResult``.
    func send(_ message: PendingWebhookMessage, now: Date) async -> TransportResult
}
