import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The console's webhooks, notifications and keys pages, signed in as operators of each
/// role: health and deliveries read, one delivery sent again, a secret rotated (shown once,
/// both secrets signing during the overlap), the notifications' charts with their numbers,
/// and server keys made (the secret shown once) and revoked.
struct ConsoleDeliveryPagesTests {
    private static func audit(
        _ harness: ServerHarness, action: String, by actor: OperatorActor
    ) async throws -> [AuditEntry] {
        try await harness.state.services.operators.auditLog(
            AuditQuery(operatorID: actor.id, user: nil, actionPrefix: action, before: nil, limit: 50)
        ).entries
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func webhooksAreReadRetriedAndRotatedFromTheConsole(_ backend: ServerHarness.Backend) async throws {
        let receiver = try await LoopbackReceiver.start(.plain) { _ in (503, "busy") }
        defer { Task { await receiver.stop() } }
        try await ServerHarness.with(
            backend: backend,
            configure: {
                $0.webhookAllowedNetworks = ["127.0.0.0/8", "::1"]
                $0.deliveryAttempts = 1
            }
        ) { harness, client in
            let token = try await client.register("ada")
            let created = try await client.call(
                .post, "/v1/admin/webhooks",
                json: #"{"url": "\#(receiver.base)/events", "events": ["unlock.created"]}"#,
                headers: ServerHarness.ownerHeaders)
            let id = try #require(created.json["id"] as? String)
            let firstSecret = try #require(created.json["secret"] as? String)
            try await ConsoleDeliveryTests.checkIn(client, token: token)
            _ = try await harness.state.runDueDeliveries()

            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            let list = try await viewer.get("/console/webhooks")
            #expect(list.status == .ok, "\(list.text)")
            #expect(list.text.contains(receiver.base) && list.text.contains("HTTP 503"))
            let page = try await viewer.get("/console/webhooks/\(id)")
            #expect(page.status == .ok, "\(page.text)")
            #expect(page.text.contains("unlock.created") && page.text.contains(">503<"))
            // A viewer gets no forms, and a form posted anyway is refused.
            #expect(!page.text.contains("/retry\"") && !page.text.contains("rotate-secret"))
            let listed = try await harness.state.services.webhookConsole.deliveries(of: id)
            let delivery = try #require(listed.first).id.token
            let refused = try await viewer.post("/console/webhooks/\(id)/deliveries/\(delivery)/retry")
            #expect(refused.status == .forbidden, "\(refused.text)")

            // Support sends it again; the receiver is back.
            receiver.answer { _ in (200, "") }
            let support = try await ConsoleSession.signIn(.support, harness: harness, client: client)
            let supportPage = try await support.get("/console/webhooks/\(id)")
            #expect(supportPage.text.contains("/deliveries/\(delivery)/retry\""))
            #expect(!supportPage.text.contains("rotate-secret"), "support does not manage webhooks")
            let user = try #require(listed.first).id.user
            // A form naming another user than the delivery's is refused, and nothing is sent.
            let mismatch = try await support.post(
                "/console/webhooks/\(id)/deliveries/\(delivery)/retry", ["user": "someone-else"])
            #expect(mismatch.status == .notFound, "\(mismatch.text)")
            #expect(try await harness.state.runDueDeliveries().sent == 0)
            let retried = try await support.post("/console/webhooks/\(id)/deliveries/\(delivery)/retry", ["user": user])
            #expect(retried.status == .seeOther, "\(retried.text)")
            #expect(try await harness.state.runDueDeliveries().sent == 1)
            // The audit log names the user the delivery was about.
            let retriedEntries = try await Self.audit(harness, action: "webhook.retried", by: support.actor)
            #expect(retriedEntries.contains { $0.user == user }, "\(retriedEntries)")

            // An owner rotates the secret: shown on the answer page, never again.
            let owner = try await ConsoleSession.signIn(.owner, harness: harness, client: client)
            #expect(
                try await owner.post("/console/webhooks/\(id)/rotate-secret", ["overlapHours": "200"]).status
                    == .unprocessableContent)
            let rotated = try await owner.post("/console/webhooks/\(id)/rotate-secret", ["overlapHours": "24"])
            #expect(rotated.status == .ok, "\(rotated.text)")
            let newSecret = try #require(
                rotated.text.range(of: #"whsec_[A-Za-z0-9+/=]+"#, options: .regularExpression).map {
                    String(rotated.text[$0])
                })
            #expect(newSecret != firstSecret)
            #expect(!(try await owner.get("/console/webhooks/\(id)")).text.contains(newSecret))
            // The refused rotation is on record too.
            #expect(try await Self.audit(harness, action: "webhook.secret_rotated", by: owner.actor).count == 2)
            // During the overlap, a message verifies with either secret.
            let before = receiver.requests.count
            _ = try await harness.state.services.webhookConsole.retry(delivery)
            _ = try await harness.state.runDueDeliveries()
            let last = try #require(receiver.requests.dropFirst(before).last)
            #expect(WebhookEventTests.verifies(last, secret: newSecret, now: harness.now))
            #expect(WebhookEventTests.verifies(last, secret: firstSecret, now: harness.now))

            // Disabled and enabled from the console.
            let disabled = try await owner.post("/console/webhooks/\(id)/disable")
            #expect(disabled.status == .seeOther, "\(disabled.text)")
            let disabledPage = try await owner.get("/console/webhooks/\(id)")
            #expect(disabledPage.text.contains("badge disabled"), "\(disabledPage.text)")
            #expect(try await owner.post("/console/webhooks/\(id)/enable").status == .seeOther)
            let disabledEntries = try await Self.audit(harness, action: "webhook.disabled", by: owner.actor)
            #expect(disabledEntries.count == 1, "\(disabledEntries)")
            let enabledEntries = try await Self.audit(harness, action: "webhook.enabled", by: owner.actor)
            #expect(enabledEntries.count == 1, "\(enabledEntries)")
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func theNotificationChartsHaveTheirNumbers(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            _ = try await client.register("ada")
            let user = try #require(try await harness.state.store.account(email: "ada@example.com")).id
            try await harness.state.store.createWebhook(
                Webhook(
                    id: "wh_reminders", url: "https://hooks.example/r", secret: "whsec_c2VjcmV0",
                    kinds: [.reminder], createdAt: harness.now))
            _ = try await harness.state.services.notifications.social(
                kind: .nudge, key: "nudge:1", to: user, url: "/today", words: { _ in ("Nudge", "Go on") })
            _ = try await harness.state.runDueDeliveries()
            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            let page = try await viewer.get("/console/notifications")
            #expect(page.status == .ok, "\(page.text)")
            #expect(page.text.contains("<svg class=\"chart\""))
            #expect(page.text.contains("webhook does not take the kind"))
            #expect(page.text.contains("<th scope=\"col\" class=\"number\">dropped</th>"))
            #expect(page.text.contains("id=\"channel-webhook\"") && page.text.contains("id=\"kind-nudge\""))
            // The bar of the current hour says what it counts.
            #expect(page.text.contains(": 1 dropped</title>"))
            #expect(try await viewer.get("/console/notifications?hours=0").status == .unprocessableContent)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aServerKeyIsMadeWithItsSecretShownOnceAndRevoked(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            #expect(
                try await viewer.post("/console/keys/create", ["name": "x", "scope.events:write": "on"]).status
                    == .forbidden)
            let owner = try await ConsoleSession.signIn(.owner, harness: harness, client: client)
            // No scope: refused, nothing made.
            let none = try await owner.post("/console/keys/create", ["name": "backend"])
            #expect(none.status == .unprocessableContent, "\(none.text)")
            #expect(try await harness.state.services.serverKeys.list().isEmpty)
            let made = try await owner.post(
                "/console/keys/create",
                ["name": "backend", "app": "", "scope.events:write": "on", "scope.state:read": "on"])
            #expect(made.status == .ok, "\(made.text)")
            let key = try #require(
                made.text.range(of: #"msk_[A-Za-z0-9_-]+"#, options: .regularExpression).map { String(made.text[$0]) })
            let listed = try #require(try await harness.state.services.serverKeys.list().first)
            #expect(listed.scopes == ["events:write", "state:read"])
            // The key works, and the page never shows it again.
            let answer = try await client.call(.get, "/v1/server/users/nobody", token: key)
            #expect(answer.status == .notFound, "\(answer.text)")
            let page = try await viewer.get("/console/keys")
            #expect(page.status == .ok && page.text.contains("backend") && !page.text.contains(key))
            #expect(!page.text.contains("/revoke\""), "a viewer gets no revoke form")
            let revoked = try await owner.post("/console/keys/\(listed.id)/revoke")
            #expect(revoked.status == .seeOther, "\(revoked.text)")
            #expect(try await harness.state.services.serverKeys.list().first?.revokedAt != nil)
            // The refused one (no scope) is on record too.
            #expect(try await Self.audit(harness, action: "server_key.created", by: owner.actor).count == 2)
            #expect(try await Self.audit(harness, action: "server_key.revoked", by: owner.actor).count == 1)
            #expect((try await owner.get("/console/keys")).text.contains("No identity provider is configured"))
        }
    }
}
