import AsyncHTTPClient
import Crypto
import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore

/// Posts notifications and events to app developers' webhooks, signed the Standard Webhooks
/// way (https://www.standardwebhooks.com) so that any of its libraries verifies them.
///
/// Every post carries `webhook-id` (the message's id, the same on every attempt),
/// `webhook-timestamp` (unix seconds) and `webhook-signature`: `v1,<base64 of
/// HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` for each secret that signs now (the current
/// one, and the previous one during a rotation's overlap), space-separated. An event's body
/// is `{"type", "timestamp", "data"}` (``WebhookEventBody``); a notification's is ``Payload``.
/// The deprecated `Momentum-Signature: t=<unix seconds>,v1=<hex>` (HMAC over `"<t>.<body>"`
/// keyed with the UTF-8 bytes of the secret as shown, one `v1=` per signing secret) is still
/// sent for receivers written before.
/// Any answer other than 2xx is a failure, tried again with backoff.
///
/// Before each post the URL's host is checked again (``WebhookAddresses``: not into the
/// server's own networks) and the post connects to the address checked. A failure is
/// recorded as a status ("HTTP 500", "connection refused", "timed out", "refused: …"),
/// never as what the receiver answered: the admin's list of webhooks must not echo what
/// some other service said.
struct WebhookSender: WebhookMessageTransport {
    /// The roots trusted beside the system's (``ServerConfiguration/deliveryTrustRootsPEM``).
    let extraRootsPEM: String?
    let addresses: WebhookAddresses

    /// What a webhook receives.
    struct Payload: Codable, Equatable {
        /// `<user>/<notification key>`: the same for every attempt, so a receiver can ignore
        /// a repeat.
        var id: String
        /// Always `notification`.
        var type: String
        /// The user it is for.
        var user: String
        /// This attempt's number, from 1.
        var attempt: Int
        /// The notification.
        var notification: Notification

        /// The notification's fields.
        struct Notification: Codable, Equatable {
            var key: String
            var kind: String
            var title: String
            var body: String
            var url: String
            var day: String
            var habit: String?
            var at: Date
            var expires: Date
        }
    }

    func send(_ delivery: PendingDelivery, now: Date) async -> TransportResult {
        guard let webhook = delivery.webhook else { return .rejected("the webhook was removed") }
        let n = delivery.notification
        let payload = Payload(
            id: "\(delivery.user)/\(n.key)", type: "notification", user: delivery.user, attempt: delivery.attempts + 1,
            notification: .init(
                key: n.key, kind: n.kind.rawValue, title: n.title, body: n.body, url: n.url, day: n.day.description,
                habit: n.habit, at: n.at, expires: n.expires))
        guard let body = try? DeliveryHTTP.json(payload) else {
            return .rejected("the notification could not be encoded")
        }
        return await post(Array(body), id: payload.id, to: webhook, now: now)
    }

    func send(_ message: PendingWebhookMessage, now: Date) async -> TransportResult {
        guard let webhook = message.webhook else { return .rejected("the webhook was removed") }
        return await post(Array(message.body.utf8), id: message.id, to: webhook, now: now, origin: message.origin)
    }

    /// Posts a signed body to a webhook's vetted address.
    private func post(
        _ body: [UInt8], id: String, to webhook: Webhook, now: Date, origin: TraceOrigin? = nil
    ) async -> TransportResult {
        guard let url = URL(string: webhook.url) else { return .rejected("the URL is not valid") }
        let client: HTTPClient
        switch await addresses.vet(url, fresh: false) {
        case .failure(let refusal) where refusal.timedOut:
            return .retry("DNS timed out", after: nil)
        case .failure(let refusal):
            return .retry("refused: \(refusal.reason)", after: nil)
        case .success(let destination):
            do {
                client =
                    try destination.address.map {
                        try DeliveryHTTP.client(extraRootsPEM: extraRootsPEM, connecting: destination.host, to: $0)
                    } ?? DeliveryHTTP.client(extraRootsPEM: extraRootsPEM)
            } catch {
                return .retry("could not connect", after: nil)
            }
        }
        let timestamp = Int64(now.timeIntervalSince1970.rounded(.down))
        let keys = webhook.signingKeys(at: now)
        var request = HTTPClientRequest(url: webhook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Momentum-Webhooks/1")
        request.headers.add(name: "webhook-id", value: id)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(
            name: "webhook-signature", value: Self.standardSignature(id: id, body: body, keys: keys, at: timestamp))
        request.headers.add(name: "Momentum-Webhook-Id", value: webhook.id)
        request.headers.add(name: "Momentum-Delivery", value: id)
        request.headers.add(
            name: "Momentum-Signature",
            value: Self.signature(body: body, keys: webhook.legacySigningKeys(at: now), at: timestamp))
        request.body = .bytes(ByteBuffer(bytes: body))
        let (response, _, error) = await DeliveryHTTP.execute(request, client: client, origin: origin)
        guard let response else { return .retry(DeliveryHTTP.status(of: error ?? ""), after: nil) }
        if (200..<300).contains(response.status.code) { return .delivered }
        return .retry("HTTP \(response.status.code)", after: DeliveryHTTP.retryAfter(response))
    }

    /// `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` for each key, space-separated
    /// (Standard Webhooks' `webhook-signature`).
    static func standardSignature(id: String, body: [UInt8], keys: [[UInt8]], at timestamp: Int64) -> String {
        let signed = Array("\(id).\(timestamp).".utf8) + body
        return keys.map { key in
            "v1,"
                + Data(HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: key)))
                .base64EncodedString()
        }.joined(separator: " ")
    }

    /// `t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, one `v1=` per
    /// signing secret's UTF-8 bytes: the deprecated `Momentum-Signature`.
    static func signature(body: [UInt8], secret: String, at timestamp: Int64) -> String {
        signature(body: body, keys: [Array(secret.utf8)], at: timestamp)
    }

    /// The deprecated `Momentum-Signature` with each of `keys`.
    static func signature(body: [UInt8], keys: [[UInt8]], at timestamp: Int64) -> String {
        let signed = Array("\(timestamp).".utf8) + body
        return "t=\(timestamp)"
            + keys.map { key in
                ",v1="
                    + HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: key)).map {
                        String(format: "%02x", $0)
                    }.joined()
            }.joined()
    }
}
