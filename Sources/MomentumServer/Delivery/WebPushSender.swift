import AsyncHTTPClient
import Crypto
import Foundation
import JWTKit
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore

/// The server's VAPID key pair (RFC 8292): browsers subscribe with its public half, and each
/// push request carries a JWT signed with the private half.
///
/// Made on the first instance's first start and kept in the store, so that every instance
/// signs with the same key and subscriptions survive restarts. Tokens are cached per push
/// service origin for 12 hours (the RFC allows 24).
actor VAPIDKeys {
    private let store: any MomentumStore
    private let subject: String
    private var key: P256.Signing.PrivateKey?
    private var signer: JWTKeyCollection?
    private var tokens: [String: (token: String, expires: Date)] = [:]

    /// The setting that holds the private key (base64url, 32 bytes).
    static let setting = "webpush.vapid.private-key"
    /// How long a token is valid.
    static let lifetime: TimeInterval = 12 * 3600

    init(store: any MomentumStore, subject: String) {
        self.store = store
        self.subject = subject
    }

    /// The private key, loaded or made once.
    func privateKey() async throws -> P256.Signing.PrivateKey {
        if let key { return key }
        let fresh = Tokens.base64URL([UInt8](P256.Signing.PrivateKey().rawRepresentation))
        let stored = try await store.serverSetting(Self.setting, orInsert: fresh)
        guard let bytes = WebPushCrypto.bytes(base64URL: stored),
            let loaded = try? P256.Signing.PrivateKey(rawRepresentation: bytes)
        else { throw StoreError(.corrupt, "the stored VAPID key is not a P-256 private key") }
        key = loaded
        return loaded
    }

    /// The public key browsers subscribe with: base64url of the uncompressed point.
    func publicKey() async throws -> String {
        Tokens.base64URL([UInt8](try await privateKey().publicKey.x963Representation))
    }

    /// The `Authorization` header for a push service: `vapid t=<JWT>, k=<public key>`.
    func authorization(for endpoint: URL, now: Date) async throws -> String {
        guard let scheme = endpoint.scheme, let host = endpoint.host else {
            throw StoreError(.corrupt, "a push endpoint without an origin")
        }
        let audience = "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
        let token: String
        if let cached = tokens[audience], cached.expires.timeIntervalSince(now) > 3600 {
            token = cached.token
        } else {
            let key = try await privateKey()
            let signer: JWTKeyCollection
            if let existing = self.signer {
                signer = existing
            } else {
                signer = await JWTKeyCollection().add(ecdsa: try ES256PrivateKey(backing: key))
                self.signer = signer
            }
            let expires = now.addingTimeInterval(Self.lifetime)
            token = try await signer.sign(
                Claims(aud: AudienceClaim(value: [audience]), exp: ExpirationClaim(value: expires), sub: subject))
            tokens[audience] = (token, expires)
        }
        return "vapid t=\(token), k=\(try await publicKey())"
    }

    /// A VAPID token's claims.
    struct Claims: JWTPayload {
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var sub: String

        func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
    }
}

/// Sends notifications to browsers through their push services (RFC 8030), the payload
/// encrypted for the subscription (RFC 8291) and the request signed with the server's VAPID
/// key (RFC 8292).
struct WebPushSender: DeliveryTransport {
    let client: HTTPClient
    let keys: VAPIDKeys

    /// What the service worker receives (sw.js shows it).
    struct Payload: Codable, Equatable {
        var title: String
        var body: String
        var url: String
        var key: String
        var kind: String
        var at: Date
    }

    func send(_ delivery: PendingDelivery, now: Date) async -> TransportResult {
        guard let target = delivery.pushTarget, let endpoint = URL(string: target.address),
            let p256dh = target.p256dh.flatMap(WebPushCrypto.bytes(base64URL:)),
            let auth = target.auth.flatMap(WebPushCrypto.bytes(base64URL:))
        else { return .gone("the subscription is incomplete") }
        let n = delivery.notification
        let body: [UInt8]
        let authorization: String
        do {
            let json = try DeliveryHTTP.json(
                Payload(title: n.title, body: n.body, url: n.url, key: n.key, kind: n.kind.rawValue, at: n.at))
            body = try WebPushCrypto.encrypt(Array(json), p256dh: p256dh, auth: auth)
            authorization = try await keys.authorization(for: endpoint, now: now)
        } catch let error as WebPushCrypto.KeyError {
            return .gone(error.description)
        } catch {
            return .retry("could not sign: \(error)", after: nil)
        }
        var request = HTTPClientRequest(url: target.address)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        // Until the notification stops making sense, at most 4 weeks.
        let ttl = Int(min(max(n.expires.timeIntervalSince(now), 0), 28 * 86_400))
        request.headers.add(name: "TTL", value: String(ttl))
        request.headers.add(name: "Urgency", value: Self.urgency(n.kind))
        // A newer message with the same topic replaces one still waiting on the service.
        request.headers.add(name: "Topic", value: Self.topic(n.key))
        request.headers.add(name: "Authorization", value: authorization)
        request.body = .bytes(ByteBuffer(bytes: body))
        let (response, answer, error) = await DeliveryHTTP.execute(request, client: client)
        guard let response else { return .retry(error ?? "no answer", after: nil) }
        let code = response.status.code
        let reason = "HTTP \(code)" + (answer.isEmpty ? "" : ": \(answer)")
        switch code {
        case 200..<300: return .delivered
        // Expired or unsubscribed; 403: the subscription belongs to another key.
        case 404, 410, 403: return .gone(reason)
        case 429, 500..<600: return .retry(reason, after: DeliveryHTTP.retryAfter(response))
        default: return .rejected(reason)
        }
    }

    /// RFC 8030 urgency: what the user should hear at once is `high`.
    static func urgency(_ kind: NotificationKind) -> String {
        switch kind {
        case .streakAtRisk, .milestone, .freezeOffered: "high"
        default: "normal"
        }
    }

    /// A topic (at most 32 URL-safe characters) from a notification key.
    static func topic(_ key: String) -> String {
        String(Tokens.base64URL(Array(SHA256.hash(data: Array(key.utf8)))).prefix(32))
    }
}
