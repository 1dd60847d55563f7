import Crypto
import Foundation
import MomentumCore
import MomentumStore

/// The devices that receive a user's notifications (browsers' Web Push subscriptions, iOS
/// apps' APNs tokens, Android apps' FCM registration tokens) and the app developer's
/// webhooks, checked where they come in.
public struct PushTargets: Sendable {
    let store: any DeliveryQueue & WebhookEventQueue
    /// The now.
    public let now: @Sendable () -> Date
    /// Hosts whose Web Push endpoints are accepted (`*.` covers subdomains).
    public let pushHosts: [String]
    /// Whether APNs is configured.
    public let apns: Bool
    /// Whether FCM is configured.
    public let fcm: Bool
    /// Where webhooks may be posted.
    public let webhookAddresses: any WebhookAddressVetting
    /// The events webhooks receive (told when a webhook changes).
    public let webhookEvents: WebhookEvents

    /// The devices registered to receive the user's notifications.
    public func targets(of user: String) async throws -> [PushTarget] {
        try await store.pushTargets(of: user)
    }

    /// Removes one of the user's devices.
    ///
    /// - Throws: ``ServiceError`` `not_found` when the user has no such device.
    public func remove(_ id: String, of user: String) async throws {
        guard try await store.removePushTarget(id, of: user) else { throw ServiceError.notFound("push target") }
    }

    /// Every webhook, for the admin.
    public func webhooks() async throws -> [Webhook] {
        try await store.webhooks()
    }

    /// Removes a webhook.
    ///
    /// - Throws: ``ServiceError`` `not_found` when there is no such webhook.
    public func removeWebhook(_ id: String) async throws {
        defer { webhookEvents.forgetTypes() }
        guard try await store.removeWebhook(id) else { throw ServiceError.notFound("webhook") }
    }

    /// Turns a webhook on or off (turning it on clears its failures).
    ///
    /// - Returns: The webhook as it now is.
    /// - Throws: ``ServiceError`` `not_found` when there is no such webhook.
    public func setWebhook(_ id: String, enabled: Bool) async throws -> Webhook {
        defer { webhookEvents.forgetTypes() }
        guard try await store.setWebhookEnabled(id, enabled, at: now()) else { throw ServiceError.notFound("webhook") }
        return try await webhook(id)
    }

    /// The most devices one user may register; the oldest goes when one more comes.
    public static let maximumPerUser = 20

    /// A browser's subscription, checked: an `https` endpoint on a known push service, a
    /// P-256 public key and a 16-byte secret.
    public func registerWebPush(
        endpoint: String, p256dh: String, auth: String, user: String
    ) async throws -> (PushTarget, Bool) {
        guard endpoint.utf8.count <= 2048, let url = URL(string: endpoint), url.scheme == "https",
            let host = url.host?.lowercased(), url.user == nil
        else { throw ServiceError.invalid("must be an https URL of at most 2048 bytes", field: "endpoint") }
        guard Self.allowed(host, in: pushHosts) else {
            throw ServiceError.invalid(
                "is not on a push service this server sends to (\(pushHosts.joined(separator: ", ")))",
                field: "endpoint")
        }
        guard let key = WebPushCrypto.bytes(base64URL: p256dh), (try? WebPushCrypto.publicKey(key)) != nil else {
            throw ServiceError.invalid(
                "must be a P-256 public key, base64url (65 bytes uncompressed)", field: "keys.p256dh")
        }
        guard let secret = WebPushCrypto.bytes(base64URL: auth), secret.count == 16 else {
            throw ServiceError.invalid("must be 16 bytes, base64url", field: "keys.auth")
        }
        let target = PushTarget(
            id: Self.id(.webPush, endpoint), channel: .webPush, address: endpoint, p256dh: Tokens.base64URL(key),
            auth: Tokens.base64URL(secret), createdAt: now())
        return (target, try await save(target, user: user))
    }

    /// An iOS app's device token, checked: hex, 8 to 256 bytes.
    public func registerAPNs(token: String, environment: String?, user: String) async throws -> (PushTarget, Bool) {
        guard apns else {
            throw ServiceError.invalid("is not sent by this server: it has no APNs key configured", field: "channel")
        }
        let token = token.lowercased()
        guard (16...512).contains(token.utf8.count), token.utf8.count % 2 == 0,
            token.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
        else { throw ServiceError.invalid("must be the device token in hex (8 to 256 bytes)", field: "token") }
        let environment = environment ?? "production"
        guard ["production", "sandbox"].contains(environment) else {
            throw ServiceError.invalid("must be production or sandbox", field: "environment")
        }
        let target = PushTarget(
            id: Self.id(.apns, token), channel: .apns, address: token, environment: environment, createdAt: now())
        return (target, try await save(target, user: user))
    }

    /// An Android app's FCM registration token, checked: 16 to 512 characters of letters,
    /// digits, `-`, `_`, `:` and `.` (the alphabet of the tokens Firebase hands out).
    ///
    /// - Throws: ``ServiceError`` `invalid_input` naming `channel` when the server has no
    ///   FCM service account, `token` for a token that is not one.
    public func registerFCM(token: String, user: String) async throws -> (PushTarget, Bool) {
        guard fcm else {
            throw ServiceError.invalid(
                "is not sent by this server: it has no FCM service account configured", field: "channel")
        }
        guard (16...512).contains(token.utf8.count),
            token.utf8.allSatisfy({
                ($0 >= 48 && $0 <= 58) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95
                    || $0 == 46
            })
        else {
            throw ServiceError.invalid(
                "must be the FCM registration token (16 to 512 letters, digits, '-', '_', ':' or '.')", field: "token")
        }
        let target = PushTarget(id: Self.id(.fcm, token), channel: .fcm, address: token, createdAt: now())
        return (target, try await save(target, user: user))
    }

