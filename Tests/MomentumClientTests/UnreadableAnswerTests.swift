import Foundation
import HTTPTypes
import MomentumAPI
import MomentumClient
import MomentumCore
import Synchronization
import Testing

import protocol OpenAPIRuntime.ClientMiddleware
import class OpenAPIRuntime.HTTPBody

/// Passes every request to the real server and, once armed with an operation, takes a
/// required field out of that operation's real answer: what a server that broke `/v1`'s
/// promise (docs/api-versioning.md) would send, which no test can make ours send on cue.
final class BrokenAnswer: ClientMiddleware, Sendable {
    let operation = Mutex<String?>(nil)
    let field: String

    init(removing field: String) { self.field = field }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, answer) = try await next(request, body, baseURL)
        guard operation.withLock({ $0 }) == operationID, let answer else { return (response, answer) }
        let data = try await Data(collecting: answer, upTo: 1 << 24)
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return (response, HTTPBody(data))
        }
        object[field] = nil
        return (response, HTTPBody(try JSONSerialization.data(withJSONObject: object)))
    }
}

/// An answer the SDK cannot read is its own error, not "offline": retrying gets the same
/// answer, so the sync reports it and `keepInSync` ends with it instead of retrying forever.
@Suite struct UnreadableAnswerTests {
    @Test func anAnswerTheSDKCannotReadIsReportedNotRetriedAsOffline() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let broken = BrokenAnswer(removing: "timeZone")
            let phone = try MomentumClient.make(server, files: files, device: "phone", middlewares: [broken])
            try await phone.register(.test("ada"))
            try await phone.record(habit("read", "Read"))

            // The real profile answer without a field the contract requires.
            broken.operation.withLock { $0 = "getProfile" }
            let error = await #expect(throws: ClientError.unreadableAnswer) { try await phone.sync() }
            #expect(error?.isTransient == false && error?.code == "unreadable_answer")
            #expect(error?.message.contains("getProfile answered 200") == true, "\(String(describing: error))")
            // The push before it went through: nothing recorded is lost.
            #expect(try await phone.pendingEvents().isEmpty)

            // keepInSync ends with it (before, it called it offline and retried forever).
            let ended = try await withThrowingTaskGroup(of: ClientError?.self) { group in
                group.addTask {
                    do {
                        try await phone.keepInSync()
                        return nil
                    } catch let error as ClientError {
                        return error
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(20))
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            #expect(ended == .unreadableAnswer, "\(String(describing: ended))")

            // A server that answers as documented again is synced with as before.
            broken.operation.withLock { $0 = nil }
            try await phone.sync()
        }
    }
}
