import Foundation
import Hummingbird
import Logging
import MomentumCore
@_spi(Testing) import MomentumServices
import MomentumStore
import ServiceLifecycle
import Tracing

/// Builds the Momentum server: the router with every route and middleware on the given
/// state, and the services that run beside it.
///
/// The application's service group starts, in order, the store (a PostgreSQL store opened
/// with `StoreLifecycle.service` runs its connection pool there), the relay that receives
/// other instances' changes, and the service that flushes shared rate limits; then the
/// store is migrated (within `ServerConfiguration.databaseStartTimeout`) and `prepare` runs; then the HTTP server starts. At graceful shutdown
/// (SIGINT, SIGTERM) they stop in the reverse order: the server finishes its requests,
/// the relay sends the changes still waiting, and the store's pool stops last. Closing the
/// store stays the caller's, once the application has returned.
///
/// ```swift
/// let store = try PostgresStore(url: url, lifecycle: .service)
/// let app = buildApplication(ServerState(store: store, configuration: ServerConfiguration(), relay: store.makeRelay()))
/// try await app.runService()
/// await store.close()
/// ```
///
/// - Parameters:
///   - server: The shared state: store, configuration, use cases.
///   - prepare: Work to do once the store is migrated and before the server accepts
///     requests (installing the demo account, say).
public func buildApplication(
    _ server: ServerState, prepare: @escaping @Sendable () async throws -> Void = {}
) -> some ApplicationProtocol {
    let router = buildRouter(server)
    let idle = server.configuration.idleTimeoutSeconds
    var app = Application(
        router: router,
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [ConnectionCloseHandler()],
                idleTimeout: idle > 0 ? .seconds(Int64(idle)) : nil)),
        configuration: .init(
            address: .hostname(server.configuration.host, port: server.configuration.port), serverName: "Momentum"),
        logger: server.logger)
    app.addServices(server.store)
    if let admin = server.configuration.observability.adminAddress {
        app.addServices(buildAdminListener(server, host: admin.host, port: admin.port))
    }
    if let relay = server.relay {
        app.addServices(RelayService(relay: relay, server: server))
    }
    if !server.sharedLimiters.isEmpty {
        app.addServices(RateLimitSyncService(server: server))
    }
    // Background passes read tables the migration creates: they begin once it has run.
    let migrated = StartGate()
    if server.configuration.notificationInterval > .zero {
        app.addServices(
            PeriodicService(
                name: "notification scheduler", interval: server.configuration.notificationInterval,
                logger: server.logger, after: migrated, pass: { _ = try await server.services.notifications.runDue() }))
    }
    if server.configuration.deliveryInterval > .zero {
        app.addServices(
            PeriodicService(
                name: "delivery", interval: server.configuration.deliveryInterval, logger: server.logger,
                after: migrated, pass: { _ = try await server.services.deliveries.runDue() }))
    }
    if server.configuration.deliveryInterval > .zero {
        // Amnesty jobs whose instance stopped are resumed at the delivery pass's pace.
        app.addServices(
            PeriodicService(
                name: "amnesty", interval: server.configuration.deliveryInterval, logger: server.logger,
                after: migrated, pass: { try await server.services.amnesties.resumeStale() }))
    }
    if server.configuration.mail.interval > .zero, server.configuration.mail.smtpURL != nil {
        app.addServices(
            PeriodicService(
                name: "mail", interval: server.configuration.mail.interval, logger: server.logger,
                after: migrated, pass: { _ = try await server.services.mail.runDue() }))
    }
    // What-if runs whose instance stopped (their lease ran out) are resumed here.
    if server.configuration.deliveryInterval > .zero {
        app.addServices(
            PeriodicService(
                name: "what-if", interval: .seconds(15), logger: server.logger, after: migrated,
                pass: { try await server.services.whatIf.resumeStale() }))
    }
    // The active uploaded packs, read again every few seconds: an activation on another
    // instance is in force here within that time.
    app.addServices(
        PeriodicService(
            name: "pack refresh", interval: .seconds(max(1, server.configuration.packs.refreshSeconds)),
            logger: server.logger, after: migrated, pass: { try await server.services.packs.refresh() }))
    if server.configuration.memoryTrimInterval > .zero, MemoryTrim.available {
        let trim = MemoryTrim()
        app.addServices(
            PeriodicService(
                name: "memory trim", interval: server.configuration.memoryTrimInterval, logger: server.logger,
                after: migrated, pass: { trim.afterEvictions(server.store.statistics.engineCache) }))
    }
    let store = server.store
    let deadline = server.configuration.databaseStartTimeout
    app.beforeServerStarts {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.migrate() }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw StoreError(
                    .unavailable,
                    "the database did not answer within \(deadline.components.seconds) s: is it running, and is its URL right?"
                )
            }
            try await group.next()
            group.cancelAll()
        }
        try await prepare()
        try await server.services.packs.refresh()
        await migrated.open()
    }
    return app
}

