import Foundation
import HTTPTypes
import MomentumAPI
import MomentumClient
import MomentumCore
@_spi(Testing) import MomentumServer
@_spi(Testing) import MomentumServices
import Synchronization
import Testing

import protocol OpenAPIRuntime.ClientMiddleware
import class OpenAPIRuntime.HTTPBody

/// Answers every request itself, once armed, with the status, `Retry-After` and error body
/// it holds: what a proxy or an overloaded server says, which a test cannot make the real
/// server say on cue. The generated client reads the answer as it would the server's.
final class CannedAnswer: ClientMiddleware, Sendable {
    struct Answer: Sendable {
        var status: Int
        var retryAfter: Int?
        var code = "canned"
        var field: String?
    }

    let answer = Mutex<Answer?>(nil)

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let answer = answer.withLock({ $0 }) else { return try await next(request, body, baseURL) }
        var response = HTTPResponse(status: .init(code: answer.status))
        response.headerFields[.contentType] = "application/json"
        if let retryAfter = answer.retryAfter { response.headerFields[.retryAfter] = "\(retryAfter)" }
        let details = answer.field.map { #"[{"field":"\#($0)","issue":"canned"}]"# } ?? "[]"
        let json = #"{"error":{"code":"\#(answer.code)","message":"the canned answer","details":\#(details)}}"#
        return (response, HTTPBody(json))
    }
}

/// One function reads every online operation's answer: each error answer means the same
/// ``ClientError`` whichever method asked — refusals with the body's code, message and
/// field, 429 and 503 busy with their `Retry-After`, an undocumented status a server error
/// naming the request, a 401 to the sync the end of the session.
@Suite(.serialized) struct ErrorAnswerTests {
    /// The server's own answers: a refusal naming its field, a 401, a 404, and a 429 with
    /// `Retry-After` from the sign-in throttle.
    @Test(arguments: Backend.allCases)
    func theServersErrorAnswersBecomeTheirClientErrors(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { configuration in
            // The throttle's clock stands still: its waits never pass during the test.
            configuration.signInClock = { 1_000 }
            configuration.signInFreeFailuresPerAccount = 1
            configuration.signInFreeFailuresAcrossAddresses = 1
        } _: { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("ada"))

            // 422, naming its field.
            let refused = await #expect(throws: ClientError.refused("invalid_input", "")) {
                try await phone.changePassword(current: "correct horse", new: "short")
            }
            #expect(refused?.field == "newPassword", "\(String(describing: refused))")
            #expect(refused?.isTransient == false)

