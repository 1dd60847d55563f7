import Foundation
import MomentumServices
import MomentumStore

/// The console's webhooks: every endpoint with its health over the last day (deliveries,
/// success rate, latency, the last success and failure, failures in a row, whether it is
/// disabled), one endpoint's last deliveries on both of its queues, and the operator's
/// actions: send one delivery again (`webhook.retried`), rotate the secret
/// (`webhook.secret_rotated`; the new secret shown once, the current one signing beside it
/// for the overlap asked), disable and enable (`webhook.disabled`, `webhook.enabled`).
///
/// A disabled endpoint gets no new deliveries, and those already queued for it are dropped
/// when they come up ("the webhook is disabled"); enabling it starts afresh.
extension ConsoleRoutes {
    func addWebhookPages(services: Services) {
        let console = services.webhookConsole
        let targets = services.pushTargets
        page("webhooks", .viewDeliveries, section: .webhooks) { _ in
            .page(ConsolePage(title: "Webhooks", body: ConsoleWebhookViews.list(try await console.endpoints())))
        }
        page("webhooks/:webhook", .viewDeliveries, section: .webhooks) { request in
            let id = try request.parameter("webhook")
            let health = try await console.endpoint(id)
            let deliveries = try await console.deliveries(of: id, limit: 50)
            return .page(
                ConsolePage(
                    title: "Webhook",
                    body: ConsoleWebhookViews.detail(
                        health, deliveries: deliveries, actor: request.actor, csrf: request.csrfField,
                        now: console.now())))
        }
        form(
            "webhooks/:webhook/deliveries/:delivery/retry", .retryDeliveries, section: .webhooks,
            action: "webhook.retried"
        ) { request in
            let id = try request.parameter("webhook")
            let token = try request.parameter("delivery")
            // The form names the delivery's user for the audit log: it must be the one the id names.
            guard let named = WebhookDeliveryID(token: token), named.webhookID == id,
                request.form["user"].map({ $0 == named.user }) ?? true
            else { throw ServiceError.notFound("delivery") }
            _ = try await console.retry(token)
            return .redirect(
                to: ConsoleWebhookViews.path(id),
                notice: "Queued again: the sender posts it within seconds.")
        }
        form("webhooks/:webhook/rotate-secret", .manageWebhooks, section: .webhooks, action: "webhook.secret_rotated") {
            request in
            let id = try request.parameter("webhook")
            let hours = request.form["overlapHours"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard let hours, (0...168).contains(hours) else {
                throw ServiceError.invalid("must be a whole number of hours from 0 to 168", field: "overlapHours")
            }
            let webhook = try await targets.rotateWebhookSecret(id, overlap: TimeInterval(hours) * 3600)
            return .page(ConsolePage(title: "New secret", body: ConsoleWebhookViews.rotated(webhook)))
        }
        for (verb, enabled) in [("disable", false), ("enable", true)] {
            form("webhooks/:webhook/\(verb)", .manageWebhooks, section: .webhooks, action: "webhook.\(verb)d") {
                request in
                let id = try request.parameter("webhook")
                _ = try await targets.setWebhook(id, enabled: enabled)
                return .redirect(
                    to: ConsoleWebhookViews.path(id),
                    notice: enabled
                        ? "Enabled: new deliveries go to it again."
                        : "Disabled: it gets no new deliveries, and those queued are dropped.")
            }
        }
    }
}

/// The HTML of the webhooks section.
enum ConsoleWebhookViews {
    static func path(_ id: String) -> String {
        let allowed = CharacterSet.urlPathAllowed.subtracting(.init(charactersIn: "/"))
        return "/console/webhooks/\(id.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
    }

    static func when(_ date: Date?) -> ConsoleHTML {
        guard let date else { return "<span class=\"muted\">never</span>" }
        let text = date.ISO8601Format()
        return "<time datetime=\"\(text)\">\(text)</time>"
    }

    static func rate(_ health: WebhookConsole.Health) -> String {
        guard let rate = health.successRate else { return "–" }
        return "\(Int((rate * 100).rounded())) %"
    }