/// The router alone (the tests drive it without a socket).
public func buildRouter(_ server: ServerState) -> Router<MomentumContext> {
    buildRouter(server, tracing: true)
}

/// The router, with or without the tracing middleware (the benchmark's baseline has none).
@_spi(Benchmarks) public func buildRouter(_ server: ServerState, tracing: Bool) -> Router<MomentumContext> {
    let router = Router(context: MomentumContext.self)
    // Outermost, so that every other middleware's work is in the request's span.
    if tracing { router.add(middleware: RequestTracingMiddleware()) }
    if !server.configuration.answerRenames.isEmpty {
        router.add(middleware: AnswerFormMiddleware(renames: server.configuration.answerRenames))
    }
    router.add(middleware: NoSniffMiddleware())
    let deprecations = DeprecationMiddleware(document: server.configuration.apiDocument)
    if !deprecations.notices.isEmpty { router.add(middleware: deprecations) }
    // Outside the request log, which turns errors into answers: a refusal carries CORS
    // headers too, so a page on an allowed origin can read why it was refused.
    let cors = CORSPolicy(server.configuration)
    if !cors.isEmpty { router.add(middleware: CORS(policy: cors)) }
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: MetricsMiddleware(metrics: server.metrics))
    router.add(
        middleware: AddressRateLimitMiddleware(limiter: server.addressLimiter, proxies: server.trustedProxies))
    Routes(server: server).register(on: router)
    return router
}

/// The admin listener (`ServerConfiguration.observability.adminPort`): `/healthz`,
/// `/livez`, `/readyz` and `/metrics`, which the public router then leaves out. It starts
/// with the store, before the migration, so that a probe gets an answer (not ready) while
/// the server is still starting.
func buildAdminListener(_ server: ServerState, host: String, port: Int) -> some Service {
    let router = Router(context: MomentumContext.self)
    router.add(middleware: RequestLogMiddleware())
    OperationsController(server: server).addProbes(to: router)
    return Application(
        router: router, configuration: .init(address: .hostname(host, port: port), serverName: "Momentum"),
        onServerRunning: { channel in
            server.logger.notice(
                "admin listener ready", metadata: ["address": "\(channel.localAddress.map { "\($0)" } ?? "?")"])
        }, logger: server.logger)
}

/// Runs a pass of background work every interval for as long as the server runs: the
/// notification scheduler (`ServerConfiguration.notificationInterval`) and the sender to
/// devices and webhooks (`ServerConfiguration.deliveryInterval`). A failed pass is
/// logged and the next one comes on time; work a pass claimed and did not finish is taken
/// again when its lease ends, by this instance or another.
///
/// At graceful shutdown a pass under way finishes (its queries are not cut off halfway, so
/// the store's pool, which stops after this service, finds every connection returned); the
/// wait for the migration or for the next pass ends at once.
struct PeriodicService: Service {
    let name: String
    let interval: Duration
    let logger: Logger
    /// The first pass waits for this gate (the store migrated).
    let after: StartGate
    let pass: @Sendable () async throws -> Void

    func run() async throws {
        let after = self.after
        let interval = self.interval
        await cancelWhenGracefulShutdown { await after.wait() }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                // A root span: no request asked for this work.
                try await withSpan(name, context: .topLevel, ofKind: .internal) { _ in try await pass() }
            } catch {
                logger.error("\(name) pass failed", metadata: ["error": "\(error)"])
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return  // The sleep ended early: the shutdown (or a cancellation) came.
            }
        }
    }
}

/// A gate that opens once: services wait at it until the application is ready for them
/// (the store migrated). A waiting task that is cancelled stops waiting.
actor StartGate {
    private var isOpen = false
    private var waiters: [AsyncStream<Void>.Continuation] = []

    /// Waits until the gate opens or the task is cancelled.
    func wait() async {
        guard !isOpen else { return }
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        waiters.append(continuation)
        for await _ in stream {}
    }

    /// Opens the gate for every waiter, now and later.
    func open() {
        isOpen = true
        for waiter in waiters { waiter.finish() }
        waiters = []
    }
}

/// Receives other instances' changes for as long as the server runs.
struct RelayService: Service {
    let relay: any ChangeRelay
    let server: ServerState

    func run() async throws {
        let server = self.server
        do {
            try await listen(server)
        } catch is CancellationError where Task.isShuttingDownGracefully {
            // Listening ends with the graceful shutdown; that is no failure.
        }
        // Stopped by the graceful shutdown, after the HTTP server: the changes its last
        // requests published leave before the store's pool stops.
        await server.flushRelay()
    }

    private func listen(_ server: ServerState) async throws {
        try await cancelWhenGracefulShutdown {
            try await relay.listen(
                skipping: server.instance,
                onListening: { listening in
                    // Sessions revoked elsewhere while no revocations arrived are read again.
                    if listening { server.sessions.forgetAll() }
                    server.relayListening.set(listening)
                    server.logger.info(listening ? "relay listening" : "relay lost its connection")
                }
            ) { message in server.receive(message) }
        }
    }
}
