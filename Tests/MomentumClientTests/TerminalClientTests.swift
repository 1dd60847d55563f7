import Foundation
import MomentumClient
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// The `momentum` terminal client, run as a person would, against a real server.
@Suite(.serialized) struct TerminalClientTests {
    /// `momentum check-in` records on the device, then pushes; killed with SIGKILL while
    /// its push waits for an answer that never comes, it loses nothing: the next `momentum
    /// sync` sends the check-in, once.
    @Test(arguments: Backend.allCases)
    func aClientKilledWithEventsInItsOutboxSendsThemOnTheNextStart(_ backend: Backend) async throws {
        try await LiveServer.with(backend, clock: TestClock(real: true)) { server in
            let files = try ClientFiles()
            let data = files.path("terminal")
            let url = server.url.absoluteString
            var answer = try await Terminal.run([
                "register", "--server", url, "--data", data, "--email", "tom@example.com", "--display-name", "Tom",
                "--time-zone", "Europe/Berlin",
            ])
            #expect(answer.status == 0, "\(answer.output)")
            answer = try await Terminal.run(["add-habit", "read", "--name", "Read", "--data", data])
            #expect(answer.status == 0 && answer.output.contains("Synced."), "\(answer.output)")

            // The server goes away and something that accepts connections and never answers
            // takes its port: the check-in's push hangs, and the process is killed.
            await server.stop()
            let silence = try await Silence.listen(port: server.port)
            let checkIn = try Terminal.start(["check-in", "read", "--note", "before the crash", "--data", data])
            try await ChangeStreamTests.waitUntil("the check-in is recorded") { checkIn.output.contains("✓ Read") }
            try await ChangeStreamTests.waitUntil("the push is waiting") { silence.connections > 0 }
            await checkIn.kill()
            #expect(checkIn.output.contains("🔥 1"), "\(checkIn.output)")
            try await silence.close()

            // Offline, the device still shows the check-in, waiting.
            try await server.start()
            answer = try await Terminal.run(["today", "--offline", "--data", data])
            #expect(
                answer.output.contains("🔥 1") && answer.output.contains("1 event waiting to sync"), "\(answer.output)")

            answer = try await Terminal.run(["sync", "--data", data])
            #expect(answer.status == 0 && answer.output.contains("Synced: 1 sent"), "\(answer.output)")
            answer = try await Terminal.run(["sync", "--data", data])
            #expect(answer.output.contains("Synced: 0 sent"), "\(answer.output)")

            let token = try await RawHTTP.signIn(server, email: "tom@example.com", device: "observer")
            let pulled = try await RawHTTP.get(server.url.appending(path: "v1/events"), token: token)
            let types = (pulled.json["events"] as? [[String: Any]] ?? []).compactMap {
                ($0["event"] as? [String: Any])?["type"] as? String
            }
            #expect(types == ["habit.created", "completion"])
            answer = try await Terminal.run(["today", "--data", data])
            #expect(answer.output.contains("✓ Read") && !answer.output.contains("waiting"), "\(answer.output)")
        }
    }

    /// The first check-in of a habit, offline, celebrates "1 day" (not "1 days", issue 45),
    /// waits on the device, and is sent once when the server is back.
    @Test func aFirstCheckInOfflineCelebratesOneDayInTheSingular() async throws {
        try await LiveServer.with(.sqlite, clock: TestClock(real: true)) { server in
            let files = try ClientFiles()
            let data = files.path("terminal")
            var answer = try await Terminal.run([
                "register", "--server", server.url.absoluteString, "--data", data, "--email", "una@example.com",
                "--display-name", "Una", "--time-zone", "Europe/Berlin",
            ])
            #expect(answer.status == 0, "\(answer.output)")
            answer = try await Terminal.run(["add-habit", "read", "--name", "Read", "--data", data])
            #expect(answer.status == 0 && answer.output.contains("Synced."), "\(answer.output)")

            await server.stop()
            answer = try await Terminal.run(["check-in", "read", "--data", data])
            #expect(answer.output.contains("✓ Read — 🔥 1"), "\(answer.output)")
            #expect(answer.output.contains("🎉 1 day of Read in a row! 🏆"), "\(answer.output)")
            #expect(answer.output.range(of: #"\b1 days\b"#, options: .regularExpression) == nil, "\(answer.output)")
            #expect(answer.output.contains("1 event waiting to sync"), "\(answer.output)")

            try await server.start()
            answer = try await Terminal.run(["sync", "--data", data])
            #expect(answer.output.contains("Synced: 1 sent"), "\(answer.output)")
            answer = try await Terminal.run(["sync", "--data", data])
            #expect(answer.output.contains("Synced: 0 sent"), "\(answer.output)")
        }
    }

    /// Bad input gets a clear error and changes nothing.
    @Test func mistakesAreNamedAndChangeNothing() async throws {
        let files = try ClientFiles()
        let data = files.path("terminal")
        var answer = try await Terminal.run(["today", "--data", data])
        #expect(answer.status != 0 && answer.output.contains("not signed in"), "\(answer.output)")
        answer = try await Terminal.run(["sign-in", "--server", "ftp://x", "--email", "a@b.c", "--data", data])
        #expect(answer.status != 0 && answer.output.contains("http:// or https://"), "\(answer.output)")
        answer = try await Terminal.run(["buy", "freeze-5", "--days", "3", "--data", data])
        #expect(answer.status != 0 && answer.output.contains("not both"), "\(answer.output)")
        try await LiveServer.with(.sqlite, clock: TestClock(real: true)) { server in
            answer = try await Terminal.run([
                "sign-in", "--server", server.url.absoluteString, "--email", "nobody@example.com", "--data", data,
            ])
            #expect(answer.status != 0 && answer.output.contains("invalid_credentials"), "\(answer.output)")
            answer = try await Terminal.run([
                "register", "--server", server.url.absoluteString, "--data", data, "--email", "ada@example.com",
                "--display-name", "Ada", "--time-zone", "Europe/Berlin",
            ])
            #expect(answer.status == 0, "\(answer.output)")
            answer = try await Terminal.run(["check-in", "nothing", "--data", data])
            #expect(answer.status != 0 && answer.output.contains("unknown_habit"), "\(answer.output)")
            answer = try await Terminal.run(["check-in", "read", "--day", "yesterday", "--data", data])
            #expect(answer.status != 0 && answer.output.contains("YYYY-MM-DD"), "\(answer.output)")
            answer = try await Terminal.run(["buy", "freeze-5", "--data", data])
            #expect(answer.status != 0 && answer.output.contains("insufficient_diamonds"), "\(answer.output)")
            answer = try await Terminal.run(["sync", "--data", data])
            #expect(answer.output.contains("Synced: 0 sent"), "\(answer.output)")
        }
    }
}

