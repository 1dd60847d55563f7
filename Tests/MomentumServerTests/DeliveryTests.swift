import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Notifications on their way to devices and webhooks, end to end: real receivers on
/// loopback (a push service over TLS that decrypts each message with the subscription's
/// private key, an APNs provider endpoint over TLS and HTTP/2 that checks the provider
/// token's signature and every header, a webhook that checks its signature), a clock the
/// test moves.
@Suite(.serialized) struct DeliveryTests {
    /// A VAPID or APNs token's claims, read without checking their times against the real
    /// clock (the test's clock is elsewhere): the test checks them itself.
    struct AnyClaims: JWTPayload {
        var aud: AudienceClaim?
        var exp: ExpirationClaim?
        var sub: String?
        var iss: IssuerClaim?
        var iat: IssuedAtClaim?
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// A notification stored for a user the way the scheduler stores one.
    func notify(
        _ harness: ServerHarness, _ email: String, key: String, kind: NotificationKind = .milestone,
        expiresIn: TimeInterval = 7 * 86_400
    ) async throws -> PlannedNotification {
        let user = try #require(try await harness.state.store.account(email: email)).id
        let now = harness.now
        let notification = PlannedNotification(
            key: key, kind: kind, title: "First check-in of Read", body: "Every streak starts with one day.",
            url: "/habits/read", day: LocalDay(year: 2026, month: 7, day: 14)!, habit: "read", at: now,
            expires: now.addingTimeInterval(expiresIn))
        #expect(try await harness.state.store.deliverNotifications([notification], to: user, at: now).count == 1)
        return notification
    }

    func advance(_ harness: ServerHarness, _ seconds: TimeInterval) {
        harness.clock.value.withLock { $0 += seconds }
    }

    /// The claims of a JWT, its signature checked with an ES256 public key.
    func verified(_ token: String, key: P256.Signing.PublicKey) async throws -> (AnyClaims, JWTHeader) {
        let keys = await JWTKeyCollection().add(ecdsa: try ES256PublicKey(backing: key))
        let claims = try await keys.verify(token, as: AnyClaims.self)
        let header = try JSONDecoder().decode(
            JWTHeader.self,
            from: Data(WebPushCrypto.bytes(base64URL: String(token.split(separator: ".")[0])) ?? []))
        return (claims, header)
    }

