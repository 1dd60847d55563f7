import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumServer
import MomentumStore
import MomentumTestSupport
import NIOCore
import Synchronization
import Testing

/// A server on a fresh SQLite store with a clock the test moves.
final class TestClock: Sendable {
    let value = Mutex(Date(timeIntervalSince1970: 1_784_000_000))  // 2026-07-14T03:33:20Z
}

final class ServerHarness: Sendable {
    /// Warnings and errors only: a line for every request of every suite buries a failure.
    static var quietLogger: Logger {
        var logger = Logger(label: "momentum.test")
        logger.logLevel = .warning
        return logger
    }

    let clock = TestClock()
    let state: ServerState

    init(
        store: any MomentumStore, adminToken: String? = "admin-secret", userLimit: Int = 0,
        secureCookies: Bool = false, configure: (inout ServerConfiguration) -> Void = { _ in }
    ) {
        var configuration = ServerConfiguration()
        configuration.secureCookies = secureCookies
        configuration.bcryptCost = 4
        configuration.adminToken = adminToken
        configuration.userRequestsPerMinute = userLimit
        // The limits' buckets do not refill during a test, however slow the machine.
        configuration.rateLimitClock = { 0 }
        configuration.addressRequestsPerMinute = 0
        configuration.maxBodyBytes = 256 * 1024
        let clock = self.clock
        configuration.clock = { clock.value.withLock { $0 } }
        configure(&configuration)
        state = ServerState(store: store, configuration: configuration, logger: Self.quietLogger)
    }

    var now: Date {
        clock.value.withLock { $0 }
    }

    /// Registers a user whose account was created `daysAgo` days before now (events may
    /// not be dated before their account), leaving the clock at now.
    func register(
        _ name: String, zone: String = "Europe/Berlin", daysAgo: Double, client: any TestClientProtocol
    ) async throws -> String {
        clock.value.withLock { $0 -= daysAgo * 86_400 }
        defer { clock.value.withLock { $0 += daysAgo * 86_400 } }
        return try await client.register(name, zone: zone)
    }

    /// The storage a harness runs on.
    enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sqlite
        case postgres
        var testDescription: String { rawValue }
    }

    static func with<R: Sendable>(
        adminToken: String? = "admin-secret", userLimit: Int = 0, secureCookies: Bool = false,
        logger: Logger? = nil, backend: Backend = .sqlite, configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (ServerHarness, any TestClientProtocol) async throws -> R
    ) async throws -> R {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(
                path: "momentum-server-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try SQLiteStore(path: directory.appending(path: "server.sqlite").path)
            return try await run(
                store, adminToken: adminToken, userLimit: userLimit, secureCookies: secureCookies, logger: logger,
                configure: configure, body)
        case .postgres:
            return try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_harness") { url in
                try await run(
                    try PostgresStore(url: url), adminToken: adminToken, userLimit: userLimit,
                    secureCookies: secureCookies, logger: logger, configure: configure, body)
            }
        }
    }

    private static func run<R: Sendable>(
        _ store: any MomentumStore, adminToken: String?, userLimit: Int, secureCookies: Bool, logger: Logger?,
        configure: (inout ServerConfiguration) -> Void,
        _ body: @escaping @Sendable (ServerHarness, any TestClientProtocol) async throws -> R
    ) async throws -> R {
        try await store.migrate()
        let harness = ServerHarness(
            store: store, adminToken: adminToken, userLimit: userLimit, secureCookies: secureCookies,
            configure: configure)
        let router = buildRouter(harness.state)
        let app = logger.map { Application(router: router, logger: $0) } ?? Application(router: router)
        do {
            let result = try await app.test(.router) { client in try await body(harness, client) }
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}

/// A JSON response, decoded loosely.
struct JSONResponse {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer

    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }

    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    var errorFields: [String] {
        ((json["error"] as? [String: Any])?["details"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
    }
    var text: String { String(buffer: body) }
}

extension TestClientProtocol {
    func call(
        _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: String? = nil,
        bytes: [UInt8]? = nil, headers extra: HTTPFields = [:]
    ) async throws -> JSONResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            body = ByteBuffer(string: json)
        }
        if let bytes { body = ByteBuffer(bytes: bytes) }
        let response = try await execute(uri: uri, method: method, headers: headers, body: body) { response in
            JSONResponse(status: response.status, headers: response.headers, body: response.body)
        }
        // Every JSON answer of every router test is checked against openapi.json.
        if response.headers[.contentType]?.hasPrefix("application/json") == true {
            OpenAPIContract.shared.check(
                method: method.rawValue, uri: uri, status: response.status.code, body: response.body)
        }
        return response
    }

    /// Registers a user and returns their token.
    func register(_ name: String, zone: String = "Europe/Berlin", pack: String? = nil) async throws -> String {
        let packField = pack.map { #", "pack": "\#($0)""# } ?? ""
        let response = try await call(
            .post, "/v1/accounts",
            json:
                #"{"email": "\#(name)@example.com", "password": "correct horse", "displayName": "\#(name)", "timeZone": "\#(zone)", "deviceName": "phone"\#(packField)}"#
        )
        #expect(response.status == .created, "\(response.text)")
        return response.json["token"] as? String ?? ""
    }
}

/// Events as JSON lines for a push.
func eventsJSON(_ events: [String]) -> String { #"{"events": [\#(events.joined(separator: ","))]}"# }

func completion(_ id: String, habit: String, at: Date, zone: String = "Europe/Berlin", extra: String = "") -> String {
    #"{"id": "\#(id)", "type": "completion", "at": "\#(RFC3339.format(at))", "tz": "\#(zone)", "habit": "\#(habit)"\#(extra)}"#
}

func habitCreated(_ id: String, at: Date, zone: String = "Europe/Berlin") -> String {
    #"{"id": "create-\#(id)", "type": "habit.created", "at": "\#(RFC3339.format(at))", "tz": "\#(zone)", "habit": "\#(id)", "name": "\#(id.capitalized)"}"#
}
