import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `momentum serve`'s settings, read through swift-configuration from flags, the environment
/// and a JSON file: precedence, refusals that name the setting, and docs/configuration.md.
@Suite(.serialized)
struct ServeSettingsTests {
    init() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Runs `momentum` with the test's environment minus every `MOMENTUM_` variable, plus
    /// `environment`.
    func momentum(_ arguments: [String], environment: [String: String] = [:]) throws -> EvaluateCommandTests.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("momentum")
        process.arguments = arguments
        process.currentDirectoryURL = EvaluateCommandTests.packageRoot
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MOMENTUM_") }
            .merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }

    func temporaryFile(_ name: String, _ contents: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appending(path: "momentum-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appending(path: name)
        try Data(contents.utf8).write(to: url)
        return url
    }

    @Test func aBadEnvironmentValueIsRefusedNamingIt() throws {
        let refused = try momentum(["serve"], environment: ["MOMENTUM_PORT": "abc"])
        #expect(refused.status == 78)
        #expect(
            refused.stderr.contains("MOMENTUM_PORT: 'abc' must be a whole number from 0 to 65535"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--port"), "\(refused.stderr)")
        #expect(refused.stderr.contains("file key \"port\""), "\(refused.stderr)")
    }

    @Test(arguments: [
        ("MOMENTUM_PORT", "70000", "70000 is out of range: it must be 0 to 65535"),
        ("MOMENTUM_MAX_PHOTO_SIDE", "-5", "-5 is out of range: it must be 64 to 30000"),
        ("MOMENTUM_SHARE_CARD_CACHE_MEGABYTES", "-1", "-1 is out of range"),
        ("MOMENTUM_LOG_LEVEL", "loud", "'loud' is not one of trace, debug, info"),
        ("MOMENTUM_FORWARDED_HEADER", "x-real-ip", "'x-real-ip' is not one of x-forwarded-for, forwarded"),
        ("MOMENTUM_DEMO", "maybe", "'maybe' must be on or off"),
        ("MOMENTUM_BCRYPT_COST", "3", "3 is out of range: it must be 4 to 16"),
        ("MOMENTUM_PACK", "nope", "unknown pack 'nope'"),
        ("MOMENTUM_TRUSTED_PROXIES", "not-an-address", "not-an-address"),
    ])
    func badEnvironmentValuesAreRefused(variable: String, value: String, message: String) throws {
        let refused = try momentum(["serve"], environment: [variable: value])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains(message), "\(refused.stderr)")
        if variable != "MOMENTUM_TRUSTED_PROXIES" {
            #expect(refused.stderr.contains("\(variable): "), "\(refused.stderr)")
        }
    }

    @Test func aBadFlagIsRefusedNamingIt() throws {
        let notANumber = try momentum(["serve", "--port", "abc"])
        #expect(notANumber.status == 78)
        #expect(notANumber.stderr.contains("--port: 'abc' must be a whole number"), "\(notANumber.stderr)")
        let outOfRange = try momentum(["serve", "--idle-timeout=-1"])
        #expect(outOfRange.status == 78)
        #expect(outOfRange.stderr.contains("--idle-timeout: -1 is out of range"), "\(outOfRange.stderr)")
        let misspelt = try momentum(["serve", "--prot", "8080"])
        #expect(misspelt.status == 78)
        #expect(misspelt.stderr.contains("unknown option --prot"), "\(misspelt.stderr)")
    }

    /// A bad value is refused even where a higher source overrides it.
    @Test func aBadValueIsRefusedEvenWhenOverridden() throws {
        let refused = try momentum(["settings", "--port", "9000"], environment: ["MOMENTUM_PORT": "abc"])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("MOMENTUM_PORT: 'abc'"), "\(refused.stderr)")
    }

    @Test func flagsWinOverTheEnvironmentWhichWinsOverTheFile() throws {
        let file = try temporaryFile(
            "momentum.json",
            #"{"port": 1001, "host": "10.0.0.1", "pack": "ollie", "bcryptCost": 5, "corsOrigins": ["https://a.example"]}"#
        )
        let shown = try momentum(
            ["settings", "--port", "1003", "--demo"],
            environment: ["MOMENTUM_CONFIG": file.path, "MOMENTUM_PORT": "1002", "MOMENTUM_HOST": "10.0.0.2"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let lines = Set(String(decoding: shown.stdout, as: UTF8.self).split(separator: "\n").map(String.init))
        for line in [
            "port = 1003 (flag)", "host = 10.0.0.2 (environment)", "pack = ollie (file)", "bcryptCost = 5 (file)",
            "corsOrigins = https://a.example (file)", "demo = on (flag)", "idleTimeout = 60 (default)",
            "config = \(file.path) (environment)",
        ] {
            #expect(lines.contains(line), "missing \(line) in \(lines.sorted())")
        }
    }

    @Test func anUnknownFileKeyIsRefusedNamingIt() throws {
        let file = try temporaryFile("momentum.json", #"{"port": 8080, "userRequestPerMinute": 10}"#)
        let refused = try momentum(["serve", "--config", file.path])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("unknown key \"userRequestPerMinute\""), "\(refused.stderr)")
        let wrongType = try temporaryFile("momentum.json", #"{"port": "eighty"}"#)
        let refusedType = try momentum(["serve", "--config", wrongType.path])
        #expect(refusedType.status == 78)
        #expect(
            refusedType.stderr.contains("\"port\" in \(wrongType.path): 'eighty' must be a whole number"),
            "\(refusedType.stderr)")
    }

    /// The server starts with what a valid file says: its database and its port.
    @Test func aValidConfigFileWorks() async throws {
        let port = Int.random(in: 20_000...60_000)
        let database = FileManager.default.temporaryDirectory.appending(path: "momentum-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: database) }
        let file = try temporaryFile(
            "momentum.json",
            #"{"database": "\#(database.path)", "host": "127.0.0.1", "port": \#(port), "bcryptCost": 4, "notificationInterval": 0}"#
        )
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("momentum")
        process.arguments = ["serve", "--config", file.path]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MOMENTUM_") }
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        var seen = ""
        let deadline = Date().addingTimeInterval(60)
        while !seen.contains("Momentum is listening"), process.isRunning, Date() < deadline {
            let chunk = log.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        #expect(seen.contains("Momentum is listening"), "\(seen)")
        #expect(seen.contains("http://127.0.0.1:\(port)/"), "\(seen)")
        #expect(FileManager.default.fileExists(atPath: database.path))
    }

    /// Every flag and environment variable `momentum serve` took before it read them through
    /// swift-configuration still names a setting, and the environment's name is read.
    @Test func everyEarlierNameStillWorks() throws {
        let table = try momentum(["settings", "--markdown"])
        let text = String(decoding: table.stdout, as: UTF8.self)
        for name in [
            "host", "port", "database", "pack", "demo", "cors-origins", "admin-token", "log-level", "bcrypt-cost",
            "secure-cookies", "user-requests-per-minute", "address-requests-per-minute", "social-actions-per-minute",
            "invitation-codes-per-minute", "trusted-proxies", "forwarded-header", "sign-in-free-failures-per-account",
            "sign-in-free-failures-across-addresses", "sign-in-free-failures-per-address", "sign-in-max-backoff",
            "password-threads", "password-queue", "password-checks-per-address", "idle-timeout",
            "max-streams-per-user", "engine-cache-mb", "max-photo-side", "max-photo-megapixels", "rasterizer-timeout",
            "rasterizer-concurrency", "share-card-cache-megabytes", "notification-interval", "delivery-interval",
            "webhook-failure-limit", "webhook-allowed-networks", "push-hosts", "vapid-subject", "apns-key-file",
            "apns-key-id", "apns-team-id", "apns-topic", "apns-url", "apns-sandbox-url", "delivery-ca-file",
        ] {
            let variable = "MOMENTUM_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
            #expect(text.contains("| `--\(name)` | `\(variable)` |"), "--\(name) / \(variable) missing")
        }
        let read = try momentum(
            ["settings"],
            environment: [
                "MOMENTUM_ENGINE_CACHE_MB": "7", "MOMENTUM_MAX_PHOTO_MEGAPIXELS": "3", "MOMENTUM_SECURE_COOKIES": "yes",
                "MOMENTUM_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1", "MOMENTUM_DATABASE": "x.sqlite",
            ])
        let lines = String(decoding: read.stdout, as: UTF8.self)
        for line in [
            "engineCacheMb = 7 (environment)", "maxPhotoMegapixels = 3 (environment)",
            "secureCookies = on (environment)", "trustedProxies = 10.0.0.0/8,127.0.0.1 (environment)",
            "database = x.sqlite (environment)",
        ] {
            #expect(lines.contains(line), "missing \(line) in \(lines) \(read.stderr)")
        }
    }

    @Test func docsConfigurationIsTheGeneratedTable() throws {
        let generated = try momentum(["settings", "--markdown"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let committed = try Data(contentsOf: EvaluateCommandTests.packageRoot.appending(path: "docs/configuration.md"))
        #expect(
            committed == generated.stdout,
            "docs/configuration.md is not current: run `swift run momentum settings --markdown > docs/configuration.md`"
        )
    }
}
