import ArgumentParser
import Foundation
import Logging
import MomentumPostgres
import MomentumServer
import MomentumServices
import MomentumStore
import ServiceLifecycle

/// `momentum serve`: the HTTP API (and web app) on SQLite or PostgreSQL.
///
/// Its settings are not ArgumentParser options: they are ``ServeSettings/table``, read by
/// ``SettingsReader`` from the flags, the environment and a config file through
/// swift-configuration, each setting defined once.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the Momentum server.",
        discussion: SettingsDocument.help)

    @Argument(parsing: .allUnrecognized, help: "Settings, as --name value (listed below).")
    var settings: [String] = []

    func run() async throws {
        let configuration: ServerConfiguration
        let location: String
        let topology: PostgresTopology
        do {
            let resolved = try await SettingsReader(
                arguments: settings, environment: ProcessInfo.processInfo.environment
            ).resolve()
            configuration = try resolved.settings.serverConfiguration()
            location = resolved.settings.database
            topology = resolved.settings.databaseTopology.topology
        } catch {
            throw refuse(error)
        }

        let tracing: (any Service)?
        do { tracing = try Self.bootstrapObservability(configuration) } catch { throw refuse(error) }
        let logger = Logger(label: "momentum")
        let opened: any MomentumStore
        do {
            // Migrated by the application, once its service group runs the store's pool.
            opened = try await StoreOptions.open(
                location: location, topology: topology, engineCacheCapacity: configuration.engineCacheCapacity,
                engineCacheBytes: configuration.engineCacheMegabytes * 1_048_576, lifecycle: .service, migrate: false)
        } catch {
            throw fail(error)
        }
        let state = ServerState(store: opened, configuration: configuration, relay: opened.makeRelay(), logger: logger)
        let demo = configuration.demo
        let url = "http://\(configuration.host):\(configuration.port)/"
        let app = buildApplication(state) {
            if demo {
                try await DemoAccount.install(in: opened, now: Date())
                logger.notice(
                    "demo account ready",
                    metadata: ["email": .string(DemoAccount.email), "password": .string(DemoAccount.password)])
                if try await DemoAccount.installOwner(state.services.operators) {
                    logger.notice(
                        "demo console owner ready",
                        metadata: [
                            "console": .string(url + "console"), "email": .string(DemoAccount.ownerEmail),
                            "password": .string(DemoAccount.ownerPassword),
                        ])
                }
            }
            logger.notice(
                "Momentum is listening",
                metadata: [
                    "url": .string(url),
                    "database": .string(location.hasPrefix("postgres") ? "postgresql" : location),
                ])
        }
        do {
            if let tracing {
                // Stopped after the application, so that the last requests' spans leave.
                try await ServiceGroup(
                    configuration: .init(
                        services: [.init(service: tracing), .init(service: app)],
                        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
                ).run()
            } else {
                try await app.runService()
            }
        } catch {
            await opened.close()
            throw fail(error)
        }
        await opened.close()
    }
}

/// Prints a refused setting and exits with 78 (`EX_CONFIG`).
func refuse(_ error: any Error) -> ExitCode {
    FileHandle.standardError.write(Data("momentum: \(error)\n".utf8))
    return ExitCode(78)
}
