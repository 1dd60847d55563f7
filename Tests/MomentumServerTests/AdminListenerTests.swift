import Foundation
import MomentumServer
import MomentumServices
import Testing

/// The admin listener (`adminHost`, `adminPort`): the probes and the metrics answer there
/// and only there; without one they stay on the public port.
@Suite(.serialized) struct AdminListenerTests {
    static let probes = ["/healthz", "/livez", "/readyz", "/metrics"]

    /// The answer of the admin listener, once it listens (it starts beside the server).
    static func ask(_ port: Int, _ path: String) async throws -> RawHTTP.Answer {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            do { return try await RawHTTP.send(port: port, "GET", path) } catch {
                if ContinuousClock.now > deadline { throw error }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// The port the admin listener bound, from its "admin listener ready" line (its address,
    /// `[IPv4]127.0.0.1/127.0.0.1:41234`).
    static func adminPort(_ recorder: LogRecorder) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let address = recorder.lines.withLock { lines in
                lines.first { $0.message == "admin listener ready" }?.metadata["address"]
            }
            if let address, let port = address.split(separator: ":").last.flatMap({ Int($0) }) { return port }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw AdminListenerNotReady()
    }

    struct AdminListenerNotReady: Error {}

    /// Both listeners on port 0: a port chosen free beforehand can be taken by another
    /// suite's server before this one binds it, and then the start would hang (see
    /// ``LiveServer``).
    @Test func probesAndMetricsAnswerOnTheAdminListenerOnlyAndThePublicPortSays404() async throws {
        let recorder = LogRecorder()
        try await LiveServer.with(recorder: recorder) { configuration in
            configuration.observability.adminHost = "127.0.0.1"
            configuration.observability.adminPort = 0
        } _: { port in
            let admin = try await Self.adminPort(recorder)
            #expect(admin != port)
            for path in Self.probes {
                let answer = try await Self.ask(admin, path)
                #expect(answer.status == 200, "admin \(path): \(answer.raw)")
                #expect(try await RawHTTP.send(port: port, "GET", path).status == 404, "public \(path)")
            }
            #expect(try await Self.ask(admin, "/readyz").body.contains("ready"))
            #expect(try await Self.ask(admin, "/metrics").body.contains("# TYPE"))
            // The public port still serves the API and its document; the admin one only the probes.
            #expect(try await RawHTTP.send(port: port, "GET", "/openapi.json").status == 200)
            #expect(try await Self.ask(admin, "/openapi.json").status == 404)
            #expect(try await Self.ask(admin, "/v1/today").status == 404)
        }
    }

    @Test func withoutAnAdminListenerTheProbesStayOnThePublicPort() async throws {
        try await LiveServer.with { _ in
        } _: { port in
            for path in Self.probes {
                let answer = try await RawHTTP.send(port: port, "GET", path)
                #expect(answer.status == 200, "\(path): \(answer.raw)")
            }
        }
    }

    @Test func anAdminHostWithoutAPortOrTheSamePortAsThePublicOneIsRefused() {
        var configuration = ServerConfiguration()
        configuration.observability.adminHost = "0.0.0.0"
        #expect(throws: (any Error).self) { try configuration.check() }
        configuration.observability.adminPort = configuration.port
        #expect(throws: (any Error).self) { try configuration.check() }
        configuration.observability.adminPort = configuration.port + 1
        #expect(throws: Never.self) { try configuration.check() }
    }
}
