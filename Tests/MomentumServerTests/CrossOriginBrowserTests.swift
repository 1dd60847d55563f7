import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumSQLite
import MomentumServer
import MomentumServices
import NIOCore
import NIOPosix
import Testing

/// The change stream read from a page on another origin, in a real headless Chromium: this
/// test starts a live server that allows the page origin `http://127.0.0.1:<page port>` and
/// runs `Tests/Browser/cross_origin_stream_test.py`, which serves the page, opens
/// `new EventSource(server + "/v1/stream?ticket=…")` with a ticket the page asked for, and
/// sees a change made through the API; the same page from `http://localhost:<page port>`,
/// an origin the server does not allow, cannot read the stream.
///
/// Nothing is skipped: without Chromium, chromedriver or Selenium the test fails.
@Suite(.serialized) struct CrossOriginBrowserTests {
    @Test(.timeLimit(.minutes(3))) func aPageOnAnAllowedOriginReadsTheStreamAndAnotherCannot() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-origins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appending(path: "origins.sqlite").path)
        try await store.migrate()
        let pagePort = try await Self.freePort()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        configuration.corsOrigins = ["http://127.0.0.1:\(pagePort)"]
        var logger = Logger(label: "momentum.origins-test")
        logger.logLevel = .warning
        let state = ServerState(store: store, configuration: configuration, logger: logger)
        do {
            try await buildApplication(state).test(.live) { client in
                let port = try #require(client.port)
                let (status, output) = try await BrowserTests.run(
                    "python3",
                    [
                        BrowserTests.repository.appending(path: "Tests/Browser/cross_origin_stream_test.py").path,
                        "--server", "http://127.0.0.1:\(port)", "--page-port", "\(pagePort)",
                    ])
                print(output)
                #expect(status == 0, "the cross-origin browser test failed:\n\(output)")
                #expect(output.contains("allowed origin: ticket, ready, change"), "\(output)")
                #expect(output.contains("disallowed origin: refused by the browser"), "\(output)")
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// A port nothing listens on now (the system's choice for a socket bound to port 0).
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }
}
