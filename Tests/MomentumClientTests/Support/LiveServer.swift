import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import MomentumPostgres
import MomentumSQLite
import MomentumServer
import MomentumServices
import MomentumStore
import MomentumTestSupport
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing

/// The storage backends every client test runs against.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// The instant the tests' clocks start at, and a clock they move; or the real clock, for
/// tests whose clients run in processes of their own.
final class TestClock: Sendable {
    let value = Mutex(Date(timeIntervalSince1970: 1_784_000_000))  // 2026-07-14T03:33:20Z
    let real: Bool
    init(real: Bool = false) { self.real = real }
    var now: Date { real ? Date() : value.withLock { $0 } }
    func advance(days: Double) { value.withLock { $0 += days * 86_400 } }
    func advance(seconds: Double) { value.withLock { $0 += seconds } }
}

/// Where one test's server keeps its data, so that a restarted server finds it again.
struct ServerData: Sendable {
    let backend: Backend
    let location: String

    /// Runs `body` with a fresh, empty place for `backend`'s data, removed afterwards.
    static func with<R: Sendable>(_ backend: Backend, _ body: (ServerData) async throws -> R) async throws -> R {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-client-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            return try await body(
                ServerData(backend: .sqlite, location: directory.appending(path: "server.sqlite").path))
        case .postgres:
            return try await PostgresTestCluster.shared.withDatabase(prefix: "client") { url in
                try await body(ServerData(backend: .postgres, location: url))
            }
        }
    }

    func openStore() async throws -> any MomentumStore {
        let store: any MomentumStore =
            switch backend {
            case .sqlite: try SQLiteStore(path: location)
            case .postgres: try PostgresStore(url: location)
            }
        try await store.migrate()
        return store
    }
}

/// A Momentum server on a real loopback socket, which a test can stop and start again on
/// the same port and data.
final class LiveServer: Sendable {
    let port: Int
    let data: ServerData
    let clock: TestClock
    let configure: @Sendable (inout ServerConfiguration) -> Void
    private let running = Mutex<(task: Task<Void, any Error>, store: any MomentumStore)?>(nil)

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(
        port: Int, data: ServerData, clock: TestClock,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void
    ) {
        self.port = port
        self.data = data
        self.clock = clock
        self.configure = configure
    }

    /// Starts a server on a free port and waits until it answers.
    static func start(
        _ data: ServerData, clock: TestClock,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> LiveServer {
        // A port found free may be taken by another suite's server (a webhook receiver, say)
        // before this one binds it: then another port is tried.
        for _ in 0..<4 {
            let server = LiveServer(port: try freePort(), data: data, clock: clock, configure: configure)
            if try await server.start(recording: false) { return server }
            await server.stop()
        }
        let server = LiveServer(port: try freePort(), data: data, clock: clock, configure: configure)
        try await server.start()
        return server
    }

    /// Starts the server again (on the same port and data) and waits until it answers.
    func start() async throws {
        _ = try await start(recording: true)
    }

    /// Starts the server and waits until it answers; whether it did. A server that could
    /// not start is an issue of the test when `recording`.
    private func start(recording: Bool) async throws -> Bool {
        let store = try await data.openStore()
        var configuration = ServerConfiguration()
        configuration.port = port
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        configuration.idleTimeoutSeconds = 0
        let clock = self.clock
        configuration.clock = { clock.now }
        configure(&configuration)
        var logger = Logger(label: "momentum.client-test")
        logger.logLevel = .critical
        let app = buildApplication(ServerState(store: store, configuration: configuration, logger: logger))
        // A server that could not start (its port taken meanwhile, say) says why, instead of
        // leaving the wait below to answer "never answered" (or another server to answer).
        let failure = StartFailure()
        let task = Task {
            do {
                try await app.runService(gracefulShutdownSignals: [])
            } catch {
                failure.error.withLock { $0 = error }
                throw error
            }
        }
        running.withLock { $0 = (task, store) }
        // Generous: on a CI machine running every suite at once, a start has taken over 20 s.
        let deadline = ContinuousClock.now + .seconds(90)
        // A bind refused (the port taken meanwhile) fails at once: wait for that before
        // asking, so that no request goes to the server holding the port.
        try await Task.sleep(for: .milliseconds(50))
        while ContinuousClock.now < deadline {
            if let error = failure.error.withLock({ $0 }) {
                if recording { Issue.record("the server on port \(port) did not start: \(error)") }
                return false
            }
            // Its own answer, not another server's on a port taken meanwhile.
            if let health = try? await RawHTTP.get(url.appending(path: "healthz")), health.status == 200,
                health.json["status"] as? String == "ok"
            {
                // A bind that failed after another server answered is seen here.
                try await Task.sleep(for: .milliseconds(50))
                if failure.error.withLock({ $0 }) == nil { return true }
                continue
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        if recording { Issue.record("the server on port \(port) never answered") }
        return false
    }

    /// Stops the server: it stops listening and its store closes.
    func stop() async {
        guard
            let (task, store) = running.withLock({ value in
                defer { value = nil }; return value
            })
        else { return }
        task.cancel()
        _ = await task.result
        await store.close()
    }

    /// Runs `body` with a started server, stopping it afterwards.
    static func with<R: Sendable>(
        _ backend: Backend, clock: TestClock = TestClock(),
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: (LiveServer) async throws -> R
    ) async throws -> R {
        try await ServerData.with(backend) { data in
            let server = try await LiveServer.start(data, clock: clock, configure: configure)
            do {
                let result = try await body(server)
                await server.stop()
                return result
            } catch {
                await server.stop()
                throw error
            }
        }
    }

    /// A port nothing listens on now (the kernel's choice, released at once).
    static func freePort() throws -> Int {
        let group = MultiThreadedEventLoopGroup.singleton
        let channel = try ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).wait()
        let port = channel.localAddress?.port ?? 0
        try channel.close().wait()
        return port
    }
}

/// Plain HTTP calls, outside the client under test.
enum RawHTTP {
    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    }

    static func get(_ url: URL, token: String? = nil) async throws -> Answer {
        try await send(url, method: .GET, token: token)
    }

    static func send(_ url: URL, method: HTTPMethod, token: String? = nil, json: String? = nil) async throws -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        return Answer(status: Int(response.status.code), body: Array(buffer: body))
    }

    /// Signs a device in with a password and returns its token.
    static func signIn(_ server: LiveServer, email: String, device: String) async throws -> String {
        let answer = try await send(
            server.url.appending(path: "v1/sessions"), method: .POST,
            json: #"{"email": "\#(email)", "password": "correct horse", "deviceName": "\#(device)"}"#)
        #expect(answer.status == 201, "\(String(decoding: answer.body, as: UTF8.self))")
        return answer.json["token"] as? String ?? ""
    }
}

/// Why a server's start failed, set by its task and read by the wait for its first answer.
private final class StartFailure: Sendable {
    let error = Mutex<(any Error)?>(nil)
}
