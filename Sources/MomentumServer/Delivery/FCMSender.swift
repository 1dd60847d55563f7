import AsyncHTTPClient
import Crypto
import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore

/// Sends notifications to Android devices through Firebase Cloud Messaging's HTTP v1 API.
struct FCMSender: DeliveryTransport {
    let client: HTTPClient
    let configuration: FCMConfiguration
    let tokens: FCMAccessTokens

    /// The request's body: `{"message": {…}}`.
    struct Request: Codable, Equatable {
        var message: Message

        struct Message: Codable, Equatable {
            var token: String
            var notification: Notification
            /// What the app reads when it is opened: `url`, `kind`, `key` (strings, as FCM
            /// requires).
            var data: [String: String]
            var android: Android
        }

        struct Notification: Codable, Equatable {
            var title: String
            var body: String
        }

        struct Android: Codable, Equatable {
            /// `high` wakes the device at once; `normal` waits for it to be awake.
            var priority: String
            /// How long FCM keeps the message for an offline device: `"<seconds>s"`.
            var ttl: String
            /// Messages with the same key replace each other while waiting for the device.
            var collapseKey: String?
            var notification: AndroidNotification

            enum CodingKeys: String, CodingKey {
                case priority, ttl, notification
                case collapseKey = "collapse_key"
            }
        }

        struct AndroidNotification: Codable, Equatable {
            /// A notification with the same tag replaces the one shown (as `apns-collapse-id`).
            var tag: String
        }
    }

    /// The longest FCM keeps a message: four weeks.
    static let maximumTTL: TimeInterval = 28 * 86_400

    /// The body of the request that sends `notification` to `token` at `now`.
    static func request(_ n: PlannedNotification, token: String, now: Date) -> Request {
        let ttl = Int64(min(max(n.expires.timeIntervalSince(now), 0), maximumTTL).rounded(.down))
        return Request(
            message: .init(
                token: token, notification: .init(title: n.title, body: n.body),
                data: ["url": n.url, "key": n.key, "kind": n.kind.rawValue],
                android: .init(
                    priority: priority(n.kind), ttl: "\(ttl)s", collapseKey: collapseKey(n.kind),
                    notification: .init(tag: APNsSender.collapseID(n.key)))))
    }

    func send(_ delivery: PendingDelivery, now: Date) async -> TransportResult {
        guard let target = delivery.pushTarget else { return .gone("the registration token was removed") }
        let body: Data
        do {
            body = try DeliveryHTTP.json(Self.request(delivery.notification, token: target.address, now: now))
        } catch {
            return .rejected("could not encode: \(error)")
        }
        var refreshed = false
        while true {
            let token: String
            do { token = try await tokens.token(now: now) } catch { return .retry("\(error)", after: nil) }
            var request = HTTPClientRequest(
                url: "\(configuration.url)/v1/projects/\(configuration.projectID)/messages:send")
            request.method = .POST
            request.headers.add(name: "authorization", value: "Bearer \(token)")
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
            let (response, answer, error) = await DeliveryHTTP.execute(request, client: client)
            guard let response else { return .retry(error ?? "no answer", after: nil) }
            let code = Int(response.status.code)
            if code == 200 { return .delivered }
            let reason = Self.reason(answer)
            let text = "HTTP \(code)" + (reason.code.map { ": \($0)" } ?? "")
            switch code {
            case 401:
                // The access token expired or was revoked early: one new exchange, once. A
                // token refused right after its exchange stays cached until the queue's retry:
                // exchanging again at once would not help, and each concurrent send that saw
                // it refused would start another exchange.
                if refreshed { return .retry(text, after: nil) }
                await tokens.discard(token)
                refreshed = true
            case 404 where reason.code == "UNREGISTERED" || reason.code == "NOT_FOUND":
                return .gone(text)
            case 400 where reason.code == "INVALID_ARGUMENT" && reason.aboutToken:
                return .gone(text)
            case 403 where reason.code == "SENDER_ID_MISMATCH":
                return .gone(text)
            case 429, 500..<600:
                return .retry(text, after: DeliveryHTTP.retryAfter(response))
            default:
                return .rejected(text)
            }
        }
    }

    /// `high` for what cannot wait (as APNs priority 10); `normal` for the rest.
    static func priority(_ kind: NotificationKind) -> String {
        APNsSender.priority(kind) == "10" ? "high" : "normal"
    }

    /// A streak at risk replaces an older warning still waiting for the device; every other
    /// message is kept (FCM keeps at most four collapse keys per device).
    static func collapseKey(_ kind: NotificationKind) -> String? {
        kind == .streakAtRisk ? kind.rawValue : nil
    }

    /// An FCM error answer's code (the `FcmError`'s `errorCode`, else the status) and
    /// whether it is about the registration token.
    static func reason(_ answer: String) -> (code: String?, aboutToken: Bool) {
        struct Answer: Decodable {
            var error: Failure
            struct Failure: Decodable {
                var status: String?
                var message: String?
                var details: [Detail]?
            }
            struct Detail: Decodable {
                var errorCode: String?
                var fieldViolations: [Violation]?
            }
            struct Violation: Decodable {
                var field: String?
            }
        }
        guard let failure = (try? JSONDecoder().decode(Answer.self, from: Data(answer.utf8)))?.error else {
            return (nil, false)
        }
        let details = failure.details ?? []
        let code = details.lazy.compactMap(\.errorCode).first ?? failure.status
        let fields = details.flatMap { $0.fieldViolations ?? [] }.compactMap(\.field)
        let aboutToken =
            fields.contains("message.token")
            || (failure.message?.lowercased().contains("registration token") ?? false)
        return (code, aboutToken)
    }
}
