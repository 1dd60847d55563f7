import AsyncHTTPClient
import Crypto
import Foundation
import MomentumCore
import MomentumStore
import NIOCore

/// Posts notifications to app developers' webhooks, signed so that they can tell the post
/// came from this server and is fresh.
///
/// The body is JSON (``Payload``); `Momentum-Signature: t=<unix seconds>,v1=<hex>` carries
/// HMAC-SHA256 with the webhook's secret over `"<t>.<body>"`. A receiver recomputes it,
/// compares in constant time and refuses a timestamp more than a few minutes old. Any
/// answer other than 2xx is a failure, tried again with backoff.
struct WebhookSender: DeliveryTransport {
    let client: HTTPClient

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
        let (response, answer, error) = await DeliveryHTTP.execute(request, client: client)
        guard let response else { return .retry(error ?? "no answer", after: nil) }
        if (200..<300).contains(response.status.code) { return .delivered }
        let reason = "HTTP \(response.status.code)" + (answer.isEmpty ? "" : ": \(answer)")
        return .retry(reason, after: DeliveryHTTP.retryAfter(response))
    }

    /// `t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`.
    static func signature(body: [UInt8], secret: String, at timestamp: Int64) -> String {
        let signed = Array("\(timestamp).".utf8) + body
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Array(secret.utf8)))
        return "t=\(timestamp),v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }
}
