import Foundation
import MomentumCore
import MomentumSQLite
import MomentumStore
import MomentumTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `momentum migrate`, `export`, `import` and `append-stream`, run as a user would, and the
/// crash test: a writer killed with SIGKILL in the middle of a stream of appends.
@Suite(.serialized)
struct StoreCommandTests {
    let cli = EvaluateCommandTests()

    init() {
        // A child that exits early must fail its test, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "momentum-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func exportThenImportThenExportGivesTheSameBytes() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appending(path: "a.sqlite").path
        let journal = try Data(contentsOf: EvaluateCommandTests.packageRoot.appending(path: "Examples/ollie.jsonl"))
        let loaded = try cli.momentum(
            ["append-stream", "--database", first, "--user", "ollie", "--pack", "ollie"], stdin: journal)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        // The owner adds a note and a photo to the first memory.
        let store = try SQLiteStore(path: first)
        let memory = try #require(try await store.projection(of: "ollie").memories.first)
        try await store.savePhoto(
            StoredPhoto(
                path: "memories/first.jpg", contentType: "image/jpeg", bytes: [0xFF, 0xD8, 0xFF, 0xDB, 0, 1, 2, 255],
                createdAt: Date(timeIntervalSince1970: 1_770_000_000)), for: "ollie")
        try await store.updateMemory(
            of: "ollie", id: memory.id, note: "So proud of our little guy!",
            photo: try MemoryPhoto(original: "memories/first.jpg"))
        await store.close()

        let out1 = dir.appending(path: "export1").path
        let out2 = dir.appending(path: "export2").path
        let second = dir.appending(path: "b.sqlite").path
        #expect(try cli.momentum(["export", "--database", first, "--user", "ollie", "-o", out1]).status == 0)
        let imported = try cli.momentum(["import", "--database", second, out1])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try cli.momentum(["export", "--database", second, "--user", "ollie", "-o", out2]).status == 0)
        for file in ["account.jsonl", "memories.jsonl", "memories/first.jpg"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: out1).appending(path: file))
            let b = try Data(contentsOf: URL(fileURLWithPath: out2).appending(path: file))
            #expect(a == b, "\(file) differs")
            #expect(!a.isEmpty)
        }
        let lines = try String(contentsOfFile: out1 + "/account.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count(where: { $0.contains(#""type":"event""#) }) == 1_112)
        let memories = try String(contentsOfFile: out1 + "/memories.jsonl", encoding: .utf8)
        #expect(memories.contains("So proud of our little guy!"))

        // Importing the same account again is refused and changes nothing.
        let again = try cli.momentum(["import", "--database", second, out1])
        #expect(again.status == 73)
        #expect(again.stderr.contains("already exists"))

        // As one tar file (what the web app's "Download everything" gives): the same
        // archive, imported into a third database, exported again to the same bytes.
        let tar1 = dir.appending(path: "export1.tar").path
        let tar2 = dir.appending(path: "export2.tar").path
        let third = dir.appending(path: "c.sqlite").path
        #expect(try cli.momentum(["export", "--database", first, "--user", "ollie", "-o", tar1]).status == 0)
        let fromTar = try cli.momentum(["import", "--database", third, tar1])
        #expect(fromTar.status == 0, "\(fromTar.stderr)")
        #expect(try cli.momentum(["export", "--database", third, "--user", "ollie", "-o", tar2]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: tar1)) == Data(contentsOf: URL(fileURLWithPath: tar2)))
        #expect(
            try AccountArchive.read(tar: Data(contentsOf: URL(fileURLWithPath: tar1)))
                == AccountArchive.read(from: URL(fileURLWithPath: out1)))
    }

    @Test func aBadArchiveIsReportedLineByLineAndNothingIsImported() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appending(path: "a.sqlite").path
        let log = try Data(contentsOf: EvaluateCommandTests.packageRoot.appending(path: "Examples/habits.jsonl"))
        #expect(try cli.momentum(["append-stream", "--database", source, "--user", "ada"], stdin: log).status == 0)
        let archive = dir.appending(path: "export").path
        #expect(try cli.momentum(["export", "--database", source, "--user", "ada", "-o", archive]).status == 0)

        // Break two completion lines: one is not JSON, the other names a habit that does not exist.
        var lines = try String(contentsOfFile: archive + "/account.jsonl", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let completions = lines.indices.filter { lines[$0].contains(#""type":"completion""#) }
        let (broken, unknown) = (completions[3], completions[7])
        lines[broken] = "{not json"
        lines[unknown] = lines[unknown].replacingOccurrences(
            of: #""habit":"[a-z]+""#, with: #""habit":"nope""#, options: .regularExpression)
        try lines.joined(separator: "\n").write(toFile: archive + "/account.jsonl", atomically: true, encoding: .utf8)

        let target = dir.appending(path: "b.sqlite").path
        #expect(try cli.momentum(["migrate", "--database", target]).status == 0)
        let result = try cli.momentum(["import", "--database", target, archive])
        #expect(result.status == 65)
        #expect(result.stderr.contains("account.jsonl:\(broken + 1): not a valid archive line"), "\(result.stderr)")
        #expect(result.stderr.contains("account.jsonl:\(unknown + 1): invalid event"), "\(result.stderr)")
        #expect(result.stderr.contains("has 2 problem(s)"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was imported"))
        let store = try SQLiteStore(path: target)
        #expect(try await store.account(id: "ada") == nil)
        #expect(try await store.events(of: "ada", after: 0, limit: 10).isEmpty)
        await store.close()
    }

    /// Runs blocking work (a child process and its pipes) on a thread of its own, so that it
    /// holds none of the cooperative pool's threads, which every in-process server of the
    /// parallel tests shares (two on this machine: two tests blocked on pipes stall them all).
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// The environment of a child whose every flush to disk takes `micros` longer (the
    /// preloaded shim of `Scripts/with-flush-latency`, built when missing); this process's
    /// own environment when `micros` is 0.
    static func flushLatencyEnvironment(micros: Int) throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        guard micros > 0 else { return environment }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/bin/bash")
        build.arguments = [root.appending(path: "Scripts/build-flush-latency").path]
        let output = Pipe()
        build.standardOutput = output
        try build.run()
        let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        build.waitUntilExit()
        guard build.terminationStatus == 0, FileManager.default.fileExists(atPath: path) else {
            throw CocoaError(
                .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the flush-latency shim did not build"])
        }
        environment["LD_PRELOAD"] = path
        environment["MOMENTUM_FLUSH_LATENCY_US"] = String(micros)
        return environment
    }

    /// On a disk whose flush takes its time (the shim: 1.5 s a flush), no append is
    /// acknowledged before a flush that follows it has finished: the first acknowledgment
    /// of a stream comes at least one flush after its events were written. (The database is
    /// migrated beforehand by `momentum migrate`, which leaves no write-ahead log behind, so
    /// the writer starts without flushing anything.) GRDB sets `synchronous = NORMAL` when it
    /// opens a pool in WAL mode, which syncs only at checkpoints: this caught it.
    @Test func noAppendIsAcknowledgedBeforeItsFlushEnds() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = dir.appending(path: "slow.sqlite").path
        let latency = Duration.milliseconds(1500)
        // The child's pipes block: read them on a thread of their own, not one of the two
        // the parallel tests' in-process servers share.
        let (written, firstAck) = try await Self.offPool {
            () throws -> (ContinuousClock.Instant, ContinuousClock.Instant?) in
            let migrate = Process()
            migrate.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appending(
                    path: "momentum")
            migrate.arguments = ["migrate", "--database", database]
            migrate.standardOutput = FileHandle.nullDevice
            try migrate.run()
            migrate.waitUntilExit()
            guard migrate.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
            var options = LogGenerator.Options()
            options.days = 20
            options.habits = 3
            options.timeZone = "UTC"
            let input = EventLog.encode(LogGenerator(options).events())
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appending(
                    path: "momentum")
            process.arguments = ["append-stream", "--database", database, "--user", "u", "--concurrency", "4"]
            process.environment = try Self.flushLatencyEnvironment(micros: 1_500_000)
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            let written = ContinuousClock.now
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
            var buffer = Data()
            var firstAck: ContinuousClock.Instant?
            let reader = stdout.fileHandleForReading
            while firstAck == nil {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                if String(decoding: buffer, as: UTF8.self).split(separator: "\n").contains(where: {
                    $0.hasPrefix("ack ")
                }) {
                    firstAck = ContinuousClock.now
                }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return (written, firstAck)
        }
        let acknowledged = try #require(firstAck, "nothing was acknowledged")
        #expect(acknowledged - written >= latency, "acknowledged \(acknowledged - written) after writing")
    }

    @Test(arguments: [0, 1000])
    func aWriterKilledMidStreamLosesNoAcknowledgedAppend(flushLatencyMicros: Int) async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = dir.appending(path: "crash.sqlite").path
        var options = LogGenerator.Options()
        options.days = 400
        options.habits = 6
        options.timeZone = "UTC"
        let events = LogGenerator(options).events()
        let input = EventLog.encode(events)

        // (The child's pipes block: they are read on a thread of their own.)
        let (acknowledged, killed) = try await Self.offPool { () throws -> ([String], Bool) in
            // Given a writer appending 8 streams at once, …
            let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(
                path: "momentum")
            let process = Process()
            process.executableURL = binary
            process.arguments = ["append-stream", "--database", database, "--user", "u", "--concurrency", "8"]
            // Also on a disk whose flush takes a millisecond (the shim of Scripts/with-flush-latency).
            process.environment = try Self.flushLatencyEnvironment(micros: flushLatencyMicros)
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()

            // … killed with SIGKILL once 500 appends were acknowledged, …
            var acknowledged: [String] = []
            var buffer = Data()
            let reader = stdout.fileHandleForReading
            while acknowledged.count < 500 {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    if line.hasPrefix("ack ") { acknowledged.append(String(line.dropFirst(4))) }
                }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return (acknowledged, process.terminationReason == .uncaughtSignal)
        }
        #expect(killed)
        #expect(acknowledged.count >= 500)

        // … every acknowledged event is there after a restart, and no append is half-applied.
        let store = try SQLiteStore(path: database)
        try await store.migrate()
        let stored = try await store.events(of: "u", after: 0, limit: 1_000_000)
        let ids = Set(stored.map(\.event.id))
        #expect(acknowledged.allSatisfy(ids.contains), "acknowledged events are missing")
        #expect(stored.map(\.seq) == Array(1...Int64(stored.count)))
        let projection = try await store.projection(of: "u")
        #expect(projection.headSeq == Int64(stored.count))
        var engine = MomentumUser(pack: .habits)
        for event in stored { _ = try engine.append(event.event, detectedAt: event.receivedAt) }
        let state = engine.state(at: projection.evaluatedAt, calendarDays: 90)
        #expect(projection.wallet == state.wallet)
        #expect(projection.ledger == state.ledger)
        #expect(projection.habits.map(\.current) == state.habits.map(\.current))

        // The log goes on where it stopped.
        let rest = events.filter { !ids.contains($0.id) }.prefix(20)
        let more = try await store.append(Array(rest), for: "u", receivedAt: rest.last!.at, device: nil)
        #expect(more.appliedCount > 0)
        #expect(more.headSeq == projection.headSeq + Int64(more.appliedCount))
        await store.close()
    }
}
