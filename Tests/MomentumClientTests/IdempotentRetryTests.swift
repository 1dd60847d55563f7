import Foundation
import HTTPTypes
import MomentumAPI
import MomentumClient
import MomentumCore
import OpenAPIRuntime
import Synchronization
import Testing

/// Lets the server handle the first request of `operation`, then throws its answer away:
/// the server acted, and the device never heard. Records each try's `Idempotency-Key`.
final class LoseFirstAnswer: ClientMiddleware, Sendable {
    let operation: String
    let keys = Mutex<[String?]>([])
    init(_ operation: String) { self.operation = operation }

    struct AnswerLost: Error {}

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == operation else { return try await next(request, body, baseURL) }
        let tries = keys.withLock {
            $0.append(request.headerFields[HTTPField.Name("Idempotency-Key")!])
            return $0.count
        }
        let (response, answer) = try await next(request, body, baseURL)
        guard tries == 1 else { return (response, answer) }
        if let answer { _ = try await Data(collecting: answer, upTo: 1 << 20) }
        throw AnswerLost()
    }
}

/// Answers the first request of `operation` with a 503 and `Retry-After: 1` without
/// sending it; the next go through.
final class BusyOnce: ClientMiddleware, Sendable {
    let operation: String
    let tries = Mutex(0)
    init(_ operation: String) { self.operation = operation }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == operation,
            tries.withLock({
                $0 += 1; return $0
            }) == 1
        else {
            return try await next(request, body, baseURL)
        }
        var response = HTTPResponse(status: .serviceUnavailable)
        response.headerFields[HTTPField.Name("Retry-After")!] = "1"
        return (response, HTTPBody("upstream restarting"))
    }
}

/// Every write carries an `Idempotency-Key` and is sent again, with the same key, when its
/// answer was lost: the server acts once.
@Suite(.serialized) struct IdempotentRetryTests {
    static func client(
        _ server: LiveServer, _ files: ClientFiles, _ device: String, retry: RetryPolicy = .requests,
        _ middlewares: [any ClientMiddleware]
    ) throws -> MomentumClient {
        try MomentumClient(
            server: server.url, databasePath: files.path(device), timeZone: "Europe/Berlin",
            clock: { server.clock.now }, retry: retry, middlewares: middlewares)
    }

    @Test(arguments: Backend.allCases)
    func aWriteWhoseAnswerWasLostIsSentAgainWithTheSameKeyAndActsOnce(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let loss = LoseFirstAnswer("createInvitation")
            let phone = try Self.client(server, files, "phone", [loss])
            try await phone.register(.test("ada"))

            let invitation = try await phone.invite(expiresInDays: 2)

            let keys = loss.keys.withLock { $0 }
            #expect(keys.count == 2, "\(keys)")
            #expect(keys.first??.isEmpty == false && keys.first == keys.last, "\(keys)")
            // The server made one invitation, and the retry was answered with it.
            #expect(try await phone.invitations().map(\.code) == [invitation.code])
        }
    }

    @Test(arguments: Backend.allCases)
    func aProfileChangeWhoseAnswerWasLostIsAppliedOnce(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let loss = LoseFirstAnswer("updateProfile")
            let phone = try Self.client(server, files, "phone", [loss])
            try await phone.register(.test("ada"))

            let answer = try await phone.api.updateProfile(body: .json(.init(displayName: "Ada L.")))
            #expect(try answer.ok.body.json.displayName == "Ada L.")
            let keys = loss.keys.withLock { $0 }
            #expect(keys.count == 2 && keys.first == keys.last, "\(keys)")
        }
    }

    /// Events carry their own ids: a push is retried without a key, and the server, which
    /// stored the events the first time, answers `duplicate`.
    @Test func aPushWhoseAnswerWasLostIsSentAgainAndStoresEachEventOnce() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let loss = LoseFirstAnswer("pushEvents")
            let phone = try Self.client(server, files, "phone", [loss])
            try await phone.register(.test("ada"))
            try await phone.record(habit("read", "Read"))
            try await phone.checkIn("read")

            let report = try await phone.sync()

            #expect(loss.keys.withLock { $0 } == [nil, nil])
            #expect(report.pushed == 0 && report.duplicates == 2, "\(report)")
            #expect(try await phone.pendingEvents() == [])
            #expect(try await phone.syncedEvents().count == 2)
        }
    }

    @Test(arguments: Backend.allCases)
    func withoutRetriesTheLostAnswerIsAnOfflineError(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let loss = LoseFirstAnswer("createInvitation")
            let phone = try Self.client(server, files, "phone", retry: .never, [loss])
            try await phone.register(.test("ada"))

            await #expect(throws: ClientError.offline) { try await phone.invite(expiresInDays: 2) }
            // The key was there all the same: a retry by the app would be answered, not acted on.
            #expect(loss.keys.withLock { $0 }.first??.isEmpty == false)
            #expect(try await phone.invitations().count == 1)
        }
    }

    @Test func aBusyAnswerIsRetriedAfterItsRetryAfter() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let busy = BusyOnce("createInvitation")
            let phone = try Self.client(server, files, "phone", [busy])
            try await phone.register(.test("ada"))

            let start = ContinuousClock.now
            _ = try await phone.invite()
            #expect(ContinuousClock.now - start >= .seconds(1))
            #expect(busy.tries.withLock { $0 } == 2)
        }
    }

    /// A sign-in is not signed-in yet: the server does not honour its key, so a lost answer
    /// is not sent again (that would open a second session).
    @Test func aSignInWhoseAnswerWasLostIsNotSentAgain() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            try await Self.client(server, files, "setup", []).register(.test("ada"))
            let loss = LoseFirstAnswer("signIn")
            let phone = try Self.client(server, files, "phone", [loss])

            await #expect(throws: ClientError.offline) {
                try await phone.signIn(email: "ada@example.com", password: "correct horse")
            }
            #expect(loss.keys.withLock { $0 }.count == 1)
        }
    }

    @Test func fullJitterStaysUnderTheDoublingCeiling() {
        let policy = RetryPolicy(initial: .milliseconds(100), maximum: .seconds(1))
        var generator = SystemRandomNumberGenerator()
        var seen: Set<Duration> = []
        for failures in 1...6 {
            for _ in 0..<50 {
                let wait = policy.jitteredDelay(after: failures, using: &generator)
                #expect(wait >= .zero && wait <= policy.delay(after: failures))
                seen.insert(wait)
            }
        }
        #expect(seen.count > 100, "the waits are spread, not fixed")
        #expect(RetryPolicy.never.jitteredDelay(after: 3) == .zero)
    }
}
