import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumPostgres
import MomentumSQLite
import MomentumServer
import MomentumServices
import MomentumStore
import MomentumTestSupport
import Testing

/// Keeps `docs/integrate-your-backend.md` ("Integrate Momentum with your backend") honest:
/// its ```` ```sh ```` blocks are run, in order, as ONE bash script (`set -euo pipefail`, so
/// a variable a block exports is there for the next) against a real server listening on a
/// port, on SQLite and on PostgreSQL. A block that exits non-zero fails the test, which names
/// the block (its number and the guide's line) and shows the script's output. Every `curl`
/// in a block must say `--fail-with-body` (or check `%{http_code}` itself), so an error answer
/// cannot pass. Blocks in another fence language (`js`, `json`, `http`, …) are only read.
///
/// The blocks run in a fresh temporary directory (they may write files there) with the
/// variables the guide documents at its top: `MOMENTUM_URL` (the server, no trailing slash)
/// and `ADMIN_TOKEN` (the server's admin token, which creates the first owner), plus `PATH` and `HOME`.
///
/// ## Adding what your section needs (the hook)
///
/// ``preparations`` is the one place to extend: each preparation runs before the server
/// starts, receives a ``GuideRun`` and may
/// - change the server's settings (`run.configuration`: an identity provider whose JWKS
///   the test serves, an SMTP URL, a webhook address rule…),
/// - add variables for the blocks (`run.environment["ID_TOKEN"] = …`, the URL of a loopback
///   webhook receiver, the directory an SMTP server writes its mail to), which the guide
///   must then list at its top as "set by the test; in your shell, …",
/// - start what must live while the blocks run (a receiver, an SMTP server) and register
///   its stop in `run.cleanups` (called after the blocks, whatever happened).
/// Add a `static func prepare<Feature>(_ run: inout GuideRun) async throws` below and list
/// it in ``preparations``; keep one function per section.
@Suite(.serialized) struct IntegrationGuideTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let guide = repository.appending(path: "docs/integrate-your-backend.md")
    static let adminToken = "guide-admin-token"

    /// What the guide's blocks run with; each preparation adds its part.
    struct GuideRun {
        /// The server's settings (its port is chosen by the system).
        var configuration: ServerConfiguration
        /// Variables the blocks see, besides `MOMENTUM_URL` (set once the server listens).
        var environment: [String: String]
        /// Stops what a preparation started, run after the blocks.
        var cleanups: [@Sendable () async -> Void] = []
    }

    /// The hook: every section's preparation, in the guide's order.
    static let preparations: [@Sendable (inout GuideRun) async throws -> Void] = [
        prepareIdentityProviders, prepareMail, prepareWebhooks, prepareAndroidPush, prepareWebClients,
    ]

    /// "Webhooks": a loopback receiver the examples' webhook posts to (`WEBHOOK_URL`),
    /// allowed by the address rule (webhooks go to public addresses only otherwise).
    static func prepareWebhooks(_ run: inout GuideRun) async throws {
        let receiver = try await LoopbackReceiver.start(.plain)
        run.environment["WEBHOOK_URL"] = receiver.base + "/momentum-events"
        run.configuration.webhookAllowedNetworks = ["127.0.0.0/8", "::1"]
        run.cleanups.append { await receiver.stop() }
    }

    /// "Web clients on other origins": the page origin the examples send as `Origin`.
    static func prepareWebClients(_ run: inout GuideRun) async throws {
        run.environment["WEB_ORIGIN"] = "https://app.example"
        run.configuration.corsOrigins = ["https://app.example"]
    }

    @Test(.timeLimit(.minutes(3)), arguments: ServerHarness.Backend.allCases)
    func theGuidesExamplesRunAgainstARealServer(backend: ServerHarness.Backend) async throws {
        let markdown = try String(contentsOf: Self.guide, encoding: .utf8)
        let blocks = Self.shellBlocks(markdown)
        #expect(!blocks.isEmpty, "the guide has no ```sh blocks")
        for block in blocks {
            for command in Self.curlCommands(block.text)
            where !command.contains("--fail-with-body") && !command.contains("%{http_code}") {
                Issue.record("block \(block.number) (line \(block.line)): curl without --fail-with-body: \(command)")
            }
        }
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(
                path: "momentum-guide-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try await Self.run(blocks, store: try SQLiteStore(path: directory.appending(path: "guide.sqlite").path))
        case .postgres:
            try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_guide") { url in
                try await Self.run(blocks, store: try PostgresStore(url: url))
            }
        }
    }

    /// Starts a live server on `store`, runs the blocks as one script against it, stops both.
    static func run(_ blocks: [Block], store: any MomentumStore) async throws {
        try await store.migrate()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.adminToken = adminToken
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        let work = FileManager.default.temporaryDirectory.appending(path: "momentum-guide-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let inherited = ProcessInfo.processInfo.environment
        var guideRun = GuideRun(
            configuration: configuration,
            environment: [
                "ADMIN_TOKEN": adminToken, "PATH": inherited["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
                "HOME": work.path, "LC_ALL": "C.UTF-8",
            ])
        var logger = Logger(label: "momentum.guide-test")
        logger.logLevel = .warning
        do {
            for prepare in preparations { try await prepare(&guideRun) }
            let state = ServerState(store: store, configuration: guideRun.configuration, logger: logger)
            let prepared = guideRun
            let script = Self.script(blocks)
            try await buildApplication(state).test(.live) { client in
                let port = try #require(client.port)
                var environment = prepared.environment
                environment["MOMENTUM_URL"] = "http://127.0.0.1:\(port)"
                let (status, output) = try await Self.bash(script, environment: environment, directory: work)
                #expect(status == 0, "the guide's examples failed (\(Self.failedBlock(output) ?? "?")):\n\(output)")
            }
        } catch {
            for cleanup in guideRun.cleanups { await cleanup() }
            await store.close()
            throw error
        }
        for cleanup in guideRun.cleanups { await cleanup() }
        await store.close()
    }

    /// A ```` ```sh ```` block of the guide: its number (from 1), the line its fence opens
    /// on, its text.
    struct Block: Sendable {
        let number: Int
        let line: Int
        let text: String
    }

    /// The guide's ```` ```sh ```` (or `bash`, `shell`) blocks, in order.
    static func shellBlocks(_ markdown: String) -> [Block] {
        var blocks: [Block] = []
        var current: (line: Int, lines: [String])?
        var inOtherFence = false
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var open = current {
                if trimmed == "```" {
                    blocks.append(
                        Block(number: blocks.count + 1, line: open.line, text: open.lines.joined(separator: "\n")))
                    current = nil
                } else {
                    open.lines.append(String(line))
                    current = open
                }
            } else if inOtherFence {
                if trimmed == "```" { inOtherFence = false }
            } else if trimmed.hasPrefix("```") {
                let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                if ["sh", "bash", "shell"].contains(language) {
                    current = (index + 1, [])
                } else {
                    inOtherFence = true
                }
            }
        }
        return blocks
    }

    /// The `curl` commands of a block, each with its continuation lines joined.
    static func curlCommands(_ text: String) -> [String] {
        let joined = text.replacingOccurrences(of: "\\\n", with: " ")
        return joined.split(separator: "\n").filter { $0.contains("curl ") }.map(String.init)
    }

    /// One script of all blocks, each announced by a marker line that names it.
    static func script(_ blocks: [Block]) -> String {
        var script = "set -euo pipefail\n"
        for block in blocks {
            script += "echo '>>> guide block \(block.number) (line \(block.line))'\n\(block.text)\n"
        }
        return script + "echo '>>> guide done'\n"
    }

    /// The block the output's last marker names, when the script did not finish.
    static func failedBlock(_ output: String) -> String? {
        guard !output.contains(">>> guide done") else { return nil }
        return output.split(separator: "\n").last { $0.hasPrefix(">>> guide block ") }.map {
            String($0.dropFirst(4))
        }
    }

    /// Runs `script` with bash in `directory` with exactly `environment`; its exit status and
    /// combined output.
    static func bash(_ script: String, environment: [String: String], directory: URL) async throws -> (Int32, String) {
        let file = directory.appending(path: "guide.sh")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [file.path]
        process.environment = environment
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let collected = BrowserTests.Collected()
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

    /// The parser finds the shell blocks only, in order, with their lines.
    @Test func onlyShellBlocksAreRunInOrder() {
        let markdown = """
            # Guide
            ```sh
            echo one
            ```
            ```js
            const a = 1
            ```
            ```json
            {"sh": 1}
            ```
            ```bash
            echo two \\
              three
            ```
            """
        let blocks = Self.shellBlocks(markdown)
        #expect(blocks.map(\.text) == ["echo one", "echo two \\\n  three"])
        #expect(blocks.map(\.line) == [2, 11])
        #expect(Self.failedBlock(">>> guide block 1 (line 2)\nboom") == "guide block 1 (line 2)")
        #expect(Self.failedBlock(">>> guide block 1 (line 2)\n>>> guide done") == nil)
        #expect(
            Self.curlCommands("curl -s \\\n  --fail-with-body x\ncurl y") == [
                "curl -s    --fail-with-body x", "curl y",
            ])
    }
}
