import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumSQLite
import MomentumServer
import MomentumServices
import Testing

/// The operator's console in a real headless Chromium, driven by Selenium: this test starts
/// a live server on a fresh SQLite file with an owner and a viewer, and runs
/// `Tests/Browser/console_test.py` against it: sign-in (refused, then accepted), every
/// section of the navigation, an operator added through the form, the audit log, sign-out,
/// and a viewer's narrower console; on a phone's width and in dark mode too. Screenshots go
/// to `artifacts/screenshots/console-*.png`.
///
/// Nothing here is skipped: without Chromium, chromedriver or Selenium the test fails.
@Suite(.serialized) struct ConsoleBrowserTests {
    @Test(.timeLimit(.minutes(3))) func theConsoleWorksInARealBrowser() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appending(path: "console.sqlite").path)
        try await store.migrate()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        var logger = Logger(label: "momentum.console-browser-test")
        logger.logLevel = .warning
        let state = ServerState(store: store, configuration: configuration, logger: logger)
        let password = "correct horse battery"
        let owner = try await state.services.operators.bootstrapOwner(
            email: "owner@example.com", name: "Olive Owner", password: password)
        _ = try await state.services.operators.add(
            email: "viewer@example.com", name: "Vic Viewer", role: .viewer, password: password, by: owner.actor)
        let artifacts = BrowserTests.repository.appending(path: "artifacts/screenshots")
        do {
            try await buildApplication(state).test(.live) { client in
                let port = try #require(client.port)
                let (status, output) = try await BrowserTests.run(
                    "python3",
                    [
                        BrowserTests.repository.appending(path: "Tests/Browser/console_test.py").path,
                        "--base-url", "http://127.0.0.1:\(port)", "--artifacts", artifacts.path,
                        "--owner-email", "owner@example.com", "--viewer-email", "viewer@example.com",
                        "--password", password,
                    ])
                print(output)
                #expect(status == 0, "the console's browser walkthrough failed:\n\(output)")
                #expect(output.contains("console walkthrough: passed"), "\(output)")
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        let screenshots = (try? FileManager.default.contentsOfDirectory(atPath: artifacts.path)) ?? []
        #expect(screenshots.filter { $0.hasPrefix("console-") && $0.hasSuffix(".png") }.count >= 6, "\(screenshots)")
    }
}
