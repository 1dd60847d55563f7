import Foundation
import Hummingbird
import MomentumServices
import MomentumStore

/// `/v1/admin/webhooks` (with each endpoint's health), a webhook's last deliveries, one
/// delivery sent again, and the notifications' summary: what the console shows of
/// deliveries, for the admin API. Each route checks its operator's permission through
/// ``AdminGate``; a retry is audited (`webhook.retried`).
struct DeliveryAdminController: Sendable {
    let admin: AdminGate
    let webhooks: WebhookConsole
    let summaries: NotificationSummaries

    func addRoutes(to router: Router<MomentumContext>) {
        router.get("v1/admin/webhooks", use: list)
        router.get("v1/admin/webhooks/:webhook/deliveries", use: deliveries)
        router.post("v1/admin/deliveries/:delivery/retry", use: retry)
        router.get("v1/admin/notifications/summary", use: summary)
    }

    /// `GET /v1/admin/webhooks`: every webhook with its status and its health over the last day.
    @Sendable func list(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .viewDeliveries, action: "webhook.listed")
        let now = webhooks.now()
        return try JSONIO.response([
            "webhooks": try await webhooks.endpoints().map { health in
                var view = WebhookView(health.webhook, now: now)
                view.health = WebhookHealthView(health)
                return view
            }
        ])
    }

    /// `GET /v1/admin/webhooks/{webhook}/deliveries[?limit=]`: its last deliveries, newest first.
    @Sendable func deliveries(_ request: Request, context: MomentumContext) async throws -> Response {
        let id = try context.parameter("webhook")
        _ = try await admin.authorize(request, .viewDeliveries, action: "webhook.deliveries_listed")
        let limit = try request.integer("limit", default: 50, in: 1...200)
        return try JSONIO.response([
            "deliveries": try await webhooks.deliveries(of: id, limit: limit).map(WebhookDeliveryView.init)
        ])
    }

    /// `POST /v1/admin/deliveries/{delivery}/retry`: the delivery due now.
    @Sendable func retry(_ request: Request, context: MomentumContext) async throws -> Response {
        let token = try context.parameter("delivery")
        let user = WebhookDeliveryID(token: token)?.user
        _ = try await admin.authorize(request, .retryDeliveries, action: "webhook.retried", user: user)
        let delivery = try await webhooks.retry(token)
        return try JSONIO.response(DeliveryRetryView(id: token, webhookId: delivery.webhookID, dueAt: webhooks.now()))
    }

    /// `GET /v1/admin/notifications/summary[?hours=24]`: what the notifications did.
    @Sendable func summary(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .viewNotifications, action: "notification.summary_read")
        let hours = try request.integer("hours", default: 24, in: 1...168)
        return try JSONIO.response(NotificationSummaryView(try await summaries.summary(hours: hours)))
    }
}

/// A webhook's health as the API answers it (`WebhookHealth`).
struct WebhookHealthView: Encodable {
    var windowHours: Int
    var deliveries: Int
    var sent: Int
    var failed: Int
    var dropped: Int
    var pending: Int
    var successRate: Double?
    var averageLatencyMs: Int?

    init(_ health: WebhookConsole.Health) {
        windowHours = Int(WebhookConsole.healthWindow / 3600)
        deliveries = health.deliveries
        sent = health.sent
        failed = health.failed
        dropped = health.dropped
        pending = health.pending
        successRate = health.successRate
        averageLatencyMs = health.averageLatencyMilliseconds
    }
}

/// One delivery to a webhook as the API answers it (`WebhookDelivery`).
struct WebhookDeliveryView: Encodable {
    var id: String
    var queue: String
    var user: String
    var type: String
    var state: String
    var attempts: Int
    var outcome: String?
    var httpStatus: Int?
    var latencyMs: Int?
    var createdAt: Date
    var nextAttemptAt: Date?
    var finishedAt: Date?

    init(_ delivery: WebhookDelivery) {
        id = delivery.id.token
        queue = delivery.id.queue.rawValue
        user = delivery.id.user
        type = delivery.type
        state = delivery.state
        attempts = delivery.attempts
        outcome = delivery.outcome
        httpStatus = delivery.httpStatus
        latencyMs = delivery.latencyMilliseconds
        createdAt = delivery.createdAt
        nextAttemptAt = delivery.state == "pending" ? delivery.dueAt : nil
        finishedAt = delivery.finishedAt
    }
}

/// A delivery queued again (`DeliveryRetry`).
struct DeliveryRetryView: Encodable {
    var id: String
    var webhookId: String
    var dueAt: Date
}

/// The notifications' summary as the API answers it (`NotificationSummary`).
struct NotificationSummaryView: Encodable {
    struct Row: Encodable {
        var hour: Date
        var kind: String
        var channel: String
        var outcome: String
        var reason: String?
        var count: Int
    }
    struct Total: Encodable {
        var outcome: String
        var count: Int
    }
    struct Drop: Encodable {
        var reason: String
        var channel: String
        var kind: String
        var count: Int
    }

    var from: Date
    var hours: Int
    var totals: [Total]
    var drops: [Drop]
    var counts: [Row]

    init(_ summary: NotificationSummaries.Summary) {
        from = summary.from
        hours = summary.hours
        let totals = summary.outcomeTotals
        self.totals = NotificationSummaries.outcomes.map { Total(outcome: $0, count: totals[$0] ?? 0) }
        drops = summary.drops.map { Drop(reason: $0.reason, channel: $0.channel, kind: $0.kind, count: $0.count) }
        counts = summary.counts.map {
            Row(
                hour: $0.hour, kind: $0.kind, channel: $0.channel, outcome: $0.outcome,
                reason: $0.reason.isEmpty ? nil : $0.reason, count: $0.count)
        }
    }
}
