import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// Webhook events for app backends, end to end on both backends: a loopback receiver that
/// verifies the Standard Webhooks signature as a library would, a check-in that starts a
/// streak and unlocks a milestone, a day that closes undone, and a secret rotated with its
/// overlap, on a clock the test moves.
@Suite(.serialized) struct WebhookEventTests {
    static let admin: HTTPFields = [.authorization: "Bearer mop_harness-owner"]

    /// Sets the harness clock to a local time in Berlin (CEST in July: UTC+2).
    func set(_ harness: ServerHarness, day: Int, hour: Int, minute: Int = 0) {
        let utc = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "Europe/Berlin"), year: 2026,
            month: 7, day: day, hour: hour, minute: minute
        ).date!
        harness.clock.value.withLock { $0 = utc }
    }

    /// Verifies a request as the Standard Webhooks libraries do, written from the
    /// specification (not with the server's code): the key is the base64 after `whsec_`,
    /// the signed content `"<webhook-id>.<webhook-timestamp>.<body>"`, any of the
    /// space-separated `v1,<base64>` signatures may match, and the timestamp must be within
    /// five minutes of `now`.
    static func verifies(
        _ request: ReceivedRequest, secret: String, now: Date, body: [UInt8]? = nil, timestamp: String? = nil
    ) -> Bool {
        guard secret.hasPrefix("whsec_"), let key = Data(base64Encoded: String(secret.dropFirst(6))),
            let id = request.header("webhook-id"),
            let stamp = timestamp ?? request.header("webhook-timestamp"), let seconds = Int64(stamp),
            let signatures = request.header("webhook-signature")
        else { return false }
        guard abs(Double(seconds) - now.timeIntervalSince1970) <= 300 else { return false }
        let content = Array("\(id).\(stamp).".utf8) + (body ?? request.body)
        let expected = Data(HMAC<SHA256>.authenticationCode(for: content, using: SymmetricKey(data: key)))
        return signatures.split(separator: " ").contains { signature in
            let parts = signature.split(separator: ",", maxSplits: 1)
            guard parts.count == 2, parts[0] == "v1", let given = Data(base64Encoded: String(parts[1])) else {
                return false
            }
            return given == expected
        }
    }

    static func json(_ request: ReceivedRequest) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] ?? [:]
    }

    static func type(_ request: ReceivedRequest) -> String? { json(request)["type"] as? String }

    static func data(_ request: ReceivedRequest) -> [String: Any] { json(request)["data"] as? [String: Any] ?? [:] }

    @Test(arguments: ServerHarness.Backend.allCases)
    func eventsAreSignedTheStandardWayAndEachHappeningIsSentOnce(_ backend: ServerHarness.Backend) async throws {
        let receiver = try await LoopbackReceiver.start(.plain)
        defer { Task { await receiver.stop() } }
        try await ServerHarness.with(
            backend: backend, configure: { $0.webhookAllowedNetworks = ["127.0.0.0/8", "::1"] }
        ) { harness, client in
            set(harness, day: 9, hour: 8)
            let token = try await client.register("ada")
            let user = try #require(try await harness.state.store.account(email: "ada@example.com")).id
            let created = try await client.call(
                .post, "/v1/admin/webhooks",
                json:
                    #"{"url": "\#(receiver.base)/events", "events": ["streak.started", "streak.lost", "unlock.created"]}"#,
                headers: Self.admin)
            #expect(created.status == .created, "\(created.text)")
            let secret = try #require(created.json["secret"] as? String)
            // A Standard Webhooks secret: whsec_ and the base64 of 32 random bytes.
            #expect(secret.hasPrefix("whsec_"))
            #expect(Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
            #expect((created.json["events"] as? [String]) == ["streak.lost", "streak.started", "unlock.created"])
            // Made for events only: it takes no notification.
            #expect((created.json["kinds"] as? [String]) == [])

            let habit = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read", "policy": "strict"}"#)
            #expect(habit.status == .created, "\(habit.text)")
            // A scheduler run on the habit's first day: no closed day to look at, nothing sent.
            _ = try await harness.state.runDueNotifications()
            set(harness, day: 9, hour: 9)
            #expect(try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: "{}").status == .ok)
            #expect(try await harness.state.runDueDeliveries().sent >= 2)
            var requests = receiver.requests
            // Only events: the milestone's notification is not posted to this webhook.
            #expect(Set(requests.compactMap(Self.type)) == ["streak.started", "unlock.created"], "\(requests.count)")
            for request in requests {
                #expect(Self.verifies(request, secret: secret, now: harness.now))
                // A tampered body, or a timestamp from long ago, does not verify.
                #expect(!Self.verifies(request, secret: secret, now: harness.now, body: request.body + [0x20]))
                let old = String(Int64(harness.now.timeIntervalSince1970) - 600)
                #expect(!Self.verifies(request, secret: secret, now: harness.now, timestamp: old))
                #expect(!Self.verifies(request, secret: secret, now: harness.now.addingTimeInterval(600)))
                // The deprecated header is still there.
                #expect(request.header("Momentum-Signature")?.hasPrefix("t=") == true)
                #expect(request.header("webhook-id")?.hasPrefix("msg_") == true)
            }
            let started = try #require(requests.first { Self.type($0) == "streak.started" })
            #expect(Self.data(started)["user"] as? String == user)
            #expect(Self.data(started)["habit"] as? String == "read")
            #expect(Self.data(started)["habitName"] as? String == "Read")
            #expect(Self.data(started)["day"] as? String == "2026-07-09")
            #expect(Self.data(started)["streak"] as? Int == 1)
            #expect(Self.json(started)["timestamp"] as? String == "2026-07-09T07:00:00Z")
            let unlock = try #require(requests.first { Self.type($0) == "unlock.created" })
            #expect((Self.data(unlock)["unlock"] as? [String: Any])?["id"] != nil)

            // The next day's check-in continues the streak: nothing new starts.
            set(harness, day: 10, hour: 9)
            #expect(try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: "{}").status == .ok)
            _ = try await harness.state.runDueDeliveries()
            #expect(receiver.requests.filter { Self.type($0) == "streak.started" }.count == 1)

            // July 11 stays undone: when it closes, the streak of 2 is lost, once, however
            // many runs notice it.
            set(harness, day: 11, hour: 23, minute: 59)
            _ = try await harness.state.runDueNotifications()
            _ = try await harness.state.runDueDeliveries()
            #expect(receiver.requests.filter { Self.type($0) == "streak.lost" }.isEmpty)
            set(harness, day: 12, hour: 0, minute: 1)
            // Every instance's scheduler at once (several with MOMENTUM_TEST_INSTANCES).
            try await withThrowingTaskGroup(of: Void.self) { group in
                for state in [harness.state] + harness.others {
                    group.addTask { _ = try await state.runDueNotifications() }
                }
                try await group.waitForAll()
            }
            try await harness.state.store.touchNotifications(of: [user], at: harness.now)
            _ = try await harness.state.runDueNotifications()
            _ = try await harness.state.runDueDeliveries()
            set(harness, day: 12, hour: 9)
            try await harness.state.store.touchNotifications(of: [user], at: harness.now)
            _ = try await harness.state.runDueNotifications()
            _ = try await harness.state.runDueDeliveries()
            requests = receiver.requests.filter { Self.type($0) == "streak.lost" }
            #expect(requests.count == 1, "\(receiver.requests.compactMap(Self.type))")
            let lost = try #require(requests.first)
            // Sent by the first run after the close, at 00:01.
            #expect(lost.header("webhook-timestamp") == "1783807260")
            #expect(Self.verifies(lost, secret: secret, now: Date(timeIntervalSince1970: 1_783_807_260)))
            #expect(Self.data(lost)["day"] as? String == "2026-07-11")
            #expect(Self.data(lost)["streak"] as? Int == 2)
            // When the day closed: midnight in Berlin.
            #expect(Self.json(lost)["timestamp"] as? String == "2026-07-11T22:00:00Z")
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aRotatedSecretSignsBesideTheOldOneOnlyDuringTheOverlap(_ backend: ServerHarness.Backend) async throws {
        let receiver = try await LoopbackReceiver.start(.plain)
        defer { Task { await receiver.stop() } }
        try await ServerHarness.with(
            backend: backend, configure: { $0.webhookAllowedNetworks = ["127.0.0.0/8", "::1"] }
        ) { harness, client in
            set(harness, day: 9, hour: 8)
            let token = try await client.register("ada")
            let created = try await client.call(
                .post, "/v1/admin/webhooks",
                json: #"{"url": "\#(receiver.base)/events", "events": ["streak.started"]}"#,
                headers: Self.admin)
            let id = try #require(created.json["id"] as? String)
            let old = try #require(created.json["secret"] as? String)
            _ = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read", "policy": "strict"}"#)
            _ = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "walk", "name": "Walk", "policy": "strict"}"#)
            _ = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "code", "name": "Code", "policy": "strict"}"#)

            // Refusals: an overlap out of bounds, an unknown field, no admin token, no webhook.
            let long = try await client.call(
                .post, "/v1/admin/webhooks/\(id)/rotate-secret", json: #"{"overlapSeconds": 604801}"#,
                headers: Self.admin)
            #expect(long.status == .badRequest || long.status == .unprocessableContent, "\(long.text)")
            let unknown = try await client.call(
                .post, "/v1/admin/webhooks/\(id)/rotate-secret", json: #"{"overlap": 60}"#, headers: Self.admin)
            #expect(unknown.status == .unprocessableContent, "\(unknown.text)")
            #expect(try await client.call(.post, "/v1/admin/webhooks/\(id)/rotate-secret").status == .unauthorized)
            #expect(
                try await client.call(.post, "/v1/admin/webhooks/wh_none/rotate-secret", headers: Self.admin).status
                    == .notFound)
            // Nothing changed by the refusals: the old secret alone signs.
            let listed = try await client.call(.get, "/v1/admin/webhooks", headers: Self.admin)
            #expect((listed.json["webhooks"] as? [[String: Any]])?.first?["previousSecretExpiresAt"] == nil)

            // Rotated with an hour's overlap: the new secret is answered once.
            let rotated = try await client.call(
                .post, "/v1/admin/webhooks/\(id)/rotate-secret", json: #"{"overlapSeconds": 3600}"#,
                headers: Self.admin)
            #expect(rotated.status == .ok, "\(rotated.text)")
            let new = try #require(rotated.json["secret"] as? String)
            #expect(new != old && new.hasPrefix("whsec_"))
            #expect(rotated.json["previousSecretExpiresAt"] as? String == "2026-07-09T07:00:00Z")
            let again = try await client.call(.get, "/v1/admin/webhooks", headers: Self.admin)
            #expect((again.json["webhooks"] as? [[String: Any]])?.first?["secret"] == nil)

            // During the overlap, to its last second: both verify.
            set(harness, day: 9, hour: 8, minute: 59)
            harness.clock.value.withLock { $0 += 59 }
            _ = try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: "{}")
            #expect(try await harness.state.runDueDeliveries().sent == 1)
            let during = try #require(receiver.requests.last)
            #expect(during.header("webhook-signature")?.split(separator: " ").count == 2)
            #expect(Self.verifies(during, secret: new, now: harness.now))
            #expect(Self.verifies(during, secret: old, now: harness.now))

            // At the end of the overlap: only the new one.
            set(harness, day: 9, hour: 9)
            _ = try await client.call(.post, "/v1/habits/walk/check-ins", token: token, json: "{}")
            #expect(try await harness.state.runDueDeliveries().sent == 1)
            let after = try #require(receiver.requests.last)
            #expect(after.header("webhook-signature")?.split(separator: " ").count == 1)
            #expect(Self.verifies(after, secret: new, now: harness.now))
            #expect(!Self.verifies(after, secret: old, now: harness.now))
            let listedAfter = try await client.call(.get, "/v1/admin/webhooks", headers: Self.admin)
            #expect((listedAfter.json["webhooks"] as? [[String: Any]])?.first?["previousSecretExpiresAt"] == nil)

            // Rotated with no overlap: the old secret stops at once.
            let now = try await client.call(
                .post, "/v1/admin/webhooks/\(id)/rotate-secret", json: #"{"overlapSeconds": 0}"#, headers: Self.admin)
            let newest = try #require(now.json["secret"] as? String)
            _ = try await client.call(.post, "/v1/habits/code/check-ins", token: token, json: "{}")
            #expect(try await harness.state.runDueDeliveries().sent == 1)
            let last = try #require(receiver.requests.last)
            #expect(Self.verifies(last, secret: newest, now: harness.now))
            #expect(!Self.verifies(last, secret: new, now: harness.now))

            // The same verdicts from the standardwebhooks package (PyPI), which no one here wrote.
            let duringAt = Double(during.header("webhook-timestamp") ?? "") ?? 0
            let afterAt = Double(after.header("webhook-timestamp") ?? "") ?? 0
            let verdicts = try Self.library([
                Self.libraryCase("new secret during the overlap", during, secret: new, now: duringAt, valid: true),
                Self.libraryCase("old secret during the overlap", during, secret: old, now: duringAt, valid: true),
                Self.libraryCase("new secret after the overlap", after, secret: new, now: afterAt, valid: true),
                Self.libraryCase("old secret after the overlap", after, secret: old, now: afterAt, valid: false),
                Self.libraryCase(
                    "a tampered body", after, secret: new, now: afterAt, valid: false, body: "{\"type\":\"x\"}"),
                Self.libraryCase("a timestamp 10 minutes old", after, secret: new, now: afterAt + 600, valid: false),
            ])
            #expect(verdicts.status == 0, "\(verdicts.output)")
            #expect(verdicts.output.components(separatedBy: "ok: ").count == 7, "\(verdicts.output)")
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func purchasesReviewFlagsAndFreezesReachTheBackend(_ backend: ServerHarness.Backend) async throws {
        let receiver = try await LoopbackReceiver.start(.plain)
        defer { Task { await receiver.stop() } }
        try await ServerHarness.with(
            backend: backend, configure: { $0.webhookAllowedNetworks = ["127.0.0.0/8", "::1"] }
        ) { harness, client in
            let created = try await client.call(
                .post, "/v1/admin/webhooks",
                json:
                    #"{"url": "\#(receiver.base)/events", "events": ["purchase.created", "review_flag.raised", "streak.frozen"]}"#,
                headers: Self.admin)
            #expect(created.status == .created, "\(created.text)")
            let secret = try #require(created.json["secret"] as? String)
            // Given thirteen days of "Walk" sent at once (backfilled: a review flag), …
            let token = try await harness.register("buyer", zone: "UTC", daysAgo: 14, client: client)
            let start = harness.now.addingTimeInterval(-13 * 86_400)
            var events = [habitCreated("walk", at: start)]
            for day in 0...12 {
                events.append(
                    completion(
                        "w\(day)", habit: "walk", at: start.addingTimeInterval(Double(day) * 86_400 + 60), zone: "UTC"))
            }
            _ = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            // … a freeze bought with the diamonds they earned, …
            let bought = try await client.call(
                .post, "/v1/store/purchases", token: token, json: #"{"days": 1, "eventId": "buy-1"}"#)
            #expect(bought.status == .created, "\(bought.text)")
            _ = try await harness.state.runDueDeliveries()
            let flag = try #require(receiver.requests.first { Self.type($0) == "review_flag.raised" })
            #expect((Self.data(flag)["flag"] as? [String: Any])?["kind"] as? String == "backfills")
            let purchase = try #require(receiver.requests.first { Self.type($0) == "purchase.created" })
            let bought1 = try #require(Self.data(purchase)["purchase"] as? [String: Any])
            #expect(bought1["event"] as? String == "buy-1")
            #expect(bought1["days"] as? Int == 1)
            #expect(bought1["freezes"] as? Int == 1)
            #expect(Self.verifies(purchase, secret: secret, now: harness.now))

            // … then two days missed: the first is grace, the freeze covers the second, which
            // the scheduler notices once its day has closed.
            harness.clock.value.withLock { $0 += 2 * 86_400 + 1800 }
            let user = try #require(try await harness.state.store.account(email: "buyer@example.com")).id
            for _ in 0..<2 {
                try await harness.state.store.touchNotifications(of: [user], at: harness.now)
                _ = try await harness.state.runDueNotifications()
                _ = try await harness.state.runDueDeliveries()
            }
            let frozen = receiver.requests.filter { Self.type($0) == "streak.frozen" }
            #expect(frozen.count == 1, "\(receiver.requests.compactMap(Self.type))")
            #expect(frozen.first.map { Self.data($0)["habit"] as? String } == "walk")
            #expect((frozen.first.map { Self.data($0)["streak"] as? Int } ?? 0) ?? 0 >= 12)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func eventsOfAUserMadeWithAServerKeyCarryTheAppsOwnId(_ backend: ServerHarness.Backend) async throws {
        let receiver = try await LoopbackReceiver.start(.plain)
        defer { Task { await receiver.stop() } }
        try await ServerHarness.with(
            backend: backend, configure: { $0.webhookAllowedNetworks = ["127.0.0.0/8", "::1"] }
        ) { harness, client in
            set(harness, day: 9, hour: 9)
            _ = try await client.call(
                .post, "/v1/admin/webhooks",
                json: #"{"url": "\#(receiver.base)/events", "events": ["streak.started"]}"#,
                headers: Self.admin)
            let key = try #require(
                try await client.call(
                    .post, "/v1/admin/server-keys", json: #"{"name": "backend", "scopes": ["events:write"]}"#,
                    headers: Self.admin
                ).json["key"] as? String)
            let now = harness.now
            let body =
                #"{"timeZone": "Europe/Berlin", "events": [\#(habitCreated("walk", at: now.addingTimeInterval(-60))), \#(completion("w1", habit: "walk", at: now))]}"#
            let recorded = try await client.call(
                .post, "/v1/server/users/app-user-42/events", json: body, headers: [.authorization: "Bearer \(key)"])
            #expect(recorded.status == .ok, "\(recorded.text)")
            _ = try await harness.state.runDueDeliveries()
            let started = try #require(receiver.requests.first { Self.type($0) == "streak.started" })
            #expect(Self.data(started)["appUserId"] as? String == "app-user-42")
            #expect(Self.data(started)["user"] as? String == recorded.json["userID"] as? String)
        }
    }

    /// A case for Tests/Webhooks/verify_standard_webhooks.py.
    static func libraryCase(
        _ name: String, _ request: ReceivedRequest, secret: String, now: Double, valid: Bool, body: String? = nil
    ) -> [String: Any] {
        [
            "name": name, "secret": secret, "now": now, "valid": valid,
            "body": body ?? String(decoding: request.body, as: UTF8.self),
            "headers": [
                "webhook-id": request.header("webhook-id") ?? "",
                "webhook-timestamp": request.header("webhook-timestamp") ?? "",
                "webhook-signature": request.header("webhook-signature") ?? "",
            ],
        ]
    }

    /// Runs the standardwebhooks package over `cases` in the virtual environment
    /// (.build-python, made by Scripts/install-test-dependencies): its exit status and output.
    /// A missing environment or package is a failure, not a skip.
    static func library(_ cases: [[String: Any]]) throws -> (status: Int32, output: String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = FileManager.default.temporaryDirectory.appending(path: "webhook-cases-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: ["now": 0, "cases": cases]).write(to: file)
        let python = root.appending(path: ".build-python/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            return (127, "\(python.path) is missing: run Scripts/install-test-dependencies")
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [root.appending(path: "Tests/Webhooks/verify_standard_webhooks.py").path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