    static func latency(_ health: WebhookConsole.Health) -> String {
        health.averageLatencyMilliseconds.map { String($0) + " ms" } ?? "–"
    }

    static func status(_ webhook: Webhook) -> ConsoleHTML {
        webhook.disabledAt == nil
            ? "<span class=\"badge active\">enabled</span>" : "<span class=\"badge disabled\">disabled</span>"
    }

    static func list(_ endpoints: [WebhookConsole.Health]) -> ConsoleHTML {
        let intro: ConsoleHTML = """
            <h1>Webhooks</h1>
            <p class="lead">Every endpoint, with the users' notifications and the app's events it receives, and its health over the last 24 hours.</p>
            """
        guard !endpoints.isEmpty else {
            return
                "\(intro)<p class=\"empty\">No webhook yet: an app's backend registers one with POST /v1/admin/webhooks.</p>"
        }
        let rows = endpoints.map { health -> ConsoleHTML in
            let webhook = health.webhook
            let failure: ConsoleHTML =
                webhook.lastFailureAt == nil
                ? when(nil)
                : "\(when(webhook.lastFailureAt))<br><span class=\"muted\">\(webhook.lastError ?? "")</span>"
            return """
                <tr><th scope="row"><a href="\(path(webhook.id))"><code>\(webhook.url)</code></a></th>
                <td>\(status(webhook))</td><td class="number">\(health.deliveries)</td>
                <td class="number">\(rate(health))</td>
                <td class="number">\(latency(health))</td>
                <td class="number">\(health.pending)</td><td>\(when(webhook.lastSuccessAt))</td><td>\(failure)</td>
                <td class="number">\(webhook.consecutiveFailures)</td></tr>
                """
        }
        return """
            \(intro)
            <div class="table-wrap"><table><caption class="visually-hidden">Webhooks and their health</caption>
            <thead><tr><th scope="col">Endpoint</th><th scope="col">Status</th><th scope="col" class="number">Deliveries (24 h)</th>
            <th scope="col" class="number">Success</th><th scope="col" class="number">Latency</th>
            <th scope="col" class="number">Waiting</th><th scope="col">Last success</th><th scope="col">Last failure</th>
            <th scope="col" class="number">Failures in a row</th></tr></thead>
            <tbody>\(ConsoleHTML(joining: rows))</tbody></table></div>
            """
    }

