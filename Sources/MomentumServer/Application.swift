import Foundation
import Hummingbird
import Logging
import MomentumCore
import MomentumStore
import ServiceLifecycle

/// Builds the Momentum server: the router with every route and middleware, on the given
/// store.
///
/// ```swift
/// let store = try SQLiteStore(path: "momentum.sqlite")
/// try await store.migrate()
/// let app = buildApplication(ServerState(store: store, configuration: ServerConfiguration()))
/// try await app.runService()
/// ```
public func buildApplication(_ server: ServerState) -> some ApplicationProtocol {
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
    if let relay = server.relay {
        app.addServices(RelayService(relay: relay, server: server))
    }
    if !server.sharedLimiters.isEmpty {
        app.addServices(RateLimitSyncService(server: server))
    }
    return app
}

/// The router alone (the tests drive it without a socket).
public func buildRouter(_ server: ServerState) -> Router<MomentumContext> {
    let router = Router(context: MomentumContext.self)
    router.add(middleware: NoSniffMiddleware())
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: MetricsMiddleware(metrics: server.metrics))
    if !server.configuration.corsOrigins.isEmpty {
        router.add(middleware: CORS(origins: Set(server.configuration.corsOrigins)))
    }
    router.add(
        middleware: AddressRateLimitMiddleware(limiter: server.addressLimiter, proxies: server.trustedProxies))
    Routes(server: server).register(on: router)
    return router
}

/// Receives other instances' changes for as long as the server runs.
struct RelayService: Service {
    let relay: any ChangeRelay
    let server: ServerState

    func run() async throws {
        let server = self.server
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
