import AsyncHTTPClient
import Crypto
import Foundation
import JWTKit
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore

/// The provider token: an ES256 JWT naming the key and team, made again after 50 minutes
/// (Apple refuses one older than an hour and one renewed more often than every 20 minutes).
actor APNsTokens {
    private let configuration: APNsConfiguration
    private var signer: JWTKeyCollection?
    private var current: (token: String, issued: Date)?

    /// How long a token is used.
    static let lifetime: TimeInterval = 50 * 60

    init(_ configuration: APNsConfiguration) {
        self.configuration = configuration
    }

    /// The token to send at `now`.
    func token(now: Date) async throws -> String {
        if let current, now.timeIntervalSince(current.issued) < Self.lifetime, now >= current.issued {
            return current.token
        }
        let signer: JWTKeyCollection
        if let existing = self.signer {
            signer = existing
        } else {
            signer = await JWTKeyCollection().add(
                ecdsa: try ES256PrivateKey(pem: configuration.keyPEM),
                kid: JWKIdentifier(string: configuration.keyID))
            self.signer = signer
        }
        let issued = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let token = try await signer.sign(
            Claims(iss: IssuerClaim(value: configuration.teamID), iat: IssuedAtClaim(value: issued)),
            kid: JWKIdentifier(string: configuration.keyID))
        current = (token, issued)
        return token
    }

    /// Forgets the token (APNs said it expired or is invalid).
    func discard() { current = nil }

    /// A provider token's claims.
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

/// Sends notifications to iOS devices through APNs.
struct APNsSender: DeliveryTransport {
    let client: HTTPClient
    let configuration: APNsConfiguration
    let tokens: APNsTokens

    /// What the app receives: the alert, and where to go when it is opened.
    struct Payload: Codable, Equatable {
        var aps: APS
        var url: String
        var key: String
        var kind: String

        struct APS: Codable, Equatable {
            var alert: Alert
            var sound: String
            var threadID: String

            struct Alert: Codable, Equatable {
                var title: String
                var body: String
            }

            enum CodingKeys: String, CodingKey {
                case alert, sound
                case threadID = "thread-id"
            }
        }
    }

    func send(_ delivery: PendingDelivery, now: Date) async -> TransportResult {
        guard let target = delivery.pushTarget else { return .gone("the device token was removed") }
        let n = delivery.notification
        let base = target.environment == "sandbox" ? configuration.sandboxURL : configuration.productionURL
        let body: Data
        let token: String
        do {
            body = try JSONEncoder().encode(
                Payload(
                    aps: .init(alert: .init(title: n.title, body: n.body), sound: "default", threadID: n.kind.rawValue),
                    url: n.url, key: n.key, kind: n.kind.rawValue))
            token = try await tokens.token(now: now)
        } catch {
            return .retry("could not sign: \(error)", after: nil)
        }
        var request = HTTPClientRequest(url: "\(base)/3/device/\(target.address)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(token)")
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-topic", value: configuration.topic)
        request.headers.add(name: "apns-priority", value: Self.priority(n.kind))
        request.headers.add(
            name: "apns-expiration", value: String(Int64(n.expires.timeIntervalSince1970.rounded(.down))))
        request.headers.add(name: "apns-collapse-id", value: Self.collapseID(n.key))
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        let (response, answer, error) = await DeliveryHTTP.execute(request, client: client)
        guard let response else { return .retry(error ?? "no answer", after: nil) }
        let code = response.status.code
        if code == 200 { return .delivered }
        let reason = Self.reason(answer)
        let text = "HTTP \(code)" + (reason.map { ": \($0)" } ?? "")
        switch (code, reason) {
        case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"):
            return .gone(text)
        case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"):
            await tokens.discard()
            return .retry(text, after: nil)
        case (429, _), (500..<600, _):
            return .retry(text, after: DeliveryHTTP.retryAfter(response))
        default:
            return .rejected(text)
        }
    }

    /// 10 (at once) for what cannot wait; 5 (when the device is awake anyway) for the rest.
    static func priority(_ kind: NotificationKind) -> String {
        switch kind {
        case .streakAtRisk, .milestone, .freezeOffered: "10"
        default: "5"
        }
    }

    /// `apns-collapse-id` holds at most 64 bytes: a longer key is shortened to a hash.
    static func collapseID(_ key: String) -> String {
        key.utf8.count <= 64 ? key : String(Tokens.base64URL(Array(SHA256.hash(data: Array(key.utf8)))).prefix(43))
    }

    /// The `reason` of an APNs error answer (`{"reason": "BadDeviceToken"}`).
    static func reason(_ answer: String) -> String? {
        struct Answer: Decodable { var reason: String }
        return (try? JSONDecoder().decode(Answer.self, from: Data(answer.utf8)))?.reason
    }
}