    static func detail(
        _ health: WebhookConsole.Health, deliveries: [WebhookDelivery], actor: OperatorActor, csrf: ConsoleHTML,
        now: Date
    ) -> ConsoleHTML {
        let webhook = health.webhook
        let base = path(webhook.id)
        var actions: [ConsoleHTML] = []
        if actor.role.allows(.manageWebhooks) {
            let toggle: ConsoleHTML =
                webhook.disabledAt == nil
                ? """
                <form method="post" action="\(base)/disable">\(csrf)<button type="submit" class="danger">Disable</button></form>
                """
                : """
                <form method="post" action="\(base)/enable">\(csrf)<button type="submit" class="primary">Enable</button></form>
                """
            actions.append(
                """
                <h2>Actions</h2>
                <div class="filters">\(toggle)
                <form method="post" action="\(base)/rotate-secret" class="inline">\(csrf)
                <label>Current secret keeps signing for (hours)
                <input type="number" name="overlapHours" min="0" max="168" value="24" required></label>
                <button type="submit">Rotate the secret</button></form></div>
                """)
        }
        let previous: ConsoleHTML =
            webhook.previousSecretExpiresAt.map { $0 > now } == true
            ? "<dt>Previous secret signs until</dt><dd>\(when(webhook.previousSecretExpiresAt))</dd>" : ""
        let canRetry = actor.role.allows(.retryDeliveries)
        let rows = deliveries.map { delivery -> ConsoleHTML in
            let retry: ConsoleHTML =
                canRetry
                ? """
                <form method="post" action="\(base)/deliveries/\(delivery.id.token)/retry">\(csrf)<input type="hidden" name="user" value="\(delivery.id.user)"><button type="submit" class="small">Retry now</button></form>
                """
                : ""
            let state = delivery.state == "sent" ? "ok" : delivery.state
            return """
                <tr><td>\(when(delivery.createdAt))</td><td>\(delivery.type)<br><span class="muted">\(delivery.id.queue == .event ? "event" : "notification")</span></td>
                <td><span class="badge \(state)">\(delivery.state)</span></td>
                <td class="number">\(delivery.httpStatus.map(String.init) ?? (delivery.state == "sent" ? "2xx" : "–"))</td>
                <td class="number">\(delivery.latencyMilliseconds.map { String($0) } ?? "–")</td>
                <td class="number">\(delivery.attempts)</td>
                <td>\(delivery.state == "pending" ? when(delivery.dueAt) : "–")</td>
                <td>\(delivery.outcome ?? "")</td><td>\(retry)</td></tr>
                """
        }
        let table: ConsoleHTML =
            deliveries.isEmpty
            ? "<p class=\"empty\">No delivery kept for it (ended deliveries are kept for two weeks).</p>"
            : """
            <div class="table-wrap"><table><caption class="visually-hidden">Last deliveries</caption>
            <thead><tr><th scope="col">Queued</th><th scope="col">What</th><th scope="col">Status</th>
            <th scope="col" class="number">HTTP</th><th scope="col" class="number">Latency (ms)</th>
            <th scope="col" class="number">Attempts</th><th scope="col">Next attempt</th><th scope="col">Last outcome</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>\(ConsoleHTML(joining: rows))</tbody></table></div>
            """
        return """
            <h1>Webhook <code>\(webhook.id)</code></h1>
            <p class="lead"><code>\(webhook.url)</code> \(status(webhook))</p>
            <div class="figures">
            <div class="figure"><div class="value">\(health.deliveries)</div><div class="label">deliveries in 24 h</div></div>
            <div class="figure"><div class="value">\(rate(health))</div><div class="label">succeeded</div></div>
            <div class="figure"><div class="value">\(latency(health))</div><div class="label">mean latency</div></div>
            <div class="figure"><div class="value">\(health.pending)</div><div class="label">waiting</div></div>
            <div class="figure"><div class="value">\(webhook.consecutiveFailures)</div><div class="label">failures in a row</div></div>
            </div>
            <div class="panel"><dl class="facts">
            <dt>Notifications</dt><dd>\(webhook.kinds.map { $0.isEmpty ? "none" : $0.map(\.rawValue).sorted().joined(separator: ", ") } ?? "every kind")</dd>
            <dt>Events</dt><dd>\(webhook.events.isEmpty ? "none" : webhook.events.map(\.rawValue).sorted().joined(separator: ", "))</dd>
            <dt>Created</dt><dd>\(when(webhook.createdAt))</dd>
            <dt>Last success</dt><dd>\(when(webhook.lastSuccessAt))</dd>
            <dt>Last failure</dt><dd>\(when(webhook.lastFailureAt)) \(webhook.lastError ?? "")</dd>
            \(webhook.disabledAt == nil ? "" : "<dt>Disabled</dt><dd>\(when(webhook.disabledAt))</dd>" as ConsoleHTML)
            \(previous)
            </dl></div>
            \(ConsoleHTML(joining: actions))
            <h2>Last deliveries</h2>
            \(table)
            """
    }

    static func rotated(_ webhook: Webhook) -> ConsoleHTML {
        let until: ConsoleHTML =
            webhook.previousSecretExpiresAt.map { "The previous secret keeps signing until \(when($0))." }
            ?? "The previous secret stopped signing now."
        return """
            <h1>New secret for <code>\(webhook.id)</code></h1>
            <p class="notice">Copy it now: it is shown this once, never again.</p>
            <div class="panel"><p><code class="secret">\(webhook.secret)</code></p>
            <p>Every message carries a signature with each secret still valid. \(until)</p></div>
            <p><a href="\(path(webhook.id))">Back to the webhook</a></p>
            """
    }
}
