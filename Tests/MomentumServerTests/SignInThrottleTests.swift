import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumSQLite
import MomentumServer
import NIOCore
import Synchronization
import Testing

/// A live server on a socket, on a fresh SQLite store, configured by the test.
enum LiveServer {
    static func with(
        _ configure: (inout ServerConfiguration) -> Void,
        _ body: @escaping @Sendable (_ port: Int) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appending(path: "server.sqlite").path)
        try await store.migrate()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        configure(&configuration)
        var logger = Logger(label: "momentum.live-test")
        logger.logLevel = .error
        let state = ServerState(store: store, configuration: configuration, logger: logger)
        do {
            try await buildApplication(state).test(.live) { client in
                try await body(try #require(client.port))
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    static func register(port: Int, _ name: String, password: String = "correct horse") async throws {
        let answer = try await RawHTTP.send(
            port: port, "POST", "/v1/accounts",
            json: #"{"email": "\#(name)@example.com", "password": "\#(password)", "displayName": "\#(name)"}"#)
        #expect(answer.status == 201, "\(answer.raw)")
    }

    static func signIn(
        port: Int, _ name: String, password: String = "correct horse", from address: String? = nil
    ) async throws -> RawHTTP.Answer {
        try await RawHTTP.send(
            port: port, "POST", "/v1/sessions", headers: address.map { ["X-Forwarded-For": $0] } ?? [:],
            json: #"{"email": "\#(name)@example.com", "password": "\#(password)"}"#)
    }
}

/// Sign-in as a CPU lever (issue 23, defect 4): wrong-password sign-ins are throttled per
/// email and per address, and bcrypt runs on a bounded pool of its own.
@Suite(.serialized) struct SignInThrottleTests {
    @Test func failedSignInsWaitLongerEachTimeAndTheAnswerIsTheSameWithOrWithoutAnAccount() async throws {
        try await LiveServer.with { configuration in
            configuration.trustedProxies = ["127.0.0.1", "::1"]
        } _: { port in
            try await LiveServer.register(port: port, "ada")
            var throttled: [String: RawHTTP.Answer] = [:]
            for name in ["ada", "nobody"] {
                // Five failures are free, from five addresses (the address limit is not reached).
                for attempt in 1...5 {
                    let answer = try await LiveServer.signIn(
                        port: port, name, password: "wrong password", from: "192.0.2.\(attempt)")
                    #expect(answer.status == 401, "\(answer.raw)")
                }
                let sixth = try await LiveServer.signIn(port: port, name, password: "wrong password", from: "192.0.2.9")
                #expect(sixth.status == 429, "\(sixth.raw)")
                #expect(sixth.headerLines.contains("retry-after: 1"), "\(sixth.headerLines)")
                #expect(sixth.body.contains(#""code":"sign_in_throttled""#), "\(sixth.body)")
                throttled[name] = sixth
            }
            #expect(throttled["ada"]?.body == throttled["nobody"]?.body)

            // Even the right password waits its turn; after the wait it works, and resets.
            let early = try await LiveServer.signIn(port: port, "ada", from: "192.0.2.10")
            #expect(early.status == 429)
            try await Task.sleep(for: .milliseconds(1_100))
            let wrongAgain = try await LiveServer.signIn(port: port, "ada", password: "wrong", from: "192.0.2.11")
            #expect(wrongAgain.status == 401)
            let doubled = try await LiveServer.signIn(port: port, "ada", from: "192.0.2.12")
            #expect(doubled.status == 429)
            #expect(doubled.headerLines.contains("retry-after: 2"), "\(doubled.headerLines)")
            try await Task.sleep(for: .milliseconds(2_100))
            #expect(try await LiveServer.signIn(port: port, "ada", from: "192.0.2.13").status == 201)
            #expect(try await LiveServer.signIn(port: port, "ada", password: "typo", from: "192.0.2.14").status == 401)
            #expect(try await LiveServer.signIn(port: port, "ada", from: "192.0.2.15").status == 201)
        }
    }

    @Test func failuresFromOneAddressAreThrottledAcrossEmails() async throws {
        try await LiveServer.with { configuration in
            configuration.signInFreeFailuresPerAddress = 3
        } _: { port in
            for index in 1...3 {
                let answer = try await LiveServer.signIn(port: port, "person\(index)", password: "wrong password")
                #expect(answer.status == 401, "\(answer.raw)")
            }
            let fourth = try await LiveServer.signIn(port: port, "person4", password: "wrong password")
            #expect(fourth.status == 429, "\(fourth.raw)")
        }
    }

    @Test func passwordChecksBeyondTheQueueAreRefusedAtOnce() async throws {
        try await LiveServer.with { configuration in
            configuration.bcryptCost = 12
            configuration.passwordThreads = 1
            configuration.passwordQueue = 1
            configuration.trustedProxies = ["127.0.0.1", "::1"]
        } _: { port in
            // Eight sign-ins for eight emails from eight addresses, at once: two fit the
            // pool (one running, one waiting), the others are refused without waiting.
            let answers = try await withThrowingTaskGroup(of: (Int, Duration).self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let started = ContinuousClock.now
                        let answer = try await LiveServer.signIn(
                            port: port, "user\(index)", password: "wrong password", from: "192.0.2.\(index + 1)")
                        return (answer.status, ContinuousClock.now - started)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let refused = answers.filter { $0.0 == 503 }
            #expect(refused.count >= 5, "\(answers)")
            #expect(answers.filter { $0.0 == 401 }.count >= 1, "\(answers)")
            for (_, latency) in refused { #expect(latency < .milliseconds(200), "\(answers)") }
        }
    }
}
