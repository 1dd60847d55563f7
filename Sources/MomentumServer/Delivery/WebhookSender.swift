import AsyncHTTPClient
import Crypto
import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore

/// Posts notifications to app developers' webhooks, signed so that they can tell the post
/// came from this server and is fresh.
///
/// The body is JSON (``Payload``); `Momentum-Signature: t=<unix seconds>,v1=<hex>` carries
/// HMAC-SHA256 with the webhook's secret over `"<t>.<body>"`. A receiver recomputes it,
/// compares in constant time and refuses a timestamp more than a few minutes old. Any
/// answer other than 2xx is a failure, tried again with backoff.
///
/// Before each post the URL's host is checked again (``WebhookAddresses``: not into the
/// server's own networks) and the post connects to the address checked. A failure is
/// recorded as a status ("HTTP 500", "connection refused", "timed out", "refused: …"),
/// never as what the receiver answered: the admin's list of webhooks must not echo what
/// some other service said.
struct WebhookSender: DeliveryTransport {
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
        var request = HTTPClientRequest(url: webhook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Momentum-Webhooks/1")
        request.headers.add(name: "Momentum-Webhook-Id", value: webhook.id)
        request.headers.add(name: "Momentum-Delivery", value: payload.id)
        request.headers.add(
            name: "Momentum-Signature", value: Self.signature(body: Array(body), secret: webhook.secret, at: timestamp))
        request.body = .bytes(ByteBuffer(bytes: body))
        let (response, _, error) = await DeliveryHTTP.execute(request, client: client)
        guard let response else { return .retry(DeliveryHTTP.status(of: error ?? ""), after: nil) }
        if (200..<300).contains(response.status.code) { return .delivered }
        return .retry("HTTP \(response.status.code)", after: DeliveryHTTP.retryAfter(response))
    }

    /// `t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`.
    static func signature(body: [UInt8], secret: String, at timestamp: Int64) -> String {
        let signed = Array("\(timestamp).".utf8) + body
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Array(secret.utf8)))
        return "t=\(timestamp),v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }
}
