import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumPostgres
import MomentumSQLite
import MomentumStore
import MomentumTestSupport
import ServiceLifecycle
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The store runs as a service of the application: a PostgreSQL store opened with
/// `StoreLifecycle.service` gets its connection pool from the service group, is migrated
/// before the first request, and a database that does not answer fails the start with a
/// clear error instead of a silent wait.
@Suite struct StoreServiceTests {
    static func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        return configuration
    }

    static var quiet: Logger {
        var logger = Logger(label: "momentum.store-service-test")
        logger.logLevel = .critical
        return logger
    }

    /// (Bounded in time: once, on a loaded CI machine, this test waited for ever after its
    /// requests; a hang must fail here, not hold the whole run.)
    @Test(.timeLimit(.minutes(3))) func aStoreThatRunsAsAServiceIsMigratedAndServes() async throws {
        try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_service") { url in
            // Not migrated, and its pool not running: the application does both.
            let store = try PostgresStore(url: url, lifecycle: .service)
            let state = ServerState(
                store: store, configuration: Self.configuration(), relay: store.makeRelay(), logger: Self.quiet)
            try await buildApplication(state).test(.live) { client in
                #expect(try await client.call(.get, "/readyz").status == .ok)
                let token = try await client.register("svc")
                let created = try await client.call(
                    .post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read"}"#)
                #expect(created.status == .created, "\(created.text)")
                let checkIn = try await client.call(.post, "/v1/habits/read/check-ins", token: token)
                #expect(checkIn.status == .ok, "\(checkIn.text)")
                // An email with NUL (which PostgreSQL text cannot hold; schemathesis found it):
                // a wrong sign-in and an invalid registration, not a 503.
                let nul = #"{"email": "a\u0000b@example.com", "password": "correct horse""#
                let signIn = try await client.call(.post, "/v1/sessions", json: nul + "}")
                #expect(signIn.status == .unauthorized, "\(signIn.text)")
                let register = try await client.call(.post, "/v1/accounts", json: nul + #", "displayName": "N"}"#)
                #expect(register.status == .unprocessableContent, "\(register.text)")
                #expect(register.errorFields == ["email"])
            }
            await store.close()
            // What the service wrote is in the database: another store reads it.
            let reader = try PostgresStore(url: url)
            let account = try await reader.account(email: "svc@example.com")
            let log = try await reader.events(of: try #require(account).id, after: 0, limit: 10)
            #expect(log.map(\.event.payload.type) == ["habit.created", "completion"])
            await reader.close()
        }
    }

    /// The notification scheduler and the sender start before the migration has run (their
    /// services start with the application); their first pass waits for it, so a server on a
    /// fresh database logs no "no such table" errors at start.
    @Test(.timeLimit(.minutes(1))) func backgroundPassesWaitForTheMigration() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appending(path: "fresh.sqlite").path)
        let recorder = LogRecorder()
        var logger = Logger(label: "momentum.start") { _ in RecordingLogHandler(recorder: recorder) }
        logger.logLevel = .error
        var configuration = Self.configuration()
        configuration.notificationInterval = .milliseconds(5)
        configuration.deliveryInterval = .milliseconds(5)
        let state = ServerState(store: store, configuration: configuration, logger: logger)
        try await buildApplication(state).test(.live) { client in
            #expect(try await client.call(.get, "/readyz").status == .ok)
            try await Task.sleep(for: .milliseconds(50))
        }
        await store.close()
        let errors = recorder.lines.withLock { $0.map(\.message) }
        #expect(errors.isEmpty, "\(errors)")
    }

    /// The message names the configured second, so the start ended on its own deadline (the
    /// default is 30 s); no wall-clock bound, which a loaded CI machine missed by 2 s.
    @Test(.timeLimit(.minutes(1))) func aDatabaseThatDoesNotAnswerFailsTheStartWithAClearError() async throws {
        // A port nothing listens on.
        let closed = try PostgresTestCluster.freePort()
        let store = try PostgresStore(
            url: "postgres://momentum@127.0.0.1:\(closed)/momentum?sslmode=disable", lifecycle: .service)
        var configuration = Self.configuration()
        configuration.databaseStartTimeout = .seconds(1)
        let app = buildApplication(ServerState(store: store, configuration: configuration, logger: Self.quiet))
        let error = await #expect(throws: StoreError.self) {
            try await ServiceGroup(services: [app], logger: Self.quiet).run()
        }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("did not answer within 1 s") == true, "\(String(describing: error))")
        await store.close()
    }
}
