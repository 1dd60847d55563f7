import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumStore
import MomentumTestSupport
import NIOCore
import Synchronization
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

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

    let clock: TestClock
    let state: ServerState

    /// The other instances' states, when the harness runs several (``instances``).
    let others: [ServerState]

    init(
        store: any MomentumStore, adminToken: String? = "admin-secret", userLimit: Int = 0,
        secureCookies: Bool = false, configure: (inout ServerConfiguration) -> Void = { _ in }
    ) {
        let clock = TestClock()
        self.clock = clock
        let configuration = Self.configuration(
            clock: clock, adminToken: adminToken, userLimit: userLimit, secureCookies: secureCookies,
            configure: configure)
        state = ServerState(store: store, configuration: configuration, logger: Self.quietLogger)
        others = []
    }

    /// Instances on `stores` (one database), each with its relay.
    private init(
        stores: [PostgresStore], fence: RelayFence, clock: TestClock, configuration: ServerConfiguration,
        logger: Logger
    ) {
        self.clock = clock
        let states = stores.map { store in
            ServerState(
                store: store, configuration: configuration,
                relay: FencedRelay(PostgresRelay(store: store), fence: fence), logger: logger)
        }
        state = states[0]
        others = Array(states.dropFirst())
    }

    /// The test configuration: a cheap bcrypt, limits whose buckets never refill, the
    /// harness's clock.
    fileprivate static func configuration(
        clock: TestClock, adminToken: String?, userLimit: Int, secureCookies: Bool,
        configure: (inout ServerConfiguration) -> Void
    ) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.secureCookies = secureCookies
        configuration.bcryptCost = 4
        configuration.adminToken = adminToken
        configuration.userRequestsPerMinute = userLimit
        // The limits' buckets do not refill during a test, however slow the machine.
        configuration.rateLimitClock = { 0 }
        configuration.addressRequestsPerMinute = 0
        configuration.maxBodyBytes = 256 * 1024
        configuration.clock = { clock.value.withLock { $0 } }
        configure(&configuration)
        return configuration
    }

    /// Server instances per harness: 1, or what `MOMENTUM_TEST_INSTANCES` says (2 to 5).
    /// With more than one, every harness, whatever backend its test asks for, runs that
    /// many instances, each with its own PostgreSQL store (connection pool, engine cache,
    /// session cache) and relay, on one database, and the test's requests go to each in
    /// turn: issue 29's "the whole suite green with three server instances behind one
    /// PostgreSQL" (`Scripts/test` runs the route suites so).
    static let instances: Int = {
        guard let text = ProcessInfo.processInfo.environment["MOMENTUM_TEST_INSTANCES"], let count = Int(text) else {
            return 1
        }
        return min(max(count, 1), 5)
    }()

    var now: Date {
        clock.value.withLock { $0 }
    }

    /// The token of the owner every harness with an admin token starts with: what tests
    /// send to the admin routes (`Authorization: Bearer mop_harness-owner`), since the admin
    /// token itself only creates the first owner.
    static let ownerToken = "mop_harness-owner"
    /// The harness owner's email.
    static let ownerEmail = "owner@harness.test"
    /// The harness owner's password.
    static let ownerPassword = "harness-owner-password"
    /// `Authorization: Bearer <the harness owner's token>`.
    static let ownerHeaders: HTTPFields = [.authorization: "Bearer \(ownerToken)"]

    /// Creates the first owner with the admin token's use case, and a session for them
    /// whose token is ``ownerToken`` and which outlives any clock a test moves.
    func bootstrapOwner() async throws {
        let owner = try await state.services.operators.bootstrapOwner(
            email: Self.ownerEmail, name: "Harness Owner", password: Self.ownerPassword)
        try await state.store.createOperatorSession(
            OperatorSessionRecord(
                tokenHash: Tokens.hash(Self.ownerToken), operatorID: owner.id, kind: "api", csrf: "harness-csrf",
                createdAt: now, expiresAt: now.addingTimeInterval(100 * 365 * 86_400), lastSeenAt: now))
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

    /// Runs `body` against a fresh server.
    ///
    /// - Parameter owner: Whether the server starts with an owner (``bootstrapOwner()``):
    ///   by default, when it has an admin token.
    static func with<R: Sendable>(
        adminToken: String? = "admin-secret", owner: Bool? = nil, userLimit: Int = 0, secureCookies: Bool = false,
        logger: Logger? = nil, backend: Backend = .sqlite, configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (ServerHarness, any TestClientProtocol) async throws -> R
    ) async throws -> R {
        let owner = owner ?? (adminToken != nil)
        if instances > 1 {
            return try await severalInstances(
                instances, adminToken: adminToken, owner: owner, userLimit: userLimit, secureCookies: secureCookies,
                logger: logger, configure: configure, body)
        }
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(
                path: "momentum-server-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try SQLiteStore(path: directory.appending(path: "server.sqlite").path)
            return try await run(
                store, adminToken: adminToken, owner: owner, userLimit: userLimit, secureCookies: secureCookies,
                logger: logger, configure: configure, body)
        case .postgres:
            return try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_harness") { url in
                try await run(
                    try PostgresStore(url: url), adminToken: adminToken, owner: owner, userLimit: userLimit,
                    secureCookies: secureCookies, logger: logger, configure: configure, body)
            }
        }
    }

    private static func run<R: Sendable>(
        _ store: any MomentumStore, adminToken: String?, owner: Bool, userLimit: Int, secureCookies: Bool,
        logger: Logger?, configure: (inout ServerConfiguration) -> Void,
        _ body: @escaping @Sendable (ServerHarness, any TestClientProtocol) async throws -> R
    ) async throws -> R {
        try await store.migrate()
        let harness = ServerHarness(
            store: store, adminToken: adminToken, userLimit: userLimit, secureCookies: secureCookies,
            configure: configure)
        let router = buildRouter(harness.state)
        let app = logger.map { Application(router: router, logger: $0) } ?? Application(router: router)
        do {
            if owner { try await harness.bootstrapOwner() }
            let result = try await app.test(.router) { client in try await body(harness, client) }
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}

extension ServerHarness {
    /// Harnesses of several instances running at once: each holds a connection pool per
    /// instance and a listening connection per relay, and the test cluster allows 200.
    static let instanceSlots = AsyncSlots(4)

    /// Runs `body` with a client whose requests go to `count` instances in turn, each a
    /// router with the services of `buildApplication` (its relay's listener among them) on
    /// a store of its own, all on one fresh PostgreSQL database.
    fileprivate static func severalInstances<R: Sendable>(
        _ count: Int, adminToken: String?, owner: Bool, userLimit: Int, secureCookies: Bool, logger: Logger?,
        configure: (inout ServerConfiguration) -> Void,
        _ body: @escaping @Sendable (ServerHarness, any TestClientProtocol) async throws -> R
    ) async throws -> R {
        let clock = TestClock()
        var configuration = Self.configuration(
            clock: clock, adminToken: adminToken, userLimit: userLimit, secureCookies: secureCookies,
            configure: configure)
        // As in a single-instance harness, which runs no services: passes run when a test
        // asks (`runDueNotifications`, `runDueDeliveries`).
        configuration.notificationInterval = .zero
        configuration.deliveryInterval = .zero
        return try await instanceSlots.with { [configuration] in
            try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_instances") { url in
                let stores = try (0..<count).map { _ in try PostgresStore(url: url + "&pool=3") }
                let fence = RelayFence()
                let harness = ServerHarness(
                    stores: stores, fence: fence, clock: clock, configuration: configuration,
                    logger: logger ?? quietLogger)
                do {
                    try await stores[0].migrate()
                    if owner { try await harness.bootstrapOwner() }
                    let states = [harness.state] + harness.others
                    let result = try await nest(states[...], clients: [], logger: logger) { clients in
                        try await body(harness, RotatingClient(clients, states: states, fence: fence))
                    }
                    for store in stores { await store.close() }
                    return result
                } catch {
                    for store in stores { await store.close() }
                    throw error
                }
            }
        }
    }

    /// Starts each state's application in router-testing mode inside the previous one's,
    /// then runs `body` with all their clients once every relay listens.
    private static func nest<R: Sendable>(
        _ states: ArraySlice<ServerState>, clients: [any TestClientProtocol], logger: Logger?,
        _ body: @escaping @Sendable ([any TestClientProtocol]) async throws -> R
    ) async throws -> R {
        guard let first = states.first else { return try await body(clients) }
        return try await buildApplication(first).test(.router) { client in
            // An instance is ready once its relay listens (what /readyz says, asked without
            // a request that a test's log would see).
            let deadline = ContinuousClock.now + .seconds(120)
            while !first.relayListening.value {
                guard ContinuousClock.now < deadline else {
                    Issue.record("an instance's relay never listened")
                    break
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            return try await nest(states.dropFirst(), clients: clients + [client], logger: logger, body)
        }
    }
}

/// A client that sends each request to the next of several instances. Before each request
/// it waits until every instance has received the changes the others relayed (a session
/// revoked, a change for a stream), and brings the shared rate limits up to date: a phone's
/// next request comes at least a round trip after the last, the relay takes a few
/// milliseconds and the limits are shared every 100 ms, so a test that asked the next
/// instance at once would race them rather than test the server.
struct RotatingClient: TestClientProtocol {
    let clients: [any TestClientProtocol]
    let states: [ServerState]
    let fence: RelayFence
    private let turn = Turn()

    private final class Turn: Sendable {
        let next = Mutex(0)
    }

    init(_ clients: [any TestClientProtocol], states: [ServerState], fence: RelayFence) {
        self.clients = clients
        self.states = states
        self.fence = fence
    }

    var port: Int? { nil }

    /// Brings every instance's shared rate limits up to the counts of all (what their sync
    /// service does every 100 ms): twice, so that each learns the totals the others added.
    private func shareRateLimits() async throws {
        for _ in 0..<2 {
            for state in states {
                for limiter in state.sharedLimiters { try await limiter.flush(to: state.store) }
            }
        }
    }

    func executeRequest(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?
    ) async throws -> TestResponse {
        await fence.settle()
        try await shareRateLimits()
        let index = turn.next.withLock { next in
            defer { next = (next + 1) % clients.count }
            return next
        }
        return try await clients[index].executeRequest(uri: uri, method: method, headers: headers, body: body)
    }
}

/// Counts the changes each instance relayed and each received, so that a test can wait
/// until every instance has heard every other.
final class RelayFence: Sendable {
    private struct Counts {
        /// Messages sent, by the sending instance's id.
        var sent: [String: Int] = [:]
        /// Messages received from other instances, by the receiving instance's id.
        var received: [String: Int] = [:]
        /// Sends that failed, by the sending instance's id (no one will receive them).
        var failed: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())

    func sent(by instance: String) { counts.withLock { $0.sent[instance, default: 0] += 1 } }
    func failed(by instance: String) { counts.withLock { $0.failed[instance, default: 0] += 1 } }
    func received(by instance: String) { counts.withLock { $0.received[instance, default: 0] += 1 } }
    /// Counts an instance as listening from now on (so it must hear every other).
    func register(listener instance: String) {
        counts.withLock { counts in
            if counts.received[instance] == nil { counts.received[instance] = 0 }
        }
    }

    /// Whether every listening instance has received what every other sent.
    var settled: Bool {
        counts.withLock { counts in
            let total = counts.sent.values.reduce(0, +) - counts.failed.values.reduce(0, +)
            return counts.received.keys.allSatisfy { listener in
                let own = (counts.sent[listener] ?? 0) - (counts.failed[listener] ?? 0)
                return (counts.received[listener] ?? 0) >= total - own
            }
        }
    }

    /// Waits until ``settled`` (at most 30 s, then records an issue; the parallel pass can
    /// stall a loaded machine for seconds).
    func settle() async {
        let deadline = ContinuousClock.now + .seconds(30)
        while !settled {
            guard ContinuousClock.now < deadline else {
                Issue.record("the relay did not carry every change to every instance within 30 s")
                return
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// A relay that tells a ``RelayFence`` what it sends and receives.
struct FencedRelay: ChangeRelay {
    let relay: any ChangeRelay
    let fence: RelayFence

    init(_ relay: any ChangeRelay, fence: RelayFence) {
        self.relay = relay
        self.fence = fence
    }

    func publish(_ message: RelayMessage) async throws {
        fence.sent(by: message.instance)
        do {
            try await relay.publish(message)
        } catch {
            fence.failed(by: message.instance)
            throw error
        }
    }

    func post(_ message: RelayMessage, onFailure: @escaping @Sendable (any Error) -> Void) {
        let fence = self.fence
        fence.sent(by: message.instance)
        relay.post(message) { error in
            fence.failed(by: message.instance)
            onFailure(error)
        }
    }

    func flush() async { await relay.flush() }

    func listen(
        skipping instance: String?, onListening: @escaping @Sendable (Bool) -> Void,
        _ receive: @escaping @Sendable (RelayMessage) -> Void
    ) async throws {
        let fence = self.fence
        if let instance { fence.register(listener: instance) }
        try await relay.listen(skipping: instance, onListening: onListening) { message in
            receive(message)
            if let instance, message.instance != instance { fence.received(by: instance) }
        }
    }
}

/// At most a given number of bodies running at once.
actor AsyncSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    func with<R: Sendable>(_ body: @Sendable () async throws -> R) async throws -> R {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
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

/// The harness of several instances is what it claims: one database, several states, and
/// requests spread over all of them.
@Suite struct SeveralInstancesHarnessTests {
    @Test(.enabled(if: ServerHarness.instances > 1, "runs with MOMENTUM_TEST_INSTANCES=3 (Scripts/test)"))
    func requestsGoToEveryInstanceOfOneDatabase() async throws {
        try await ServerHarness.with { harness, client in
            let states = [harness.state] + harness.others
            #expect(states.count == ServerHarness.instances)
            for _ in states { #expect(try await client.call(.get, "/healthz").status == .ok) }
            for state in states {
                let metrics = String(
                    decoding: state.metrics.text(statistics: state.store.statistics, streams: state.hub.count),
                    as: UTF8.self)
                #expect(metrics.contains(#"http_requests_total{method="GET",route="/healthz",status="200"} 1"#))
            }
            // What one instance writes, another reads.
            let token = try await client.register("everywhere")
            for _ in states { #expect(try await client.call(.get, "/v1/profile", token: token).status == .ok) }
        }
    }
}
