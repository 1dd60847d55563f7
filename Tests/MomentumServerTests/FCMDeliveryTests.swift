import Foundation
import JWTKit
import MomentumCore
import MomentumStore
import Synchronization
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// Android push through Firebase Cloud Messaging (HTTP v1), end to end: one loopback
/// receiver over TLS plays both Google's OAuth2 token endpoint (it checks the service
/// account's JWT and hands out access tokens) and FCM (it checks the bearer token and reads
/// the message); a clock the test moves.
@Suite(.serialized) struct FCMDeliveryTests {
    /// A Firebase service account: an RSA key made by the installed `openssl`, PKCS#8 as the
    /// Firebase console hands it out.
    struct ServiceAccount {
        let keyPEM: String
        let publicKey: Insecure.RSA.PublicKey

        static func make() throws -> ServiceAccount {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let pem = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw ReceiverError("openssl could not make an RSA key (status \(process.terminationStatus))")
            }
            return ServiceAccount(keyPEM: pem, publicKey: try Insecure.RSA.PrivateKey(pem: pem).publicKey)
        }

        func configuration(_ receiver: LoopbackReceiver) -> FCMConfiguration {
            FCMConfiguration(
                projectID: "momentum-demo", clientEmail: "push@momentum-demo.iam.gserviceaccount.com",
                privateKeyPEM: keyPEM, privateKeyID: "0123456789abcdef", tokenURI: receiver.base + "/token",
                url: receiver.base)
        }
    }

    /// The service account's assertion, as Google reads it.
    struct AssertionClaims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var scope: String
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// What the fake Google has handed out and what it still honours.
    final class Google: Sendable {
        let issued = Mutex<[String]>([])
        let revoked = Mutex<Set<String>>([])
        /// FCM's answer to a send that carries a valid token, by registration token.
        let answers = Mutex<[String: (Int, String)]>([:])

        static let sendPath = "/v1/projects/momentum-demo/messages:send"

        func answer(_ request: ReceivedRequest) -> (status: Int, body: String) {
            if request.path == "/token" {
                let token = issued.withLock { issued in
                    issued.append("ya29.token-\(issued.count + 1)")
                    return issued.last!
                }
                return (200, #"{"access_token": "\#(token)", "expires_in": 3599, "token_type": "Bearer"}"#)
            }
            guard request.path == Self.sendPath else { return (404, "") }
            let bearer = request.header("authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
            guard issued.withLock({ $0.contains(bearer) }), !revoked.withLock({ $0.contains(bearer) }) else {
                return (401, #"{"error": {"code": 401, "status": "UNAUTHENTICATED"}}"#)
            }
            let device = (Self.message(request)?["token"] as? String) ?? ""
            return answers.withLock { $0[device] } ?? (200, #"{"name": "projects/momentum-demo/messages/1"}"#)
        }

        /// The `message` of a send.
        static func message(_ request: ReceivedRequest) -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["message"]
                as? [String: Any]
        }
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

    /// An Android registration token, as FirebaseMessaging hands them out.
    static func device(_ n: Int) -> String {
        "d\(n)Xk9QpRz:APA91bF" + String(repeating: "Ab_9-", count: 26) + "\(n)"
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func messagesGoWithAnAccessTokenFromTheServiceAccountsSignedJWT(
        _ backend: ServerHarness.Backend
    )
        async throws
    {
        let certificate = try LoopbackCertificate.make()
        let google = Google()
        let receiver = try await LoopbackReceiver.start(.tls(certificate), answer: google.answer)
        defer { Task { await receiver.stop() } }
        let account = try ServiceAccount.make()
        try await ServerHarness.with(
            backend: backend,
            configure: {
                $0.fcm = account.configuration(receiver)
                $0.deliveryTrustRootsPEM = certificate.certificatePEM
            }
        ) { harness, client in
            let token = try await client.register("ada")
            let devices = (1...3).map(Self.device)
            for device in devices {
                let registered = try await client.call(
                    .post, "/v1/push-targets", token: token, json: #"{"channel": "fcm", "token": "\#(device)"}"#)
                #expect(registered.status == .created, "\(registered.text)")
                #expect(registered.json["label"] as? String == "…" + device.suffix(8))
                #expect(registered.json["channel"] as? String == "fcm")
            }
            let listed = try await client.call(.get, "/v1/push-targets", token: token)
            #expect(listed.json["fcm"] as? Bool == true && listed.json["apns"] as? Bool == false)
            // The web app's profile names them as Android devices.
            let page = try await client.call(.get, "/profile", headers: [.cookie: "momentum_session=\(token)"])
            #expect(page.text.components(separatedBy: "Android phone or tablet").count == 4, "\(page.text)")

            // Three devices at once: one token exchange, shared by the three sends.
            let sent = try await notify(harness, "ada@example.com", key: "milestone:first")
            #expect(try await harness.state.runDueDeliveries().sent == 3)
            let exchanges = receiver.requests.filter { $0.path == "/token" }
            #expect(exchanges.count == 1)
            let exchange = try #require(exchanges.first)
            #expect(exchange.header("content-type") == "application/x-www-form-urlencoded")
            let form = Dictionary(
                String(decoding: exchange.body, as: UTF8.self).split(separator: "&").map {
                    let pair = $0.split(separator: "=", maxSplits: 1)
                    return (String(pair[0]), String(pair.count > 1 ? pair[1] : "").removingPercentEncoding ?? "")
                }, uniquingKeysWith: { first, _ in first })
            #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
            let assertion = try #require(form["assertion"])
            // The JWT: RS256 with the service account's key, its id in the header.
            let keys = await JWTKeyCollection().add(rsa: account.publicKey, digestAlgorithm: .sha256)
            let claims = try await keys.verify(assertion, as: AssertionClaims.self)
            let header = try JSONDecoder().decode(
                JWTHeader.self,
                from: Data(WebPushCrypto.bytes(base64URL: String(assertion.split(separator: ".")[0])) ?? []))
            #expect(header.alg == "RS256" && header.kid == "0123456789abcdef")
            #expect(claims.iss.value == "push@momentum-demo.iam.gserviceaccount.com")
            #expect(claims.sub.value == "push@momentum-demo.iam.gserviceaccount.com")
            #expect(claims.aud.value == [receiver.base + "/token"])
            #expect(claims.scope == "https://www.googleapis.com/auth/firebase.messaging")
            let issued = Date(timeIntervalSince1970: harness.now.timeIntervalSince1970.rounded(.down))
            #expect(claims.iat.value == issued && claims.exp.value == issued.addingTimeInterval(3600))
            // Signed with another key, it would not verify.
            let stranger = await JWTKeyCollection().add(
                rsa: try ServiceAccount.make().publicKey, digestAlgorithm: .sha256)
            await #expect(throws: (any Error).self) {
                _ = try await stranger.verify(assertion, as: AssertionClaims.self)
            }

            // The sends: the bearer token just issued, and the message's every field.
            let sends = receiver.requests.filter { $0.path == Google.sendPath }
            #expect(sends.count == 3)
            #expect(sends.allSatisfy { $0.header("authorization") == "Bearer ya29.token-1" })
            #expect(Set(sends.compactMap { Google.message($0)?["token"] as? String }) == Set(devices))
            let message = try #require(sends.first.flatMap(Google.message))
            #expect((message["notification"] as? [String: String]) == ["title": sent.title, "body": sent.body])
            #expect(
                (message["data"] as? [String: String])
                    == ["url": "/habits/read", "kind": "milestone", "key": "milestone:first"])
            let android = try #require(message["android"] as? [String: Any])
            #expect(android["priority"] as? String == "high")
            #expect(android["ttl"] as? String == "604800s")
            #expect(android["collapse_key"] == nil)
            #expect((android["notification"] as? [String: String]) == ["tag": "milestone:first"])

            // A reminder can wait for the device to wake, and lives until its expiry; a streak
            // at risk cannot, and replaces an older warning.
            _ = try await notify(harness, "ada@example.com", key: "reminder:1", kind: .reminder, expiresIn: 3 * 3600)
            _ = try await notify(harness, "ada@example.com", key: "risk:1", kind: .streakAtRisk, expiresIn: 5400)
            #expect(try await harness.state.runDueDeliveries().sent == 6)
            let androids = receiver.requests.filter { $0.path == Google.sendPath }.dropFirst(3).compactMap {
                Google.message($0).flatMap { $0["android"] as? [String: Any] }
            }
            let reminder = androids.filter { $0["priority"] as? String == "normal" }
            let risk = androids.filter { $0["priority"] as? String == "high" }
            #expect(reminder.count == 3 && reminder.allSatisfy { $0["ttl"] as? String == "10800s" })
            #expect(reminder.allSatisfy { $0["collapse_key"] == nil })
            #expect(risk.count == 3 && risk.allSatisfy { $0["ttl"] as? String == "5400s" })
            #expect(risk.allSatisfy { $0["collapse_key"] as? String == "streak-at-risk" })
            #expect(google.issued.withLock { $0.count } == 1, "the token is cached")

            // Until a minute before it expires (3599 s), the same token; then a new exchange.
            advance(harness, 3599 - 61)
            _ = try await notify(harness, "ada@example.com", key: "milestone:2")
            #expect(try await harness.state.runDueDeliveries().sent == 3)
            #expect(google.issued.withLock { $0.count } == 1)
            advance(harness, 2)
            _ = try await notify(harness, "ada@example.com", key: "milestone:3")
            #expect(try await harness.state.runDueDeliveries().sent == 3)
            #expect(google.issued.withLock { $0 } == ["ya29.token-1", "ya29.token-2"])
            #expect(receiver.requests.last?.header("authorization") == "Bearer ya29.token-2")

            // FCM refuses the cached token (revoked early): one new exchange, and the sends go.
            _ = google.revoked.withLock { $0.insert("ya29.token-2") }
            _ = try await notify(harness, "ada@example.com", key: "milestone:4")
            #expect(try await harness.state.runDueDeliveries().sent == 3)
            #expect(google.issued.withLock { $0.count } == 3)
            #expect(receiver.requests.last?.header("authorization") == "Bearer ya29.token-3")

            // A token refused again after its refresh: the send waits for the queue's retry,
            // after one new exchange only.
            google.revoked.withLock { $0.formUnion(["ya29.token-3", "ya29.token-4"]) }
            _ = try await notify(harness, "ada@example.com", key: "milestone:5")
            #expect(try await harness.state.runDueDeliveries().retried == 3)
            #expect(google.issued.withLock { $0.count } == 4)

            // Counted under the channel fcm (per instance: behind several, each pass ran on one).
            if ServerHarness.instances == 1 {
                let metrics = try await client.call(.get, "/metrics").text
                for outcome in ["sent", "retried"] {
                    let prefix = #"momentum_notifications_total{kind="milestone",channel="fcm",outcome="\#(outcome)"} "#
                    #expect(
                        metrics.split(separator: "\n").contains { $0.hasPrefix(prefix) && !$0.hasSuffix(" 0") },
                        "\(prefix)")
                }
            }
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func unregisteredTokensAreRemovedAndFailuresRetriedOrGivenUp(_ backend: ServerHarness.Backend) async throws {
        let certificate = try LoopbackCertificate.make()
        let google = Google()
        let receiver = try await LoopbackReceiver.start(.tls(certificate), answer: google.answer)
        defer { Task { await receiver.stop() } }
        let account = try ServiceAccount.make()
        try await ServerHarness.with(
            backend: backend,
            configure: {
                $0.fcm = account.configuration(receiver)
                $0.deliveryTrustRootsPEM = certificate.certificatePEM
            }
        ) { harness, client in
            let token = try await client.register("ada")
            let (gone, invalid, kept) = (Self.device(1), Self.device(2), Self.device(3))
            for device in [gone, invalid, kept] {
                let registered = try await client.call(
                    .post, "/v1/push-targets", token: token, json: #"{"channel": "fcm", "token": "\#(device)"}"#)
                #expect(registered.status == .created, "\(registered.text)")
            }
            google.answers.withLock {
                $0[gone] = (
                    404,
                    #"{"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}}"#
                )
                $0[invalid] = (
                    400,
                    #"{"error": {"code": 400, "message": "The registration token is not a valid FCM registration token", "status": "INVALID_ARGUMENT", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"}, {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [{"field": "message.token", "description": "Invalid registration token"}]}]}}"#
                )
            }
            _ = try await notify(harness, "ada@example.com", key: "milestone:first")
            let pass = try await harness.state.runDueDeliveries()
            #expect(pass.sent == 1 && pass.dropped == 2, "\(pass)")
            let listed = try await client.call(.get, "/v1/push-targets", token: token)
            let left = (listed.json["targets"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(left == [PushTargets.id(.fcm, kept)])

            // 503: tried again after the queue's backoff.
            google.answers.withLock {
                $0[kept] = (503, #"{"error": {"code": 503, "status": "UNAVAILABLE"}}"#)
            }
            let retried = try await notify(harness, "ada@example.com", key: "milestone:second")
            #expect(try await harness.state.runDueDeliveries().retried == 1)
            google.answers.withLock { $0[kept] = nil }
            advance(harness, 31)
            #expect(try await harness.state.runDueDeliveries().sent == 1)
            let user = try #require(try await harness.state.store.account(email: "ada@example.com")).id
            #expect(try await harness.state.store.deliveries(of: user, key: retried.key).map(\.state) == ["sent"])

            // A message FCM will never take (400 about the message, not the token) is final;
            // the device stays.
            google.answers.withLock {
                $0[kept] = (
                    400,
                    #"{"error": {"code": 400, "message": "Message is too big", "status": "INVALID_ARGUMENT", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"}]}}"#
                )
            }
            _ = try await notify(harness, "ada@example.com", key: "milestone:third")
            #expect(try await harness.state.runDueDeliveries().failed == 1)
            let states = try await harness.state.store.deliveries(of: user, key: "milestone:third")
            #expect(states.first?.outcome == "HTTP 400: INVALID_ARGUMENT")
            let still = try await client.call(.get, "/v1/push-targets", token: token)
            #expect((still.json["targets"] as? [[String: Any]])?.count == 1)
        }
    }
}
