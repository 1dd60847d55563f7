import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

/// A device registration as a client sends it.
typealias PushTargetRequest = Components.Schemas.PushTargetRegistration
/// A webhook as the admin creates it.
typealias WebhookRequest = Components.Schemas.WebhookRequest
/// The overlap of a webhook secret's rotation.
typealias WebhookSecretRotation = Components.Schemas.WebhookSecretRotation

/// A webhook and its health, as the API answers it; the secret only when it was just made.
struct WebhookView: Encodable {
    var id: String
    var url: String
    var kinds: [String]?
    var events: [String]
    var status: String
    var secret: String?
    var previousSecretExpiresAt: Date?
    var createdAt: Date
    var disabledAt: Date?
    var consecutiveFailures: Int
    var lastError: String?
    var lastSuccessAt: Date?
    var lastFailureAt: Date?
    /// Its health over the last day (in the list only).
    var health: WebhookHealthView?

    /// The view; the previous secret's end only while it still signs at `now`.
    init(_ webhook: Webhook, showSecret: Bool = false, now: Date) {
        id = webhook.id
        url = webhook.url
        kinds = webhook.kinds.map { $0.map(\.rawValue).sorted() }
        events = webhook.events.map(\.rawValue).sorted()
        status = webhook.disabledAt == nil ? "active" : "disabled"
        secret = showSecret ? webhook.secret : nil
        previousSecretExpiresAt = webhook.previousSecretExpiresAt.flatMap { $0 > now ? $0 : nil }
        createdAt = webhook.createdAt
        disabledAt = webhook.disabledAt
        consecutiveFailures = webhook.consecutiveFailures
        lastError = webhook.lastError
        lastSuccessAt = webhook.lastSuccessAt
        lastFailureAt = webhook.lastFailureAt
    }
}

/// `/v1/push-targets…`, the devices that receive notifications, and
/// `/v1/admin/webhooks…`, the admin's webhooks: each maps HTTP to the ``PushTargets`` use
/// case.
struct PushController: Sendable {
    let targets: PushTargets
    /// The server's VAPID key pair, whose public key a Web Push registration needs.
    let vapid: VAPIDKeys
    /// Whether the server sends to Apple devices (APNs is configured).
    let apns: Bool
    /// Whether the server sends to Android devices (FCM is configured).
    let fcm: Bool
    /// The admin token's check, for the webhooks.
    let admin: AdminGate

