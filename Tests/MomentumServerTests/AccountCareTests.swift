import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Account care: changing the password (and signing out the other devices), downloading
/// the whole account, and bringing that download into another Momentum server.
struct AccountCareTests {
    static func signIn(
        _ client: any TestClientProtocol, _ name: String, password: String = "correct horse"
    )
        async throws -> JSONResponse
    {
        try await client.call(
            .post, "/v1/sessions",
            json: #"{"email": "\#(name)@example.com", "password": "\#(password)", "deviceName": "laptop"}"#)
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aPasswordChangeChecksTheCurrentOneAndCanSignOutTheOthers(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { _, client in
            let phone = try await client.register("ada")
            let laptop = try #require(try await Self.signIn(client, "ada").json["token"] as? String)
            func change(_ json: String) async throws -> JSONResponse {
                try await client.call(.post, "/v1/account/password", token: phone, json: json)
            }
            let wrong = try await change(#"{"currentPassword": "not it at all", "newPassword": "a new password"}"#)
            #expect(wrong.status == .forbidden)
            #expect(wrong.errorCode == "wrong_password")
            #expect(wrong.errorFields == ["currentPassword"])
            let short = try await change(#"{"currentPassword": "correct horse", "newPassword": "short"}"#)
            #expect(short.status == .unprocessableContent)
            #expect(short.errorFields == ["newPassword"])
            let long = try await change(
                #"{"currentPassword": "correct horse", "newPassword": "\#(String(repeating: "é", count: 40))"}"#)
            #expect(long.errorFields == ["newPassword"])
            let stranger = try await change(
                #"{"currentPassword": "correct horse", "newPassword": "a new password", "user": "u_other"}"#)
            #expect(stranger.status == .badRequest || stranger.status == .unprocessableContent)
            #expect(try await client.call(.post, "/v1/account/password", json: "{}").status == .unauthorized)
            // Nothing changed yet: the old password still signs in.
            #expect(try await Self.signIn(client, "ada").status == .created)

            let kept = try await change(#"{"currentPassword": "correct horse", "newPassword": "first new one"}"#)
            #expect(kept.status == .ok, "\(kept.text)")
            #expect(kept.json["signedOutDevices"] as? Int == 0)
            #expect(try await client.call(.get, "/v1/today", token: laptop).status == .ok)
            #expect(try await Self.signIn(client, "ada").status == .unauthorized)
            #expect(try await Self.signIn(client, "ada", password: "first new one").status == .created)

            let ended = try await change(
                #"{"currentPassword": "first new one", "newPassword": "second new one", "signOutOtherDevices": true}"#
            )
            #expect(ended.status == .ok, "\(ended.text)")
            // The laptop and the two sessions the sign-ins above made.
            #expect(ended.json["signedOutDevices"] as? Int == 3)
            #expect(try await client.call(.get, "/v1/today", token: laptop).status == .unauthorized)
            #expect(try await client.call(.get, "/v1/today", token: phone).status == .ok)
            let devices = try await client.call(.get, "/v1/devices", token: phone)
            #expect((devices.json["devices"] as? [[String: Any]])?.count == 1)
            #expect(try await Self.signIn(client, "ada", password: "first new one").status == .unauthorized)
            #expect(try await Self.signIn(client, "ada", password: "second new one").status == .created)
        }
    }

    /// The download is the whole account as a tar file; another server's operator imports
    /// it, and the same email and password sign in there to the same streaks.
    @Test(arguments: [(ServerHarness.Backend.sqlite, ServerHarness.Backend.postgres), (.postgres, .sqlite)])
    func theDownloadImportsIntoAnotherServer(_ from: ServerHarness.Backend, _ to: ServerHarness.Backend) async throws {
        let (tar, streak) = try await ServerHarness.with(backend: from) { harness, client in
            let token = try await harness.register("ada", daysAgo: 3, client: client)
            let now = harness.now
            let events =
                [habitCreated("read", at: now.addingTimeInterval(-2 * 86_400))]
                + (0...2).map {
                    completion("c\($0)", habit: "read", at: now.addingTimeInterval(Double($0 - 2) * 86_400))
                }
            let pushed = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            #expect(pushed.status == .ok, "\(pushed.text)")
            let download = try await client.call(.get, "/v1/account/archive", token: token)
            #expect(download.status == .ok)
            #expect(download.headers[.contentType] == "application/x-tar")
            #expect(
                download.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"momentum-archive-") == true)
            // The web app's link sends the session cookie.
            let cookie = try await client.signInCookie("ada")
            let viaCookie = try await client.call(.get, "/v1/account/archive", headers: [.cookie: cookie])
            #expect(viaCookie.status == .ok)
            #expect(try await client.call(.get, "/v1/account/archive").status == .unauthorized)
            let today = try await client.call(.get, "/v1/today", token: token)
            let habits = try #require(today.json["habits"] as? [[String: Any]])
            return (Array(download.body.readableBytesView), habits.first?["current"] as? Int)
        }
        #expect(streak == 3)
        let archive = try AccountArchive.read(tar: Data(tar))
        #expect(archive.events.count == 4)

        try await ServerHarness.with(backend: to) { _, client in
            let tarType: HTTPFields = [.contentType: "application/x-tar"]
            func post(_ bytes: [UInt8], headers: HTTPFields) async throws -> JSONResponse {
                try await client.call(.post, "/v1/admin/archives", bytes: bytes, headers: headers)
            }
            var admin = tarType
            admin[.authorization] = "Bearer mop_harness-owner"
            #expect(try await post(tar, headers: tarType).status == .unauthorized)
            var json = admin
            json[.contentType] = "application/json"
            #expect(try await post(tar, headers: json).status == .unsupportedMediaType)
            let garbage = try await post(Array("not a tar file".utf8), headers: admin)
            #expect(garbage.status == .unprocessableContent)
            #expect(garbage.errorCode == "invalid_archive")

            let imported = try await post(tar, headers: admin)
            #expect(imported.status == .created, "\(imported.text)")
            #expect(imported.json["email"] as? String == "ada@example.com")
            #expect(imported.json["events"] as? Int == 4)
            let again = try await post(tar, headers: admin)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "account_exists")

            let session = try await Self.signIn(client, "ada")
            #expect(session.status == .created, "\(session.text)")
            let token = try #require(session.json["token"] as? String)
            let today = try await client.call(.get, "/v1/today", token: token)
            let habits = try #require(today.json["habits"] as? [[String: Any]])
            #expect(habits.first?["current"] as? Int == streak)
        }
    }

    /// An archive with a bad line is refused with the file and line of each problem, and
    /// nothing is imported.
    @Test func aBadArchiveNamesEachProblemAndImportsNothing() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("bea")
            let made = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read"}"#)
            #expect(made.status == .created)
            let download = try await client.call(.get, "/v1/account/archive", token: token)
            var archive = try AccountArchive.read(tar: Data(download.body.readableBytesView))
            // Its account moves to a new id and email, and its one event appears twice.
            archive.account.id = "u_moved"
            archive.account.email = "moved@example.com"
            let event = try #require(archive.events.first)
            archive.events.append(StoredEvent(seq: 2, event: event.event, receivedAt: event.receivedAt))
            let tar = try archive.tar()
            let refused = try await client.call(
                .post, "/v1/admin/archives", bytes: Array(tar),
                headers: [.contentType: "application/x-tar", .authorization: "Bearer mop_harness-owner"])
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            #expect(refused.errorFields.allSatisfy { $0.hasPrefix("account.jsonl:") }, "\(refused.errorFields)")
            #expect(!refused.errorFields.isEmpty)
            #expect(try await Self.signIn(client, "moved").status == .unauthorized)
        }
    }
}

// The throttle's backoff runs on the real clock: this test runs with the timed suites, alone
// (Scripts/test), where a loaded machine cannot stretch its attempts past the backoff.
extension SignInThrottleTests {
    /// A stolen session cannot guess the password through this route at leisure: wrong
    /// current passwords count as failed sign-ins.
    @Test func wrongCurrentPasswordsAreThrottledLikeSignIns() async throws {
        try await ServerHarness.with(configure: { $0.signInFreeFailuresPerAccount = 2 }) { _, client in
            let token = try await client.register("eve")
            var statuses: [Int] = []
            for attempt in 1...3 {
                let response = try await client.call(
                    .post, "/v1/account/password", token: token,
                    json: #"{"currentPassword": "guess number \#(attempt)", "newPassword": "a new password"}"#)
                statuses.append(response.status.code)
                if response.status == .tooManyRequests { #expect(response.headers[.retryAfter] != nil) }
            }
            #expect(statuses == [403, 403, 429])
        }
    }
}