/// The `momentum` executable, next to the test bundle.
enum Terminal {
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "momentum")
    }

    /// Runs `momentum` to its end; stdout and stderr together.
    ///
    /// The wait happens on a thread of its own, never on one of the cooperative pool's
    /// (two on these machines): the live servers of the test process answer the command on
    /// that pool, and a blocked pool thread stalled every server of the process.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = try start(arguments)
        await process.finished()
        return (process.process.terminationStatus, process.output)
    }

    /// Starts `momentum`, collecting its output as it comes.
    static func start(_ arguments: [String]) throws -> RunningCommand {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["MOMENTUM_PASSWORD"] = "correct horse"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let running = RunningCommand(process: process)
        let handle = pipe.fileHandleForReading
        try process.run()
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                running.buffer.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            running.drained.signal()
        }
        return running
    }
}

/// A `momentum` process and what it printed so far.
final class RunningCommand: Sendable {
    let process: Process
    let buffer = Mutex("")
    let drained = DispatchSemaphore(value: 0)

    init(process: Process) { self.process = process }

    var output: String { buffer.withLock { $0 } }

    /// Waits, off the cooperative pool, until the process has ended and all it printed is read.
    func finished() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                self.process.waitUntilExit()
                self.drained.wait()
                done.resume()
            }
        }
    }

    /// Ends the process with SIGKILL: no chance to clean up.
    func kill() async {
        Foundation.kill(process.processIdentifier, SIGKILL)
        await finished()
    }
}

/// A listener that accepts connections and never answers: a server that hangs.
final class Silence: Sendable {
    /// Connections accepted so far.
    final class Counter: Sendable {
        let value = Mutex(0)
    }

    private let channel: any Channel
    private let counter: Counter

    private init(channel: any Channel, counter: Counter) {
        self.channel = channel
        self.counter = counter
    }

    var connections: Int { counter.value.withLock { $0 } }

    static func listen(port: Int) async throws -> Silence {
        let counter = Counter()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                counter.value.withLock { $0 += 1 }
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: port).get()
        return Silence(channel: channel, counter: counter)
    }

    func close() async throws { try await channel.close() }
}