    /// Registers the push-target routes on the authenticated group.
    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.get("push-targets", use: list)
        group.post("push-targets", use: register)
        group.delete("push-targets/:target", use: remove)
    }

    /// Registers the admin's webhook routes on the router.
    func addWebhookRoutes(to router: Router<MomentumContext>) {
        router.post("v1/admin/webhooks", use: createWebhook)
        router.delete("v1/admin/webhooks/:webhook", use: removeWebhook)
        router.post("v1/admin/webhooks/:webhook/rotate-secret", use: rotateWebhookSecret)
        for (action, enabled) in [("enable", true), ("disable", false)] {
            router.post("v1/admin/webhooks/:webhook/\(action)") { request, context in
                try await setWebhook(enabled: enabled, request, context: context)
            }
        }
    }

    /// `GET /v1/push-targets`: the caller's devices, and what a new one needs.
    @Sendable func list(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(
            PushTargetListView(
                targets: try await targets.targets(of: caller.user).map(PushTargetView.init),
                vapidPublicKey: try await vapid.publicKey(), apns: apns, fcm: fcm))
    }

    /// `POST /v1/push-targets`: registers a device (Web Push, APNs or FCM); 201 when new, 200
    /// when it was already registered.
    @Sendable func register(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(PushTargetRequest.self, from: request, limit: 16_384)
        let (target, created): (PushTarget, Bool)
        switch body.channel {
        case .webPush:
            guard let endpoint = body.endpoint else { throw APIError.invalid("is required", field: "endpoint") }
            guard let keys = body.keys else { throw APIError.invalid("are required", field: "keys") }
            if body.token != nil || body.environment != nil {
                throw APIError.invalid(
                    "belongs to APNs registrations", field: body.token != nil ? "token" : "environment")
            }
            (target, created) = try await targets.registerWebPush(
                endpoint: endpoint, p256dh: keys.p256dh, auth: keys.auth, user: caller.user)
        case .apns:
            guard let token = body.token else { throw APIError.invalid("is required", field: "token") }
            if body.endpoint != nil || body.keys != nil {
                throw APIError.invalid(
                    "belongs to Web Push registrations", field: body.endpoint != nil ? "endpoint" : "keys")
            }
            (target, created) = try await targets.registerAPNs(
                token: token, environment: body.environment?.rawValue, user: caller.user)
        case .fcm:
            guard let token = body.token else { throw APIError.invalid("is required", field: "token") }
            if body.endpoint != nil || body.keys != nil {
                throw APIError.invalid(
                    "belongs to Web Push registrations", field: body.endpoint != nil ? "endpoint" : "keys")
            }
            if body.environment != nil { throw APIError.invalid("belongs to APNs registrations", field: "environment") }
            (target, created) = try await targets.registerFCM(token: token, user: caller.user)
        }
        return try JSONIO.response(PushTargetView(target), status: created ? .created : .ok)
    }

    /// `DELETE /v1/push-targets/{target}`: forgets a device; 204.
    @Sendable func remove(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let id = try context.parameters.require("target")
        try await targets.remove(id, of: caller.user)
        return Response(status: .noContent)
    }

    /// `POST /v1/admin/webhooks`: a new webhook, with its secret (shown this once); 201.
    @Sendable func createWebhook(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .manageWebhooks, action: "webhook.created")
        let body = try await JSONIO.decode(WebhookRequest.self, from: request, limit: 16_384)
        let kinds = body.kinds?.compactMap { NotificationKind(rawValue: $0.rawValue) }
        let events = body.events?.compactMap { WebhookEventType(rawValue: $0.rawValue) }
        let webhook = try await targets.createWebhook(url: body.url, kinds: kinds, events: events)
        return try JSONIO.response(WebhookView(webhook, showSecret: true, now: targets.now()), status: .created)
    }

    /// `POST /v1/admin/webhooks/{webhook}/rotate-secret`: a new secret (shown this once), the
    /// current one signing beside it for the overlap asked (a day when the body is empty).
    @Sendable func rotateWebhookSecret(_ request: Request, context: MomentumContext) async throws -> Response {
        let id = try context.parameters.require("webhook")
        _ = try await admin.authorize(request, .manageWebhooks, action: "webhook.secret_rotated")
        let body = try await JSONIO.decode(WebhookSecretRotation.self, from: request, limit: 1024, emptyIsObject: true)
        let webhook = try await targets.rotateWebhookSecret(id, overlap: body.overlapSeconds.map(TimeInterval.init))
        return try JSONIO.response(WebhookView(webhook, showSecret: true, now: targets.now()))
    }

    /// `DELETE /v1/admin/webhooks/{webhook}`: deletes a webhook; 204.
    @Sendable func removeWebhook(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .manageWebhooks, action: "webhook.removed")
        try await targets.removeWebhook(try context.parameters.require("webhook"))
        return Response(status: .noContent)
    }

    /// `POST /v1/admin/webhooks/{webhook}/enable` and `…/disable`: the webhook now.
    @Sendable func setWebhook(
        enabled: Bool, _ request: Request, context: MomentumContext
    ) async throws -> Response {
        let id = try context.parameters.require("webhook")
        _ = try await admin.authorize(
            request, .manageWebhooks, action: enabled ? "webhook.enabled" : "webhook.disabled")
        return try JSONIO.response(WebhookView(try await targets.setWebhook(id, enabled: enabled), now: targets.now()))
    }
}

/// The user's devices and what a new one needs.
struct PushTargetListView: Encodable {
    var targets: [PushTargetView]
    var vapidPublicKey: String
    var apns: Bool
    var fcm: Bool
}