    private func save(_ target: PushTarget, user: String) async throws -> Bool {
        let created = try await store.savePushTarget(target, of: user)
        let targets = try await store.pushTargets(of: user)
        for old in targets.dropLast(Self.maximumPerUser) where old.id != target.id {
            try await store.removePushTarget(old.id, of: user)
        }
        return created
    }

    /// A target's id: the same address always has the same id (`wp_…`, `apns_…`, `fcm_…`).
    public static func id(_ channel: NotificationChannel, _ address: String) -> String {
        let digest = SHA256.hash(data: Array("\(channel.rawValue) \(address)".utf8))
        let prefix =
            switch channel {
            case .apns: "apns_"
            case .fcm: "fcm_"
            default: "wp_"
            }
        return prefix + Tokens.base64URL(Array(digest.prefix(15)))
    }

    /// Whether a host is one of the allowed ones (`*.example.com` covers its subdomains).
    public static func allowed(_ host: String, in hosts: [String]) -> Bool {
        hosts.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern.hasPrefix("*.") { return host.hasSuffix(String(pattern.dropFirst(1))) }
            return host == pattern
        }
    }

    // MARK: Webhooks

    /// Adds a webhook with a fresh Standard Webhooks secret (`Webhook.newSecret()`).
    ///
    /// It receives the notifications of `kinds` (all when `kinds` and `events` are both left
    /// out; none when only `events` are given) and the events of `events`.
    ///
    /// - Throws: `.invalid` `invalid_input` naming the field at fault (a URL that is not http or
    ///   https, a host that does not resolve, no kinds), `.invalid` `webhook_address_refused` when
    ///   the host is, or resolves to, an address of the server's own networks
    ///   (`WebhookAddresses`) that no allowed network holds, `.invalid` `webhook_dns_timeout` when
    ///   the host's lookup takes longer than the check waits (5 seconds).
    public func createWebhook(
        url: String, kinds: [NotificationKind]?, events: [WebhookEventType]? = nil
    ) async throws -> Webhook {
        guard url.utf8.count <= 2048, let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""),
            parsed.host?.isEmpty == false
        else { throw ServiceError.invalid("must be an http or https URL of at most 2048 bytes", field: "url") }
        if let kinds, kinds.isEmpty {
            throw ServiceError.invalid("must name at least one kind, or be left out", field: "kinds")
        }
        if let events, events.isEmpty {
            throw ServiceError.invalid("must name at least one event type, or be left out", field: "events")
        }
        if let refusal = await webhookAddresses.refusal(of: parsed) {
            if refusal.timedOut {
                throw ServiceError(
                    .invalid, "webhook_dns_timeout", "\(refusal.reason); try again later",
                    fields: [.init(field: "url", issue: refusal.reason)])
            }
            guard refusal.forbidden else { throw ServiceError.invalid(refusal.reason, field: "url") }
            let message =
                "\(refusal.reason): webhooks are not posted to loopback, private, link-local or metadata "
                + "addresses unless --webhook-allowed-networks holds them"
            throw ServiceError(
                .invalid, "webhook_address_refused", message,
                fields: [.init(field: "url", issue: refusal.reason)])
        }
        let webhook = Webhook(
            id: Tokens.id("wh_"), url: url,
            secret: Webhook.newSecret(),
            // A webhook made for events takes only the notifications it names.
            kinds: kinds.map(Set.init) ?? (events == nil ? nil : []), createdAt: now(),
            events: Set(events ?? []))
        try await store.createWebhook(webhook)
        webhookEvents.forgetTypes()
        return webhook
    }

    /// A webhook by id.
    ///
    /// - Throws: `.notFound` when there is none.
    public func webhook(_ id: String) async throws -> Webhook {
        guard let webhook = try await store.webhooks().first(where: { $0.id == id }) else {
            throw ServiceError.notFound("webhook")
        }
        return webhook
    }
}

/// Checks where a webhook would be posted: the HTTP layer's `WebhookAddresses` resolves the
/// host and refuses the server's own networks.
public protocol WebhookAddressVetting: Sendable {
    /// Why `url` may not be posted to, looked up afresh; `nil` when it may.
    func refusal(of url: URL) async -> WebhookAddressRefusal?
}

/// Why a URL may not be posted to, in words an admin can act on.
public struct WebhookAddressRefusal: Error, Equatable, Sendable {
    /// The reason.
    public var reason: String
    /// Whether the host is not allowed (rather than not resolved).
    public var forbidden: Bool
    /// Whether the host's lookup took longer than the vetting waits.
    public var timedOut: Bool

    /// Creates a refusal.
    public init(reason: String, forbidden: Bool, timedOut: Bool = false) {
        self.reason = reason
        self.forbidden = forbidden
        self.timedOut = timedOut
    }
}
