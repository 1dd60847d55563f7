import Foundation

/// Load from `wrk` (Debian's `wrk` package), in a process of its own, so that the server
/// benchmark's figures compare with what others publish: `MOMENTUM_BENCH_LOAD=wrk`.
///
/// A Lua script gives each request a user's token in turn (thread *t* of *n* takes the
/// users *t*, *t + n*, …) and prints the run's figures in one line that ``run`` reads:
/// requests, duration, p50 and p99 latency in µs (wrk's own histogram), and errors
/// (non-2xx/3xx answers, connect, read, write and timeout errors together).
enum Wrk {
    /// Whether the server benchmark drives its load with `wrk`.
    static let selected = ProcessInfo.processInfo.environment["MOMENTUM_BENCH_LOAD"] == "wrk"

    /// The threads `wrk` runs: as many as the built-in generator's event loops.
    static let threads = 2

    struct Result: Sendable {
        var requests: Int
        var seconds: Double
        /// Nanoseconds.
        var p50: Double
        var p99: Double
        var errors: Int
    }

    static func run(
        port: Int, probe: ServerLoadBenchmark.Probe, tokens: [String], connections: Int, seconds: Double
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-wrk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appending(path: "tokens")
        try (tokens.joined(separator: "\n") + "\n").write(to: tokenFile, atomically: true, encoding: .utf8)
        let script = directory.appending(path: "momentum.lua")
        let threads = min(Self.threads, connections)
        try lua(tokens: tokenFile.path, probe: probe, threads: threads).write(
            to: script, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "wrk", "-t\(threads)", "-c\(connections)", "-d\(max(1, Int(seconds.rounded())))s",
            "--timeout", "10s", "-s", script.path, "http://127.0.0.1:\(port)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        // Waiting for the exit on a thread of the cooperative pool would take one of the two
        // cores' threads from the server for the whole run.
        let text: String = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { _ in
                let data = output.fileHandleForReading.readDataToEndOfFile()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(
                    throwing: ServerLoadBenchmark.LoadError("wrk did not start (apt install wrk): \(error)"))
            }
        }
        guard
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MOMENTUM ") }),
            case let fields = line.split(separator: " ").dropFirst().compactMap({ Double($0) }), fields.count == 5
        else {
            throw ServerLoadBenchmark.LoadError("wrk's output has no figures: \(text)")
        }
        return Result(
            requests: Int(fields[0]), seconds: fields[1] / 1e6, p50: fields[2] * 1e3, p99: fields[3] * 1e3,
            errors: Int(fields[4]))
    }

    /// The script: tokens in turn per thread, and the figures in one line at the end.
    static func lua(tokens: String, probe: ServerLoadBenchmark.Probe, threads: Int) -> String {
        """
        local tokens = {}
        for line in io.lines("\(tokens)") do tokens[#tokens + 1] = line end
        local method, path, signed = "\(probe.method)", "\(probe.path)", \(probe.signed)
        local started = 0
        function setup(thread)
          thread:set("offset", started)
          started = started + 1
        end
        function init(args)
          counter = offset or 0
        end
        function request()
          local headers = {}
          if signed then
            headers["Authorization"] = "Bearer " .. tokens[(counter % #tokens) + 1]
          end
          if method == "POST" then headers["Content-Length"] = "0" end
          counter = counter + \(threads)
          return wrk.format(method, path, headers)
        end
        function done(summary, latency, requests)
          local e = summary.errors
          io.write(string.format("MOMENTUM %d %d %d %d %d\\n", summary.requests, summary.duration,
            latency:percentile(50), latency:percentile(99), e.status + e.connect + e.read + e.write + e.timeout))
        end

        """
    }
}
