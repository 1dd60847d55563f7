import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumSQLite
import MomentumServer
import MomentumServices
import MomentumStore
import Synchronization
import Testing

/// The web app in a real headless Chromium (Debian's), driven by Selenium: this test starts
/// a live server with the demo account on a fresh SQLite file and runs
/// `Tests/Browser/browser_test.py` against it. The script's scenarios: sign up, create a
/// habit, check in and see the streak; the demo account's screens, calendar and memories
/// with a photo upload and share-card downloads of the right pixel size; the 7-day
/// milestone card with confetti, and none with reduced motion; a freeze purchase updating
/// both counters; a check-in whose answer was lost, pressed again and stored once; two
/// windows staying in sync; the puppy journal, savings and growth from their forms (every
/// form of every pack, on a phone and on the desktop, light and dark), the puppy's photo
/// and a removed entry; a family's open invitation withdrawn from its page; the app in
/// Brazilian Portuguese. The scenarios run in two shards at once against the one server.
/// Screenshots of every screen are saved in `artifacts/screenshots`.
///
/// Nothing here is skipped: without Chromium, chromedriver or Selenium the test fails and
/// says what to install (`.ci/run` installs them).
@Suite(.serialized) struct BrowserTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(.timeLimit(.minutes(5))) func theWebAppWorksInARealBrowser() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appending(path: "browser.sqlite").path)
        try await store.migrate()
        try await DemoAccount.install(in: store, now: Date(), bcryptCost: 4)
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.demo = true
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        // The scenarios bring a new account's past in through the operator's import.
        configuration.adminToken = "browser-admin"
        // "Forgot your password?" mails its link through a real SMTP server.
        let mail = try await SMTPReceiver()
        defer { mail.stop() }
        configuration.mail.smtpURL = "smtp://127.0.0.1:\(mail.port)"
        configuration.mail.interval = .seconds(1)
        configuration.mail.requestsPerMinute = 0
        var logger = Logger(label: "momentum.browser-test")
        logger.logLevel = .warning
        let state = ServerState(store: store, configuration: configuration, logger: logger)
        // The admin token only creates the first owner; the scenarios' operator imports go
        // through the owner's session.
        let operators = state.services.operators
        _ = try await operators.bootstrapOwner(
            email: "owner@browser.test", name: "Browser Owner", password: "browser-owner-password")
        let operatorToken = try await operators.signIn(
            email: "owner@browser.test", password: "browser-owner-password", address: "browser-test", kind: .api
        ).token
        let artifacts = Self.repository.appending(path: "artifacts/screenshots")
        do {
            try await buildApplication(state).test(.live) { client in
                let port = try #require(client.port)
                // Two shards at once: the scenarios mostly wait (on pacing, animations and
                // Chromium), so two halves side by side take about 60% of the time of one run.
                func shard(_ index: Int) async throws -> (Int32, String) {
                    try await Self.run(
                        "python3",
                        [
                            Self.repository.appending(path: "Tests/Browser/browser_test.py").path,
                            "--base-url", "http://127.0.0.1:\(port)", "--artifacts", artifacts.path,
                            "--operator-token", operatorToken, "--shard", "\(index)/2", "--maildir",
                            mail.maildir.path,
                        ])
                }
                async let first = shard(0)
                async let second = shard(1)
                for (status, output) in [try await first, try await second] {
                    print(output)
                    #expect(status == 0, "the browser scenarios failed:\n\(output)")
                }
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        let screenshots = (try? FileManager.default.contentsOfDirectory(atPath: artifacts.path)) ?? []
        #expect(screenshots.filter { $0.hasSuffix(".png") }.count >= 10, "\(screenshots)")
    }

    /// Runs a program found on the PATH and returns its exit status and combined output.
    static func run(_ program: String, _ arguments: [String]) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let collected = Collected()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            collected.data.withLock { $0.append(data) }
        }
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in
                output.fileHandleForReading.readabilityHandler = nil
                let rest = output.fileHandleForReading.readDataToEndOfFile()
                let text = collected.data.withLock { data in
                    data.append(rest)
                    return String(decoding: data, as: UTF8.self)
                }
                continuation.resume(returning: (process.terminationStatus, text))
            }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    final class Collected: Sendable {
        let data = Mutex(Data())
    }
}