            // 404.
            await #expect(throws: ClientError.refused("not_found", "")) {
                try await phone.invitation(code: "no-such-code")
            }

            // 401: a refusal to an online operation, the end of the session to the sync.
            let stranger = try MomentumClient.make(server, files: files, device: "stranger")
            let unauthorized = await #expect(throws: ClientError.self) { try await stranger.friends() }
            #expect(unauthorized?.code == "unauthorized", "\(String(describing: unauthorized))")
            let tablet = try MomentumClient.make(server, files: files, device: "tablet")
            try await tablet.signIn(email: "ada@example.com", password: "correct horse")
            try await phone.changePassword(
                current: "correct horse", new: "a better password", signOutOtherDevices: true)
            await #expect(throws: ClientError.signedOut) { try await tablet.sync() }

            // 429 with Retry-After, once the free guesses are spent.
            var busy: ClientError?
            for _ in 1...4 where busy == nil {
                do {
                    try await stranger.signIn(email: "ada@example.com", password: "a guess")
                    Issue.record("a wrong password was accepted")
                } catch let error as ClientError where error == .busy {
                    busy = error
                } catch let error as ClientError {
                    #expect(error.code == "invalid_credentials", "\(error)")
                }
            }
            let throttled = try #require(busy, "the sign-in throttle never answered 429")
            #expect(throttled.isTransient && throttled.message.contains("sign-in"), "\(throttled)")
            #expect((throttled.retryAfter ?? 0) > 0, "\(throttled)")
        }
    }

    /// Every online method of the SDK, answered 429, 503, 401, 409 naming a field, 418 and
    /// 502 (by a middleware, read by the generated client as the server's answer): each
    /// reads the same answer the same way.
    @Test func everyOnlineMethodMapsEachErrorAnswerTheSameWay() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let canned = CannedAnswer()
            let phone = try MomentumClient.make(server, files: files, device: "phone", middlewares: [canned])
            try await phone.register(.test("ada"))

            for (name, call) in Self.onlineMethods {
                // 429, and 503 where the operation documents it: busy, with the body's
                // message and the Retry-After seconds.
                for status in [429, 503] where status == 429 || Self.documents503.contains(name) {
                    canned.answer.withLock { $0 = .init(status: status, retryAfter: 7) }
                    let error = await #expect(throws: ClientError.busy, "\(name) \(status)") { try await call(phone) }
                    #expect(error?.message == "the canned answer" && error?.retryAfter == 7, "\(name) \(status)")
                }

                // 401: a refusal with the body's code, but the end of the session to the sync.
                canned.answer.withLock { $0 = .init(status: 401, code: "unauthorized") }
                let unauthorized = await #expect(throws: ClientError.self, "\(name) 401") { try await call(phone) }
                switch name {
                case "sync": #expect(unauthorized == .signedOut, "\(String(describing: unauthorized))")
                case "register":
                    #expect(unauthorized?.message == "registering answered 401", "\(String(describing: unauthorized))")
                default:
                    #expect(
                        unauthorized == .refused("unauthorized", ""), "\(name): \(String(describing: unauthorized))")
                    #expect(unauthorized?.message == "the canned answer", "\(name)")
                }

                // 409, where the operation documents it: a refusal with its code and field.
                canned.answer.withLock { $0 = .init(status: 409, code: "canned_conflict", field: "the.field") }
                let conflict = await #expect(throws: ClientError.self, "\(name) 409") { try await call(phone) }
                if Self.documents409.contains(name) {
                    #expect(conflict == .refused("canned_conflict", ""), "\(name): \(String(describing: conflict))")
                    #expect(conflict?.field == "the.field" && conflict?.message == "the canned answer", "\(name)")
                } else {
                    #expect(conflict?.code == "server_error", "\(name) 409: \(String(describing: conflict))")
                    #expect(conflict?.message.hasSuffix(" answered 409") == true, "\(name)")
                }

                // An undocumented status: a server error naming the request; a 5xx to the
                // sync is busy, worth retrying.
                for status in [418, 502] {
                    canned.answer.withLock { $0 = .init(status: status, retryAfter: 7) }
                    let error = await #expect(throws: ClientError.self, "\(name) \(status)") { try await call(phone) }
                    if name == "sync", status == 502 {
                        #expect(error == .busy && error?.retryAfter == nil, "\(String(describing: error))")
                    } else {
                        #expect(error?.code == "server_error", "\(name) \(status): \(String(describing: error))")
                        #expect(
                            error?.message.hasSuffix(" answered \(status)") == true, "\(name): \(error?.message ?? "")")
                        #expect(error?.isTransient == false)
                    }
                }
            }

            // Answered again by the server, the client is as it was.
            canned.answer.withLock { $0 = nil }
            try await phone.sync()
            #expect(try await phone.friends().isEmpty)
        }
    }

    /// The methods whose operation documents a 503.
    static let documents503: Set = [
        "register", "signIn", "changePassword", "downloadArchive", "downloadCSV", "importHabits",
    ]

    /// The methods whose operation documents a 409 (the sync's pull does not; its push, with
    /// an empty outbox, is not sent).
    static let documents409: Set = [
        "register", "registerDeviceToken", "removePushTarget", "invite", "revokeInvitation", "acceptInvitation",
        "declineInvitation", "removeFriend", "nudge", "block", "unblock", "share", "sharePost", "deletePost", "react",
        "removeReaction", "inviteToFamily", "changeFamilyRole", "removeFamilyMember", "logForFamily",
    ]

    /// The SDK's online methods, each called with arguments the canned answers make moot.
    static let onlineMethods: [(String, @Sendable (MomentumClient) async throws -> Void)] = [
        ("register", { _ = try await $0.register(.test("bob")) }),
        ("signIn", { _ = try await $0.signIn(email: "ada@example.com", password: "correct horse") }),
        ("sync", { _ = try await $0.sync() }),
        ("changePassword", { _ = try await $0.changePassword(current: "correct horse", new: "a better password") }),
        ("downloadArchive", { _ = try await $0.downloadArchive() }),
        ("downloadCSV", { _ = try await $0.downloadCSV() }),
        ("importHabits", { _ = try await $0.importHabits(from: .loop, files: [:]) }),
        ("registerDeviceToken", { _ = try await $0.registerDeviceToken([1, 2, 3]) }),
        ("pushTargets", { _ = try await $0.pushTargets() }),
        ("removePushTarget", { try await $0.removePushTarget("target") }),
        ("invite", { _ = try await $0.invite() }),
        ("invitations", { _ = try await $0.invitations() }),
        ("invitation", { _ = try await $0.invitation(code: "code") }),
        ("revokeInvitation", { try await $0.revokeInvitation(code: "code") }),
        ("acceptInvitation", { _ = try await $0.acceptInvitation(code: "code") }),
        ("declineInvitation", { try await $0.declineInvitation(code: "code") }),
        ("friends", { _ = try await $0.friends() }),
        ("friend", { _ = try await $0.friend("user") }),
        ("removeFriend", { try await $0.removeFriend("user") }),
        ("nudge", { _ = try await $0.nudge("user") }),
        ("blocked", { _ = try await $0.blocked() }),
        ("block", { try await $0.block("user") }),
        ("unblock", { try await $0.unblock("user") }),
        ("sharing", { _ = try await $0.sharing() }),
        ("share", { _ = try await $0.share(habits: []) }),
        ("posts", { _ = try await $0.posts() }),
        ("sharePost", { _ = try await $0.sharePost(unlock: "unlock") }),
        ("deletePost", { try await $0.deletePost("post", owner: "user") }),
        ("feed", { _ = try await $0.feed() }),
        ("react", { _ = try await $0.react(.party, to: "post", of: "user") }),
        ("removeReaction", { try await $0.removeReaction(to: "post", of: "user") }),
        ("reactions", { _ = try await $0.reactions(to: "post", of: "user") }),
        ("families", { _ = try await $0.families() }),
        ("family", { _ = try await $0.family(owner: "user", subject: "kid") }),
        ("inviteToFamily", { _ = try await $0.inviteToFamily(owner: "user", subject: "kid", role: .viewer) }),
        ("familyInvitations", { _ = try await $0.familyInvitations(owner: "user", subject: "kid") }),
        (
            "revokeFamilyInvitation",
            { try await $0.revokeFamilyInvitation(code: "code", owner: "user", subject: "kid") }
        ),
        (
            "changeFamilyRole",
            { _ = try await $0.changeFamilyRole(of: "m", owner: "user", subject: "kid", to: .viewer) }
        ),
        ("removeFamilyMember", { try await $0.removeFamilyMember("m", owner: "user", subject: "kid") }),
        ("logForFamily", { _ = try await $0.logForFamily([], owner: "user", subject: "kid") }),
    ]
}