    @Test func webPushIsEncryptedForTheSubscriptionAndSignedWithTheServersKey() async throws {
        let certificate = try LoopbackCertificate.make()
        let service = try await LoopbackReceiver.start(.tls(certificate), answer: { _ in (201, "") })
        defer { Task { await service.stop() } }
        try await ServerHarness.with(
            configure: {
                $0.pushHosts = ["localhost"]
                $0.deliveryTrustRootsPEM = certificate.certificatePEM
            }
        ) { harness, client in
            let token = try await client.register("ada")
            // The browser's subscription: its key pair and secret never leave the browser.
            let browserKey = P256.KeyAgreement.PrivateKey()
            let secret = (0..<16).map { _ in UInt8.random(in: 0...255) }
            let registration = #"""
                {"channel": "webPush", "endpoint": "\#(service.base)/push/s1",
                 "keys": {"p256dh": "\#(Tokens.base64URL([UInt8](browserKey.publicKey.x963Representation)))",
                          "auth": "\#(Tokens.base64URL(secret))"}}
                """#
            let created = try await client.call(.post, "/v1/push-targets", token: token, json: registration)
            #expect(created.status == .created, "\(created.text)")
            #expect(created.json["label"] as? String == "localhost")
            #expect(try await client.call(.post, "/v1/push-targets", token: token, json: registration).status == .ok)
            let listed = try await client.call(.get, "/v1/push-targets", token: token)
            #expect((listed.json["targets"] as? [[String: Any]])?.count == 1)
            let vapid = try #require(listed.json["vapidPublicKey"] as? String)
            #expect(listed.json["apns"] as? Bool == false)

            let sent = try await notify(harness, "ada@example.com", key: "milestone:first")
            let pass = try await harness.state.runDueDeliveries()
            #expect(pass.sent == 1, "\(pass)")
            let request = try #require(service.requests.first)
            #expect(request.path == "/push/s1")
            #expect(request.header("Content-Encoding") == "aes128gcm")
            #expect(request.header("TTL") == "604800")
            #expect(request.header("Urgency") == "high")
            #expect(request.header("Topic")?.count == 32)
            // The payload, decrypted with the subscription's private key (RFC 8291).
            let plain = try WebPushCrypto.decrypt(request.body, receiverKey: browserKey, auth: secret)
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(plain)) as? [String: Any])
            #expect(payload["title"] as? String == sent.title)
            #expect(payload["body"] as? String == sent.body)
            #expect(payload["url"] as? String == "/habits/read")
            #expect(payload["key"] as? String == "milestone:first")
            // VAPID (RFC 8292): a JWT for the push service's origin, signed with the key
            // browsers subscribed with.
            let authorization = try #require(request.header("Authorization"))
            let parts = authorization.dropFirst("vapid ".count).split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            #expect(parts.count == 2 && parts[1] == "k=\(vapid)", "\(authorization)")
            let jwt = String(parts[0].dropFirst(2))
            let publicKey = try P256.Signing.PublicKey(x963Representation: WebPushCrypto.bytes(base64URL: vapid) ?? [])
            let (claims, header) = try await verified(jwt, key: publicKey)
            #expect(header.alg == "ES256")
            #expect(claims.aud?.value == ["https://localhost:\(service.port)"])
            #expect(claims.sub == "mailto:admin@momentum.invalid")
            let expires = try #require(claims.exp?.value)
            #expect(expires > harness.now && expires <= harness.now.addingTimeInterval(24 * 3600))
            // A signature made with another key does not verify.
            await #expect(throws: (any Error).self) {
                _ = try await verified(jwt, key: P256.Signing.PrivateKey().publicKey)
            }

            // Sent once: the next pass has nothing.
            #expect(
                try await harness.state.runDueDeliveries()
                    == .init(sent: 0, retried: 0, failed: 0, deferred: 0, dropped: 0))
            // The push service says the subscription is gone: the device is removed.
            service.answer { _ in (410, "") }
            _ = try await notify(harness, "ada@example.com", key: "milestone:second")
            #expect(try await harness.state.runDueDeliveries().dropped == 1)
            let after = try await client.call(.get, "/v1/push-targets", token: token)
            #expect((after.json["targets"] as? [[String: Any]])?.isEmpty == true, "\(after.text)")
        }
    }

    @Test func apnsGoesOverHTTP2WithAFreshProviderTokenAndEveryHeader() async throws {
        let certificate = try LoopbackCertificate.make()
        let apple = try await LoopbackReceiver.start(.http2(certificate), answer: { _ in (200, "") })
        defer { Task { await apple.stop() } }
        let signingKey = P256.Signing.PrivateKey()
        let apns = APNsConfiguration(
            keyPEM: signingKey.pemRepresentation, keyID: "KEY1234567", teamID: "TEAM123456", topic: "app.momentum.ios",
            productionURL: apple.base, sandboxURL: apple.base + "/sandbox")
        try await ServerHarness.with(
            configure: {
                $0.apns = apns
                $0.deliveryTrustRootsPEM = certificate.certificatePEM
            }
        ) { harness, client in
            let token = try await client.register("ada")
            let device = String(repeating: "ab12", count: 16)
            let registered = try await client.call(
                .post, "/v1/push-targets", token: token,
                json: #"{"channel": "apns", "token": "\#(device.uppercased())", "environment": "sandbox"}"#)
            #expect(registered.status == .created, "\(registered.text)")
            #expect(registered.json["label"] as? String == "…" + device.suffix(8))

            let sent = try await notify(harness, "ada@example.com", key: "milestone:first")
            #expect(try await harness.state.runDueDeliveries().sent == 1)
            let request = try #require(apple.requests.first)
            #expect(request.http2, "APNs takes HTTP/2 only")
            #expect(request.path == "/sandbox/3/device/\(device)")
            #expect(request.header("apns-push-type") == "alert")
            #expect(request.header("apns-topic") == "app.momentum.ios")
            #expect(request.header("apns-priority") == "10")
            #expect(request.header("apns-expiration") == String(Int64(sent.expires.timeIntervalSince1970)))
            #expect(request.header("apns-collapse-id") == "milestone:first")
            let bearer = try #require(request.header("authorization"))
            #expect(bearer.hasPrefix("bearer "))
            let (claims, header) = try await verified(String(bearer.dropFirst(7)), key: signingKey.publicKey)
            #expect(header.alg == "ES256" && header.kid == "KEY1234567")
            #expect(claims.iss?.value == "TEAM123456")
            #expect(claims.iat?.value == Date(timeIntervalSince1970: harness.now.timeIntervalSince1970.rounded(.down)))
            let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
            let aps = try #require(body["aps"] as? [String: Any])
            #expect((aps["alert"] as? [String: String]) == ["title": sent.title, "body": sent.body])
            #expect(body["url"] as? String == "/habits/read")

            // Within the hour the same token; after 50 minutes a new one.
            advance(harness, 49 * 60)
            _ = try await notify(harness, "ada@example.com", key: "reminder:1", kind: .reminder)
            #expect(try await harness.state.runDueDeliveries().sent == 1)
            #expect(apple.requests.last?.header("authorization") == bearer)
            #expect(apple.requests.last?.header("apns-priority") == "5")
            advance(harness, 2 * 60)
            _ = try await notify(harness, "ada@example.com", key: "reminder:2", kind: .reminder)
            #expect(try await harness.state.runDueDeliveries().sent == 1)
            let renewed = try #require(apple.requests.last?.header("authorization"))
            #expect(renewed != bearer)
            #expect(
                try await verified(String(renewed.dropFirst(7)), key: signingKey.publicKey).0.iss?.value == "TEAM123456"
            )

            // 410 Unregistered: the token is removed; nothing more goes to it.
            apple.answer { _ in (410, #"{"reason": "Unregistered", "timestamp": 1784000000000}"#) }
            _ = try await notify(harness, "ada@example.com", key: "milestone:second")
            #expect(try await harness.state.runDueDeliveries().dropped == 1)
            let listed = try await client.call(.get, "/v1/push-targets", token: token)
            #expect((listed.json["targets"] as? [[String: Any]])?.isEmpty == true)
            #expect(listed.json["apns"] as? Bool == true)
            // A 500 is tried again later, a 400 for the payload is final.
            _ = try await client.call(
                .post, "/v1/push-targets", token: token, json: #"{"channel": "apns", "token": "\#(device)"}"#)
            apple.answer { _ in (500, #"{"reason": "InternalServerError"}"#) }
            _ = try await notify(harness, "ada@example.com", key: "milestone:third")
            #expect(try await harness.state.runDueDeliveries().retried == 1)
            apple.answer { _ in (400, #"{"reason": "PayloadTooLarge"}"#) }
            advance(harness, 31)
            #expect(try await harness.state.runDueDeliveries().failed == 1)
            let user = try #require(try await harness.state.store.account(email: "ada@example.com")).id
            let states = try await harness.state.store.deliveries(of: user, key: "milestone:third")
            #expect(states.map(\.state) == ["failed"])
            #expect(states.first?.outcome == "HTTP 400: PayloadTooLarge")
            #expect(states.first?.attempts == 2)
        }
    }

    @Test func webhooksAreSignedRetriedWithBackoffAndDisabledAfterFailuresInARow() async throws {
        let receiver = try await LoopbackReceiver.start(.plain, answer: { _ in (500, "down for maintenance") })
        defer { Task { await receiver.stop() } }
        try await ServerHarness.with(
            configure: {
                $0.webhookFailureLimit = 3
                $0.deliveryRetrySeconds = 60
                // The receiver is on loopback, which webhooks reach only when allowed.
                $0.webhookAllowedNetworks = ["127.0.0.0/8", "::1"]
            }
        ) { harness, client in
            let admin: HTTPFields = [.authorization: "Bearer mop_harness-owner"]
            let created = try await client.call(
                .post, "/v1/admin/webhooks", json: #"{"url": "\#(receiver.base)/hooks/momentum"}"#, headers: admin)
            #expect(created.status == .created, "\(created.text)")
            let secret = try #require(created.json["secret"] as? String)
            let id = try #require(created.json["id"] as? String)
            #expect(created.json["status"] as? String == "active")
            // The secret is shown once only.
            let listed = try await client.call(.get, "/v1/admin/webhooks", headers: admin)
            #expect((listed.json["webhooks"] as? [[String: Any]])?.first?["secret"] == nil)

            _ = try await client.register("ada")
            _ = try await notify(harness, "ada@example.com", key: "milestone:first")
            #expect(try await harness.state.runDueDeliveries().retried == 1)
            let first = try #require(receiver.requests.first)
            // The signature: HMAC-SHA256 over "<timestamp>.<body>" with the secret.
            let timestamp = Int64(harness.now.timeIntervalSince1970)
            #expect(
                first.header("Momentum-Signature")
                    == WebhookSender.signature(body: first.body, secret: secret, at: timestamp))
            let mac = HMAC<SHA256>.authenticationCode(
                for: Array("\(timestamp).".utf8) + first.body, using: SymmetricKey(data: Array(secret.utf8)))
            #expect(
                first.header("Momentum-Signature") == "t=\(timestamp),v1="
                    + mac.map { String(format: "%02x", $0) }.joined())
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(first.body)) as? [String: Any])
            #expect(payload["type"] as? String == "notification")
            #expect(payload["attempt"] as? Int == 1)
            #expect((payload["notification"] as? [String: Any])?["key"] as? String == "milestone:first")

            // Backoff: not before 60 s, then 120 s; the third failure in a row disables it.
            advance(harness, 59)
            #expect(try await harness.state.runDueDeliveries().retried == 0)
            advance(harness, 1)
            #expect(try await harness.state.runDueDeliveries().retried == 1)
            advance(harness, 119)
            #expect(try await harness.state.runDueDeliveries().retried == 0)
            advance(harness, 1)
            #expect(try await harness.state.runDueDeliveries().retried == 1)
            #expect(receiver.requests.count == 3)
            #expect(
                receiver.requests.map { $0.header("Momentum-Delivery") }.allSatisfy {
                    $0 == receiver.requests[0].header("Momentum-Delivery")
                })
            let disabled = try await client.call(.get, "/v1/admin/webhooks", headers: admin)
            let status = try #require((disabled.json["webhooks"] as? [[String: Any]])?.first)
            #expect(status["status"] as? String == "disabled")
            #expect(status["consecutiveFailures"] as? Int == 3)
            // A status, never what the receiver answered.
            #expect(status["lastError"] as? String == "HTTP 500")
            #expect(status["disabledAt"] != nil)
            // Its pending delivery is dropped, not sent, while it is disabled.
            advance(harness, 240)
            #expect(try await harness.state.runDueDeliveries().dropped == 1)
            #expect(receiver.requests.count == 3)

            // Enabled again (failures forgotten), it receives what comes next.
            receiver.answer { _ in (204, "") }
            let enabled = try await client.call(.post, "/v1/admin/webhooks/\(id)/enable", headers: admin)
            #expect(enabled.json["status"] as? String == "active" && enabled.json["consecutiveFailures"] as? Int == 0)
            _ = try await notify(harness, "ada@example.com", key: "milestone:second")
            #expect(try await harness.state.runDueDeliveries().sent == 1)
            let healthy = try await client.call(.get, "/v1/admin/webhooks", headers: admin)
            #expect((healthy.json["webhooks"] as? [[String: Any]])?.first?["lastSuccessAt"] != nil)
            #expect(
                try await client.call(.post, "/v1/admin/webhooks/\(id)/disable", headers: admin).json["status"]
                    as? String == "disabled")
            #expect(try await client.call(.delete, "/v1/admin/webhooks/\(id)", headers: admin).status == .noContent)
            #expect(try await client.call(.delete, "/v1/admin/webhooks/\(id)", headers: admin).status == .notFound)
            // Without the admin token: refused.
            #expect(try await client.call(.get, "/v1/admin/webhooks").status == .unauthorized)
            let bad = try await client.call(
                .post, "/v1/admin/webhooks", json: #"{"url": "ftp://example.com"}"#, headers: admin)
            #expect(bad.status == .unprocessableContent && bad.errorFields == ["url"], "\(bad.text)")
        }
    }

    @Test func quietHoursTheDailyCapAndChannelsHoldBackDevicesNeverTheInbox() async throws {
        let receiver = try await LoopbackReceiver.start(.plain, answer: { _ in (200, "") })
        defer { Task { await receiver.stop() } }
        try await ServerHarness.with(configure: { $0.webhookAllowedNetworks = ["127.0.0.0/8", "::1"] }) {
            harness, client in
            let admin: HTTPFields = [.authorization: "Bearer mop_harness-owner"]
            _ = try await client.call(
                .post, "/v1/admin/webhooks", json: #"{"url": "\#(receiver.base)/in"}"#, headers: admin)
            let token = try await client.register("ada")
            let patched = try await client.call(
                .patch, "/v1/profile", token: token,
                json: #"{"notifications": {"quietHours": {"from": "22:00", "to": "07:00"}, "dailyCap": 2}}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            let saved = try #require(patched.json["notifications"] as? [String: Any])
            #expect((saved["quietHours"] as? [String: String]) == ["from": "22:00", "to": "07:00"])
            #expect(saved["dailyCap"] as? Int == 2)

            // 23:00 in Berlin (21:00 UTC in July): held until 07:00.
            harness.clock.value.withLock { $0 = Date(timeIntervalSince1970: 1_784_062_800) }  // 2026-07-14T21:00Z
            _ = try await notify(harness, "ada@example.com", key: "milestone:night")
            // One that no longer makes sense by morning is dropped.
            _ = try await notify(
                harness, "ada@example.com", key: "streak-at-risk:x", kind: .streakAtRisk, expiresIn: 3600)
            var pass = try await harness.state.runDueDeliveries()
            #expect(pass.deferred == 1 && pass.dropped == 1 && pass.sent == 0, "\(pass)")
            advance(harness, 8 * 3600 - 1)  // 06:59:59
            #expect(try await harness.state.runDueDeliveries().sent == 0)
            advance(harness, 1)  // 07:00
            #expect(try await harness.state.runDueDeliveries().sent == 1)

            // The cap: two a day on devices; the third waits for no one.
            _ = try await notify(harness, "ada@example.com", key: "milestone:a")
            _ = try await notify(harness, "ada@example.com", key: "milestone:b")
            pass = try await harness.state.runDueDeliveries()
            #expect(pass.sent == 1 && pass.dropped == 1, "\(pass)")
            #expect(receiver.requests.count == 2)

            // The next day the cap starts again; a channel turned off takes nothing, and
            // the change applies to what is already queued.
            advance(harness, 86_400)
            _ = try await notify(harness, "ada@example.com", key: "milestone:c")
            let off = try await client.call(
                .patch, "/v1/profile", token: token,
                json: #"{"notifications": {"channels": {"webhook": {"enabled": true, "kinds": ["reminder"]}}}}"#)
            #expect(off.status == .ok, "\(off.text)")
            pass = try await harness.state.runDueDeliveries()
            #expect(pass.dropped == 1 && pass.sent == 0, "\(pass)")
            let user = try #require(try await harness.state.store.account(email: "ada@example.com")).id
            #expect(
                try await harness.state.store.deliveries(of: user, key: "milestone:c").first?.outcome
                    == "turned off in the user's preferences")
            _ = try await notify(harness, "ada@example.com", key: "reminder:d", kind: .reminder)
            #expect(try await harness.state.runDueDeliveries().sent == 1)

            // The inbox has every one of them.
            let inbox = try await client.call(.get, "/v1/notifications", token: token)
            #expect((inbox.json["notifications"] as? [[String: Any]])?.count == 6, "\(inbox.text)")
            // Every outcome is counted by kind and channel; what the scheduler or a write
            // stores is counted as scheduled for each channel it is queued for (the
            // notifications above were stored directly).
            _ = try await client.call(.post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read"}"#)
            let checkIn = try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: "{}")
            #expect(checkIn.status == .ok, "\(checkIn.text)")
            // (Counted per instance: behind several, each request went to another.)
            let metrics = try await client.call(.get, "/metrics").text
            if ServerHarness.instances == 1 {
                #expect(
                    metrics.split(separator: "\n").contains {
                        $0.hasPrefix(
                            #"momentum_notifications_total{kind="milestone",channel="webhook",outcome="scheduled"} "#)
                            && !$0.hasSuffix(" 0")
                    }, "a milestone of a check-in was not counted as scheduled for the webhook")
                for (kind, outcome, count) in [
                    ("milestone", "sent", 2), ("milestone", "deferred", 1),
                    ("milestone", "dropped", 2), ("streak-at-risk", "dropped", 1), ("reminder", "sent", 1),
                ] {
                    let line =
                        #"momentum_notifications_total{kind="\#(kind)",channel="webhook",outcome="\#(outcome)"} \#(count)"#
                    #expect(metrics.contains(line), "\(line)")
                }
            }

            // Nonsense is refused, naming the field.
            for (json, field) in [
                (#"{"notifications": {"dailyCap": 0}}"#, "notifications.dailyCap"),
                (#"{"notifications": {"quietHours": {"from": "07:00", "to": "07:00"}}}"#, "notifications.quietHours"),
            ] {
                let refused = try await client.call(.patch, "/v1/profile", token: token, json: json)
                #expect(refused.status == .unprocessableContent && refused.errorFields == [field], "\(refused.text)")
            }
            let cleared = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"notifications": {"quietHours": null, "dailyCap": null}}"#
            )
            let now = try #require(cleared.json["notifications"] as? [String: Any])
            #expect(now["quietHours"] == nil && now["dailyCap"] == nil, "\(cleared.text)")
        }
    }

    @Test func registrationsAreCheckedWhereTheyComeIn() async throws {
        try await ServerHarness.with { harness, client in
            let ada = try await client.register("ada")
            let key = Tokens.base64URL([UInt8](P256.KeyAgreement.PrivateKey().publicKey.x963Representation))
            let auth = Tokens.base64URL((0..<16).map { UInt8($0) })
            func register(_ json: String, token: String = ada) async throws -> JSONResponse {
                try await client.call(.post, "/v1/push-targets", token: token, json: json)
            }
            for (json, field) in [
                (
                    #"{"channel": "webPush", "endpoint": "https://evil.example/x", "keys": {"p256dh": "\#(key)", "auth": "\#(auth)"}}"#,
                    "endpoint"
                ),
                (
                    #"{"channel": "webPush", "endpoint": "http://fcm.googleapis.com/x", "keys": {"p256dh": "\#(key)", "auth": "\#(auth)"}}"#,
                    "endpoint"
                ),
                (
                    #"{"channel": "webPush", "endpoint": "https://fcm.googleapis.com/x", "keys": {"p256dh": "AAAA", "auth": "\#(auth)"}}"#,
                    "keys.p256dh"
                ),
                (
                    #"{"channel": "webPush", "endpoint": "https://fcm.googleapis.com/x", "keys": {"p256dh": "\#(key)", "auth": "AAAA"}}"#,
                    "keys.auth"
                ),
                (#"{"channel": "webPush", "endpoint": "https://fcm.googleapis.com/x"}"#, "keys"),
                (#"{"channel": "apns", "token": "abcd"}"#, "channel"),
            ] {
                let refused = try await register(json)
                #expect(
                    refused.status == .unprocessableContent && refused.errorFields == [field],
                    "\(json) → \(refused.text)")
            }
            let good =
                #"{"channel": "webPush", "endpoint": "https://fcm.googleapis.com/fcm/send/abc", "keys": {"p256dh": "\#(key)", "auth": "\#(auth)"}}"#
            let created = try await register(good)
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.json["id"] as? String)
            // The same browser signs in to Bob's account: it is his now, no longer Ada's.
            let bob = try await client.register("bob")
            #expect(try await register(good, token: bob).status == .created)
            #expect(
                (try await client.call(.get, "/v1/push-targets", token: ada).json["targets"] as? [Any])?.isEmpty == true
            )
            // Ada cannot remove Bob's device: it is not hers.
            #expect(try await client.call(.delete, "/v1/push-targets/\(id)", token: ada).status == .notFound)
            #expect(try await client.call(.delete, "/v1/push-targets/\(id)", token: bob).status == .noContent)
            // At most 20 devices: the oldest goes.
            for index in 0..<21 {
                _ = try await register(
                    #"{"channel": "webPush", "endpoint": "https://fcm.googleapis.com/fcm/send/\#(index)", "keys": {"p256dh": "\#(key)", "auth": "\#(auth)"}}"#
                )
                advance(harness, 1)
            }
            let listed = try await client.call(.get, "/v1/push-targets", token: ada)
            #expect((listed.json["targets"] as? [Any])?.count == PushTargets.maximumPerUser)
        }
    }

    @Test func theRFC8291ExampleEncryptsToTheRFCsBytes() throws {
        // RFC 8291 section 5 and appendix A.
        func bytes(_ text: String) -> [UInt8] { WebPushCrypto.bytes(base64URL: text) ?? [] }
        let body = try WebPushCrypto.encrypt(
            bytes("V2hlbiBJIGdyb3cgdXAsIEkgd2FudCB0byBiZSBhIHdhdGVybWVsb24"),
            p256dh: bytes("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            auth: bytes("BTBZMqHH6r4Tts7J_aSIgg"),
            senderKey: try P256.KeyAgreement.PrivateKey(
                rawRepresentation: bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")),
            salt: bytes("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(
            Tokens.base64URL(body)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
        // The user agent's side reads it back.
        let plain = try WebPushCrypto.decrypt(
            body,
            receiverKey: try P256.KeyAgreement.PrivateKey(
                rawRepresentation: bytes("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")),
            auth: bytes("BTBZMqHH6r4Tts7J_aSIgg"))
        #expect(String(decoding: plain, as: UTF8.self) == "When I grow up, I want to be a watermelon")
        // Bad keys are refused, not trapped on.
        for p256dh in [[UInt8](), [UInt8](repeating: 4, count: 65), [UInt8](repeating: 0, count: 200)] {
            #expect(throws: WebPushCrypto.KeyError.self) {
                try WebPushCrypto.encrypt([1], p256dh: p256dh, auth: [UInt8](repeating: 0, count: 16))
            }
        }
        for garbage in [[UInt8](), [UInt8](repeating: 0, count: 21), [UInt8](repeating: 0xff, count: 200)] {
            #expect(throws: (any Error).self) {
                try WebPushCrypto.decrypt(garbage, receiverKey: P256.KeyAgreement.PrivateKey(), auth: [])
            }
        }
    }
}
