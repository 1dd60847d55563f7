import ArgumentParser
import Foundation
import Logging
import MomentumCore
import MomentumPostgres
import MomentumServer
import MomentumStore

/// `momentum serve`: the HTTP API (and web app) on SQLite or PostgreSQL.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the Momentum server.",
        discussion: """
            Every option can also be set with an environment variable: MOMENTUM_HOST, MOMENTUM_PORT, \
            MOMENTUM_DATABASE, MOMENTUM_PACK, MOMENTUM_DEMO=1, MOMENTUM_CORS_ORIGINS (comma-separated), \
            MOMENTUM_ADMIN_TOKEN, MOMENTUM_LOG_LEVEL, MOMENTUM_BCRYPT_COST, MOMENTUM_SECURE_COOKIES=1. \
            A request forwarded with X-Forwarded-Proto: https always gets a Secure cookie. \
            Flags win over the environment.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "The address to listen on (default 127.0.0.1).") var host: String?
    @Option(help: "The port to listen on (default 8080).") var port: Int?
    @Option(help: "The rule pack for new accounts: habits, ollie, savings or growth (default habits).")
    var pack: String?
    @Flag(help: "Create the demo account (\(DemoAccount.email) / \(DemoAccount.password)).") var demo = false
    @Option(help: "Origins allowed to call the API from browsers, comma-separated; * for any.")
    var corsOrigins: String?
    @Option(help: "The bearer token of the admin endpoints (off when unset).") var adminToken: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (default info).") var logLevel: String?
    @Option(help: "bcrypt's cost for new passwords, 4 to 16 (default 12).") var bcryptCost: Int?
    @Flag(
        help: "Mark the web app's session cookie Secure (HTTPS only), as behind a TLS-terminating proxy.")
    var secureCookies = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = ServerConfiguration()
        configuration.host = host ?? environment["MOMENTUM_HOST"] ?? configuration.host
        if let value = port ?? environment["MOMENTUM_PORT"].flatMap(Int.init) {
            guard (0...65_535).contains(value) else { throw ValidationError("--port must be 0 to 65535") }
            configuration.port = value
        }
        configuration.pack = pack ?? environment["MOMENTUM_PACK"] ?? configuration.pack
        guard RulePack.bundled[configuration.pack] != nil else {
            throw ValidationError(
                "unknown pack '\(configuration.pack)'; bundled: \(RulePack.bundled.keys.sorted().joined(separator: ", "))"
            )
        }
        configuration.demo = demo || ["1", "true", "yes"].contains(environment["MOMENTUM_DEMO"]?.lowercased() ?? "")
        configuration.corsOrigins = (corsOrigins ?? environment["MOMENTUM_CORS_ORIGINS"] ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        configuration.adminToken = adminToken ?? environment["MOMENTUM_ADMIN_TOKEN"]
        configuration.secureCookies =
            secureCookies || ["1", "true", "yes"].contains(environment["MOMENTUM_SECURE_COOKIES"]?.lowercased() ?? "")
        if let text = logLevel ?? environment["MOMENTUM_LOG_LEVEL"] {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
            }
            configuration.logLevel = level
        }
        if let cost = bcryptCost ?? environment["MOMENTUM_BCRYPT_COST"].flatMap(Int.init) {
            guard (4...16).contains(cost) else { throw ValidationError("--bcrypt-cost must be 4 to 16") }
            configuration.bcryptCost = UInt8(cost)
        }

        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in MomentumLogHandler(label: label, level: level) }
        let logger = Logger(label: "momentum")
        let opened: any MomentumStore
        do {
            opened = try await store.open(engineCacheCapacity: configuration.engineCacheCapacity)
        } catch {
            throw fail(error)
        }
        let relay = (opened as? PostgresStore).map { PostgresRelay(store: $0) }
        if configuration.demo {
            try await DemoAccount.install(in: opened, now: Date())
            logger.notice(
                "demo account ready",
                metadata: ["email": .string(DemoAccount.email), "password": .string(DemoAccount.password)])
        }
        let state = ServerState(store: opened, configuration: configuration, relay: relay, logger: logger)
        let app = buildApplication(state)
        logger.notice(
            "Momentum is listening",
            metadata: [
                "url": .string("http://\(configuration.host):\(configuration.port)/"),
                "database": .string(store.location.hasPrefix("postgres") ? "postgresql" : store.location),
            ])
        try await app.runService()
        await state.flushRelay()
        await opened.close()
    }
}
