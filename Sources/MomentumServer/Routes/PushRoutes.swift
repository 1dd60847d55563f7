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

/// A webhook and its health, as the API answers it; the secret only when it was just made.
struct WebhookView: Encodable {
    var id: String
    var url: String
    var kinds: [String]?
    var status: String
    var secret: String?
    var createdAt: Date
    var disabledAt: Date?
    var consecutiveFailures: Int
    var lastError: String?
    var lastSuccessAt: Date?
    var lastFailureAt: Date?

    init(_ webhook: Webhook, showSecret: Bool = false) {
        id = webhook.id
        url = webhook.url
        kinds = webhook.kinds.map { $0.map(\.rawValue).sorted() }
        status = webhook.disabledAt == nil ? "active" : "disabled"
        secret = showSecret ? webhook.secret : nil
        createdAt = webhook.createdAt
        disabledAt = webhook.disabledAt
        consecutiveFailures = webhook.consecutiveFailures
        lastError = webhook.lastError
        lastSuccessAt = webhook.lastSuccessAt
        lastFailureAt = webhook.lastFailureAt
    }
}

extension Routes {
    /// Devices that receive notifications: each maps HTTP to the ``PushTargets`` use case.
    func addPushRoutes(_ group: RouterGroup<MomentumContext>) {
        let targets = server.services.pushTargets
        let vapid = server.vapid
        let apns = server.configuration.apns != nil
        group.get("push-targets") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(
                PushTargetListView(
                    targets: try await targets.targets(of: caller.user).map(PushTargetView.init),
                    vapidPublicKey: try await vapid.publicKey(), apns: apns))
        }
        group.post("push-targets") { request, context in
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
            }
            return try JSONIO.response(PushTargetView(target), status: created ? .created : .ok)
        }
        group.delete("push-targets/:target") { _, context in
            let caller = try context.requireCaller()
            let id = try context.parameters.require("target")
            try await targets.remove(id, of: caller.user)
            return Response(status: .noContent)
        }
    }

    /// The admin's webhooks.
    func addWebhookRoutes(_ router: Router<MomentumContext>) {
        let targets = server.services.pushTargets
        router.get("v1/admin/webhooks") { request, _ in
            try server.requireAdmin(request)
            return try JSONIO.response(["webhooks": try await targets.webhooks().map { WebhookView($0) }])
        }
        router.post("v1/admin/webhooks") { request, _ in
            try server.requireAdmin(request)
            let body = try await JSONIO.decode(WebhookRequest.self, from: request, limit: 16_384)
            let kinds = body.kinds?.compactMap { NotificationKind(rawValue: $0.rawValue) }
            let webhook = try await targets.createWebhook(url: body.url, kinds: kinds)
            return try JSONIO.response(WebhookView(webhook, showSecret: true), status: .created)
        }
        router.delete("v1/admin/webhooks/:webhook") { request, context in
            try server.requireAdmin(request)
            try await targets.removeWebhook(try context.parameters.require("webhook"))
            return Response(status: .noContent)
        }
        for (action, enabled) in [("enable", true), ("disable", false)] {
            router.post("v1/admin/webhooks/:webhook/\(action)") { request, context in
                try server.requireAdmin(request)
                let id = try context.parameters.require("webhook")
                return try JSONIO.response(WebhookView(try await targets.setWebhook(id, enabled: enabled)))
            }
        }
    }
}

/// The user's devices and what a new one needs.
struct PushTargetListView: Encodable {
    var targets: [PushTargetView]
    var vapidPublicKey: String
    var apns: Bool
}
