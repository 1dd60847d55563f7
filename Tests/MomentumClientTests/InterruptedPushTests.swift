import Foundation
import HTTPTypes
import MomentumAPI
import MomentumClient
import MomentumCore
import OpenAPIRuntime
import Synchronization
import Testing

/// Lets the server handle the `lose`-th push, then stops the server and throws away its
/// answer: the server committed a batch whose answer the device never read.
final class LoseAPushAnswer: ClientMiddleware, Sendable {
    private let pushes = Mutex(0)
    private let lose: Int
    private let whenLost: @Sendable () async -> Void

    init(lose: Int, whenLost: @escaping @Sendable () async -> Void) {
        self.lose = lose
        self.whenLost = whenLost
    }

    struct AnswerLost: Error {}

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, answer) = try await next(request, body, baseURL)
        guard operationID == "pushEvents",
            pushes.withLock({
                $0 += 1; return $0
            }) == lose
        else {
            return (response, answer)
        }
        if let answer { _ = try await Data(collecting: answer, upTo: 64 << 20) }
        await whenLost()
        throw AnswerLost()
    }
}

@Suite(.serialized) struct InterruptedPushTests {
    /// The server stops in the middle of a three-batch push, after committing the second
    /// batch and before the device reads its answer; started again, the next sync sends
    /// what is left: nothing lost, nothing stored twice.
    @Test(arguments: Backend.allCases)
    func aServerStoppedMidPushThenRestartedLosesAndDoublesNothing(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let loss = LoseAPushAnswer(lose: 3) { await server.stop() }  // 1: the habit, 2–4: the batches
            // The outbox's own resend is under test, not the request's: a request retry would
            // only wait out the stopped server's silent connection (30 s).
            let phone = try MomentumClient.make(
                server, files: files, device: "phone", retry: .never, middlewares: [loss])
            try await phone.register(.test("ana"))
            try await phone.record(habit("water", "Water"))
            try await phone.sync()
            let total = 3 * 200
            for _ in 0..<total {
                server.clock.advance(seconds: 60)
                try await phone.checkIn("water", value: 0.25)
            }
            #expect(try await phone.pendingEvents().count == total)

            await #expect(throws: ClientError.offline) { try await phone.sync() }
            // The first batch was answered; the second was stored but its answer lost.
            #expect(try await phone.pendingEvents().count == 2 * 200)

            try await server.start()
            let report = try await phone.sync()
            #expect(report.pushed == 200, "\(report)")
            #expect(report.duplicates == 200, "\(report)")
            #expect(report.refused == [])
            #expect(try await phone.pendingEvents() == [])

            let token = try await RawHTTP.signIn(server, email: "ana@example.com", device: "observer")
            var ids: [String] = []
            var after = 0
            while true {
                let page = try await RawHTTP.get(
                    server.url.appending(path: "v1/events").appending(queryItems: [
                        .init(name: "after", value: "\(after)"), .init(name: "limit", value: "1000"),
                    ]), token: token)
                ids += (page.json["events"] as? [[String: Any]] ?? []).compactMap {
                    ($0["event"] as? [String: Any])?["id"] as? String
                }
                after = page.json["cursor"] as? Int ?? after
                if page.json["more"] as? Bool != true { break }
            }
            #expect(ids.count == 1 + total)
            #expect(Set(ids).count == ids.count, "an event was stored twice")
            #expect(try await phone.syncedEvents().map(\.id) == ids)
            let answer = try await RawHTTP.get(server.url.appending(path: "v1/today"), token: token)
            let local = try MomentumJSON.encodeBytes(try await phone.today(at: server.clock.now))
            let remote = withoutFinalNewline(answer.body)
            let same = local == remote
            #expect(same, "\(firstDifference(local, remote))")
        }
    }
}
