import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumCore
import MomentumSQLite
import MomentumStore
import Synchronization
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

@Suite struct AccountRouteTests {
    @Test func tokenHashIsTheLowercaseHexSHA256StoredSessionsUse() {
        // FIPS 180-2's "abc" example; stored sessions keep this exact form.
        #expect(Tokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Tokens.hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let (token, hash) = Tokens.make(user: "u_test")
        #expect(Tokens.hash(token) == hash)
        #expect(Tokens.deviceID(hash).count == 16)
    }

    @Test func idsAreTwentyRandomBase32Characters() {
        let alphabet = Set("abcdefghijkmnpqrstuvwxyz23456789")
        let ids = (0..<2_000).map { _ in Tokens.id("e_") }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.hasPrefix("e_") && id.count == 22)
            #expect(id.dropFirst(2).allSatisfy(alphabet.contains))
        }
        // Every position draws on the whole alphabet (both random words are used).
        for position in 2..<22 {
            let seen = Set(ids.map { Array($0)[position] })
            #expect(seen == alphabet, "position \(position)")
        }
    }

    @Test func bearerTokensAreReadFromTheAuthorizationHeader() {
        #expect(AuthMiddleware.bearerToken("Bearer u_a.xyz") == "u_a.xyz")
        #expect(AuthMiddleware.bearerToken("bearer u_a.xyz") == "u_a.xyz")
        #expect(AuthMiddleware.bearerToken("BEARER   u_a.xyz \t") == "u_a.xyz")
        for refused in [
            "Basic dXNlcg==", "Bearer", "Bearer ", "Bearer    ", "Bearerx u_a.xyz", "Beare u_a", "", "Bearer\tx",
        ] {
            #expect(AuthMiddleware.bearerToken(refused) == nil, "\(refused)")
        }
    }

    @Test func registerSignInListAndRevokeDevices() async throws {
        try await ServerHarness.with { _, client in
            let first = try await client.register("ada")
            #expect(first.hasPrefix("u_"))

            let duplicate = try await client.call(
                .post, "/v1/accounts",
                json: #"{"email": "ADA@example.com", "password": "another one", "displayName": "Ada"}"#)
            #expect(duplicate.status == .conflict)
            #expect(duplicate.errorCode == "email_taken")

            let wrong = try await client.call(
                .post, "/v1/sessions", json: #"{"email": "ada@example.com", "password": "wrong password"}"#)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.errorCode == "invalid_credentials")
            let unknown = try await client.call(
                .post, "/v1/sessions", json: #"{"email": "nobody@example.com", "password": "whatever1"}"#)
            #expect(unknown.status == .unauthorized)

            let laptop = try await client.call(
                .post, "/v1/sessions",
                json: #"{"email": "ada@example.com", "password": "correct horse", "deviceName": "laptop"}"#)
            #expect(laptop.status == .created)
            let second = try #require(laptop.json["token"] as? String)

            let devices = try await client.call(.get, "/v1/devices", token: first)
            let list = try #require(devices.json["devices"] as? [[String: Any]])
            #expect(list.count == 2)
            #expect(Set(list.compactMap { $0["name"] as? String }) == ["phone", "laptop"])
            let other = try #require(list.first { $0["current"] as? Bool == false }?["id"] as? String)

            #expect(try await client.call(.delete, "/v1/devices/\(other)", token: first).status == .noContent)
            #expect(try await client.call(.get, "/v1/today", token: second).status == .unauthorized)
            #expect(try await client.call(.delete, "/v1/devices/ffffffffffffffff", token: first).status == .notFound)

            #expect(try await client.call(.delete, "/v1/sessions/current", token: first).status == .noContent)
            let after = try await client.call(.get, "/v1/today", token: first)
            #expect(after.status == .unauthorized)
            #expect(after.errorCode == "unauthorized")
        }
    }

    @Test func registrationReportsEveryBadField() async throws {
        try await ServerHarness.with { _, client in
            let bad = try await client.call(
                .post, "/v1/accounts", json: #"{"email": "not-an-email", "password": "short", "displayName": "X"}"#)
            #expect(bad.status == .unprocessableContent)
            #expect(Set(bad.errorFields) == ["email", "password"])

            let zone = try await client.call(
                .post, "/v1/accounts",
                json:
                    #"{"email": "z@example.com", "password": "long enough", "displayName": "Z", "timeZone": "Mars/Olympus"}"#
            )
            #expect(zone.status == .unprocessableContent)
            #expect(zone.errorFields == ["timeZone"])
            let issues = (zone.json["error"] as? [String: Any])?["details"] as? [[String: Any]]
            #expect(issues?.first?["issue"] as? String == "'Mars/Olympus' is not an IANA time zone")
            // Every field at fault at once; no issue repeats its field's name.
            let everything = try await client.call(
                .post, "/v1/accounts", json: #"{"email": "e", "password": "short", "displayName": " "}"#)
            #expect(everything.errorFields == ["email", "password", "displayName"])
            #expect(
                (everything.json["error"] as? [String: Any])?["message"] as? String
                    == "email is not an email address; password must be 8 to 72 characters long (accents and emoji count as more than one); displayName must have 1 to 100 characters"
            )

            let missing = try await client.call(.post, "/v1/accounts", json: #"{"email": "m@example.com"}"#)
            #expect(missing.status == .unprocessableContent)
            // The first missing field in the contract's order (its fields are sorted).
            #expect(missing.errorFields == ["displayName"])

            let malformed = try await client.call(.post, "/v1/accounts", json: #"{"email": "#)
            #expect(malformed.status == .badRequest)
            #expect(malformed.errorCode == "invalid_json")

            let wrongType = try await client.call(
                .post, "/v1/accounts", json: #"{"email": 42, "password": "long enough", "displayName": "Q"}"#)
            #expect(wrongType.status == .unprocessableContent)
            #expect(wrongType.errorFields == ["email"])
        }
    }

    @Test func profileReadsAndUpdatesWithValidation() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("grace")
            let profile = try await client.call(.get, "/v1/profile", token: token)
            #expect(profile.json["timeZone"] as? String == "Europe/Berlin")
            #expect(profile.json["celebrationStyle"] as? String == "full")

            let updated = try await client.call(
                .patch, "/v1/profile", token: token,
                json:
                    #"{"reduceMotion": true, "celebrationStyle": "subtle", "dayStartHour": 4, "notifications": {"reminders": false, "reminderHour": 20}}"#
            )
            #expect(updated.status == .ok, "\(updated.text)")
            #expect(updated.json["reduceMotion"] as? Bool == true)
            #expect(updated.json["dayStartHour"] as? Int == 4)
            #expect((updated.json["notifications"] as? [String: Any])?["reminderHour"] as? Int == 20)

            let bad = try await client.call(.patch, "/v1/profile", token: token, json: #"{"dayStartHour": 30}"#)
            #expect(bad.status == .unprocessableContent)
            #expect(bad.errorFields == ["dayStartHour"])
            let pack = try await client.call(.patch, "/v1/profile", token: token, json: #"{"pack": "nope"}"#)
            #expect(pack.errorCode == "unknown_pack")
            let kept = try await client.call(.get, "/v1/profile", token: token)
            #expect(kept.json["dayStartHour"] as? Int == 4)

            // A patch of one notification preference keeps the others.
            let weekly = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"notifications": {"weeklySummary": true}}"#)
            let notifications = try #require(weekly.json["notifications"] as? [String: Any])
            #expect(notifications["weeklySummary"] as? Bool == true)
            #expect(notifications["reminders"] as? Bool == false)
            #expect(notifications["reminderHour"] as? Int == 20)
            let cleared = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"notifications": {"reminderHour": null}}"#)
            #expect((cleared.json["notifications"] as? [String: Any])?["reminderHour"] == nil)
            #expect((cleared.json["notifications"] as? [String: Any])?["weeklySummary"] as? Bool == true)
        }
    }

    /// A field the endpoint does not know is refused, not dropped: a misspelt `timezone`
    /// would otherwise answer 200 and change nothing.
    @Test func unknownFieldsAndValuesAreNamed() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("ursula")
            let misspelt = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"timezone": "Europe/Paris"}"#)
            #expect(misspelt.status == .unprocessableContent)
            #expect(misspelt.errorFields == ["timezone"])
            #expect(misspelt.text.contains("timeZone"), "the known fields are listed: \(misspelt.text)")
            let nested = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"notifications": {"weekly": true}}"#)
            #expect(nested.errorFields == ["notifications.weekly"])
            let style = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"celebrationStyle": "loud"}"#)
            #expect(style.errorFields == ["celebrationStyle"])
            #expect(
                (style.json["error"] as? [String: Any])?["message"] as? String
                    == #"celebrationStyle: "loud" is not one of full, subtle, minimal, off"#)
            let profile = try await client.call(.get, "/v1/profile", token: token)
            #expect(profile.json["timeZone"] as? String == "Europe/Berlin")
            #expect(profile.json["celebrationStyle"] as? String == "full")

            let extra = try await client.call(
                .post, "/v1/events", token: token, json: #"{"events": [], "cursor": 3}"#)
            #expect(extra.errorFields == ["cursor"])
            let signIn = try await client.call(
                .post, "/v1/sessions",
                json: #"{"email": "ursula@example.com", "password": "correct horse", "remember": true}"#)
            #expect(signIn.errorFields == ["remember"])
            let difficulty = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"name": "Run", "difficulty": "extreme"}"#)
            #expect(difficulty.errorFields == ["difficulty"])
            #expect(difficulty.text.contains("is not one of easy, medium, hard"), "\(difficulty.text)")
        }
    }

    @Test func everyErrorHasTheSameShapeAndARequestID() async throws {
        try await ServerHarness.with { _, client in
            let missing = try await client.call(.get, "/v1/nowhere")
            #expect(missing.status == .unauthorized || missing.status == .notFound)
            #expect(missing.errorCode != nil)
            #expect(missing.headers[HTTPField.Name("X-Request-ID")!] != nil)
            let root = try await client.call(.get, "/nowhere")
            #expect(root.status == .notFound)
            #expect(root.errorCode == "not_found")
            let echoed = try await client.call(.get, "/healthz", headers: [HTTPField.Name("X-Request-ID")!: "abc-123"])
            #expect(echoed.headers[HTTPField.Name("X-Request-ID")!] == "abc-123")
        }
    }

    /// One structured line per request, carrying its id (the client's or a generated one),
    /// method, path, status, duration and user.
    @Test func everyRequestLogsOneStructuredLineWithItsID() async throws {
        let recorder = LogRecorder()
        var logger = Logger(label: "momentum.test") { _ in RecordingLogHandler(recorder: recorder) }
        logger.logLevel = .info
        let user = Mutex<String?>(nil)
        try await ServerHarness.with(logger: logger) { _, client in
            _ = try await client.call(.get, "/healthz", headers: [HTTPField.Name("X-Request-ID")!: "abc-123"])
            let refused = try await client.call(.get, "/v1/profile", token: "u_nobody.secret")
            #expect(refused.status == .unauthorized)
            let account = try await client.call(
                .post, "/v1/accounts",
                json: #"{"email": "logan@example.com", "password": "correct horse", "displayName": "Logan"}"#)
            user.withLock { $0 = account.json["userID"] as? String }
            let token = try #require(account.json["token"] as? String)
            #expect(try await client.call(.get, "/v1/profile", token: token).status == .ok)
        }
        let requests = recorder.lines.withLock { $0 }.filter { $0.metadata["path"] != nil }
        try #require(requests.count == 4, "\(recorder.lines.withLock { $0 })")
        #expect(requests[0].level == .info)
        #expect(requests[0].message == "GET /healthz 200")
        #expect(requests[0].metadata["request_id"] == "abc-123")
        #expect(requests[0].metadata["method"] == "GET")
        #expect(requests[0].metadata["status"] == "200")
        #expect(requests[0].metadata["ms"].flatMap(Double.init) != nil)
        #expect(requests[0].metadata["user"] == "-")
        #expect(requests[1].message == "GET /v1/profile 401")
        let generated = try #require(requests[1].metadata["request_id"])
        #expect(generated.hasPrefix("r_") && generated.count > 10, "\(generated)")
        #expect(requests[1].metadata["user"] == "-")
        // A signed-in request's line names its user.
        #expect(requests[3].message == "GET /v1/profile 200")
        let id = try #require(user.withLock { $0 })
        #expect(requests[3].metadata["user"] == id)
    }

    /// `momentum serve`'s log lines: timestamp, level, label, message, then the metadata in
    /// logfmt with sorted keys, quoting what needs it; below the level, nothing.
    @Test func theLogHandlerWritesLogfmtLines() {
        let written = Mutex<[String]>([])
        var logger = Logger(label: "momentum") { label in
            MomentumLogHandler(
                label: label, level: .info, now: { Date(timeIntervalSince1970: 1_795_300_000.5) },
                write: { line in written.withLock { $0.append(line) } })
        }
        logger[metadataKey: "hb.request.id"] = "42"
        logger.debug("not written")
        logger.info(
            "GET /v1/today 200",
            metadata: [
                "user": "u_1", "path": "/v1/today", "note": "two words", "empty": "", "quote": "say \"hi\"",
                "eq": "a=b",
            ])
        logger.error("failed")
        #expect(
            written.withLock { $0 } == [
                #"2026-11-21T22:26:40.500Z info momentum: GET /v1/today 200 empty="" eq="a=b" hb.request.id=42 "#
                    + #"note="two words" path=/v1/today quote="say \"hi\"" user=u_1"# + "\n",
                "2026-11-21T22:26:40.500Z error momentum: failed hb.request.id=42\n",
            ])
    }

    @Test func perUserRateLimitAnswers429WithRetryAfter() async throws {
        try await ServerHarness.with(userLimit: 5) { _, client in
            let token = try await client.register("rush")
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<7 { statuses.append(try await client.call(.get, "/v1/profile", token: token).status) }
            #expect(statuses.prefix(5).allSatisfy { $0 == .ok })
            let limited = try await client.call(.get, "/v1/profile", token: token)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
            #expect(limited.headers[.retryAfter] != nil)
        }
    }

    /// A request that read a session just before it ended must not put it back in the
    /// cache afterwards (sessions are trusted from the cache for a minute).
    @Test func aSessionEndedWhileARequestVerifiedItIsNotCachedAgain() {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let cache = SessionCache(ttl: 60)
        let phone = DeviceSession(
            userID: "u_ada", tokenHash: "h_phone", deviceName: "phone", createdAt: now, lastSeenAt: now, expiresAt: nil)
        var laptop = phone
        laptop.tokenHash = "h_laptop"
        cache.remember(phone, now: now)
        cache.remember(laptop, now: now)
        #expect(cache.session("h_phone", now: now) == phone)

        cache.forget(tokenHash: "h_phone")
        cache.remember(phone, now: now)
        #expect(cache.session("h_phone", now: now) == nil)
        #expect(cache.session("h_laptop", now: now) == laptop)

        cache.forget(user: "u_ada")
        cache.remember(laptop, now: now)
        #expect(cache.session("h_laptop", now: now) == nil)

        // Forgetting everything (the relay reconnected) ends nothing: sessions come back.
        let other = DeviceSession(
            userID: "u_bo", tokenHash: "h_bo", deviceName: "tablet", createdAt: now, lastSeenAt: now, expiresAt: nil)
        cache.remember(other, now: now)
        cache.forgetAll()
        #expect(cache.session("h_bo", now: now) == nil)
        cache.remember(other, now: now)
        #expect(cache.session("h_bo", now: now) == other)
        #expect(cache.session("h_bo", now: now.addingTimeInterval(61)) == nil)
    }

    /// Sessions are cached for a few seconds: one revoked on this instance fails at once,
    /// one deleted behind the server's back (another instance) within the cache lifetime.
    @Test(
        .enabled(
            if: ServerHarness.instances == 1,
            "plays another instance by deleting the session behind this one's back; with real instances the relay tells them"
        ))
    func aSessionRevokedElsewhereStopsWorkingWithinTheCacheLifetime() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("wanderer")
            #expect(try await client.call(.get, "/v1/profile", token: token).status == .ok)
            let user = String(token.prefix { $0 != "." })
            let session = try #require(try await harness.state.store.sessions(of: user).first)
            try await harness.state.store.deleteSession(of: user, tokenHash: session.tokenHash)
            #expect(try await client.call(.get, "/v1/profile", token: token).status == .ok)
            harness.clock.value.withLock { $0 += harness.state.configuration.sessionCacheSeconds + 1 }
            #expect(try await client.call(.get, "/v1/profile", token: token).status == .unauthorized)

            let second = try await client.register("homebody")
            #expect(try await client.call(.get, "/v1/profile", token: second).status == .ok)
            #expect(try await client.call(.delete, "/v1/sessions/current", token: second).status == .noContent)
            #expect(try await client.call(.get, "/v1/profile", token: second).status == .unauthorized)
        }
    }

    /// An account deleted through another instance, before the relay brings the news, is
    /// found missing by a request trusting its cached session: the answer is 401 (the
    /// session has ended), not the route's 404, and the session leaves the cache.
    @Test(
        .enabled(
            if: ServerHarness.instances == 1,
            "plays another instance by deleting the account behind this one's back; with real instances the relay tells them"
        ))
    func aCachedSessionWhoseAccountWasDeletedElsewhereAnswers401() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("leaver")
            let habit = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"name": "Walk", "habit": "walk"}"#)
            #expect(habit.status == .created, "\(habit.text)")
            #expect(try await client.call(.get, "/v1/profile", token: token).status == .ok)
            let user = String(token.prefix { $0 != "." })
            // A missing resource on a live session stays a 404.
            #expect(try await client.call(.get, "/v1/memories/unknown/share-card", token: token).status == .notFound)

            #expect(try await harness.state.store.deleteAccount(id: user))
            let profile = try await client.call(.get, "/v1/profile", token: token)
            #expect(profile.status == .unauthorized, "\(profile.text)")
            #expect(profile.json["error"] as? [String: Any] != nil, "\(profile.text)")
            let checkIn = try await client.call(.post, "/v1/habits/walk/check-ins", token: token, json: "{}")
            #expect(checkIn.status == .unauthorized, "\(checkIn.text)")
            #expect(harness.state.sessions.session(Tokens.hash(token), now: harness.state.now()) == nil)
        }
    }
}

/// A log line as a test sees it.
struct RecordedLine: Sendable {
    var level: Logger.Level
    var message: String
    var metadata: [String: String]
}

/// Every line logged through its handlers.
final class LogRecorder: Sendable {
    let lines = Mutex<[RecordedLine]>([])
}

/// Keeps every line logged through it in a ``LogRecorder``.
struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        recorder.lines.withLock {
            $0.append(
                RecordedLine(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
        }
    }
}
