import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumPostgres
import MomentumSQLite
import MomentumServer
import MomentumServices
import MomentumStore
import MomentumTestSupport
import NIOCore
import PostgresNIO

/// A load generator on loopback against the real server (release build, real socket,
/// the whole middleware stack) with many users: durable check-ins per second and their
/// latency, today's-dashboard latency, each beside a trivial route (`/healthz`) on the same
/// server in the same run, which is the framework's ceiling on this machine.
///
/// The load generator runs in the same process and shares the machine's two cores with the
/// server, as the issue asks ("load generator included"). Each connection sends one request
/// at a time (closed loop) for users of its own, so no two requests of one user overlap.
/// The disk's fsync latency, which bounds every durable figure, is measured in the same run.
enum ServerLoadBenchmark {
    static func run(_ settings: Settings) -> [ResultRow] {
        blocking { await measureAll(settings) }
    }

    struct Shape {
        var users: Int
        var connections: Int
        var seconds: Double
        /// Connections for the latency runs, light enough that a request rarely queues.
        var lightConnections: Int
    }

    /// Parts of the run to do, from `MOMENTUM_BENCH_SERVER` (a comma-separated list of
    /// `sqlite`, `postgres`, `trivial`, `checkins`, `repeat`, `dashboard`, `light`, `floor`), for profiling one
    /// phase; all of them when unset. A skipped phase reports no row.
    static let selection: Set<String>? = ProcessInfo.processInfo.environment["MOMENTUM_BENCH_SERVER"].map {
        Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    static func wants(_ part: String) -> Bool { selection?.contains(part) ?? true }

    /// What the rows say drove the load: nothing for the built-in generator.
    static var loadLabel: String { Wrk.selected ? " (wrk)" : "" }

    private static func measureAll(_ settings: Settings) async -> [ResultRow] {
        let shape =
            settings.quick
            ? Shape(users: 200, connections: 16, seconds: 1, lightConnections: 4)
            : Shape(users: 10_000, connections: 64, seconds: 10, lightConnections: 8)
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-load-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fsync = fsyncLatency(directory: directory, count: settings.quick ? 50 : 300)
        print(
            "  fsync latency here: p50 \(Format.duration(fsync.value(at: 50))), p99 \(Format.duration(fsync.value(at: 99)))"
        )
        var rows: [ResultRow] = [
            ResultRow(
                benchmark: "server", metric: "fsync p50 / p99 (4 KiB write + fsync, this disk)",
                measured: "\(Format.duration(fsync.value(at: 50))) / \(Format.duration(fsync.value(at: 99)))")
        ]
        if wants("sqlite") || !(selection?.contains("postgres") ?? false) {
            do {
                let path = directory.appending(path: "load.sqlite").path
                let store = try SQLiteStore(path: path, engineCacheCapacity: 20_000)
                try await store.migrate()
                let floor = (
                    source: ServerFloor.Backend.sqlite(path: path),
                    target: ServerFloor.Backend.sqlite(path: directory.appending(path: "floor.sqlite").path)
                )
                rows += try await measure(
                    store: store, name: "server-sqlite" + loadLabel, shape: shape, completionTarget: 10_000,
                    floor: floor)
                await store.close()
            } catch {
                print("server-sqlite failed: \(error)")
            }
        }
        if wants("postgres") || !(selection?.contains("sqlite") ?? false) {
            do {
                let cluster = try PostgresTestCluster.shared
                let url = try await cluster.createDatabase(prefix: "momentum_load").url
                let store = try PostgresStore(url: url + "&pool=32", engineCacheCapacity: 20_000)
                try await store.migrate()
                let floor = (
                    source: ServerFloor.Backend.postgres(url: url),
                    target: ServerFloor.Backend.postgres(
                        url: try await cluster.createDatabase(prefix: "momentum_floor").url)
                )
                rows += try await measure(
                    store: store, name: "server-postgres" + loadLabel, shape: shape, completionTarget: 5_000,
                    floor: floor)
                await store.close()
            } catch {
                print("server-postgres failed: \(error)")
            }
        }
        return rows
    }

    /// Measures the real server on `store`, then the floor server (``ServerFloor``) under
    /// the same load, with samples from `floor.source` (the store's database) and its own
    /// database in `floor.target`.
    private static func measure(
        store: any MomentumStore, name: String, shape: Shape, completionTarget: Double,
        floor floorDatabases: (source: ServerFloor.Backend, target: ServerFloor.Backend)
    ) async throws -> [ResultRow] {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        // The users sign up over many connections from this one machine: let every sign-up
        // check its password (the server's defaults refuse more than two at once per address).
        configuration.passwordChecksPerAddress = 1_000
        configuration.passwordQueue = 10_000
        // The harness's own connection (the floor's sample answer) waits through every phase.
        configuration.idleTimeoutSeconds = 0
        // The log handler `momentum serve` installs, at a level that writes nothing here.
        let logger = Logger(label: "momentum.bench") { MomentumLogHandler(label: $0, level: .error) }
        configuration.logLevel = .error
        // As `momentum serve` runs it: with PostgreSQL, changes go to other instances
        // through the LISTEN/NOTIFY relay.
        let relay = store.makeRelay()
        let state = ServerState(store: store, configuration: configuration, relay: relay, logger: logger)
        return try await buildApplication(state).test(.live) { client in
            let port = try require(client.port)
            let setupStart = Stopwatch.now()
            let tokens = try await makeUsers(port: port, shape: shape)
            print(
                "  \(name): \(Format.grouped(tokens.count)) users with a habit each, set up in "
                    + Format.duration(Double(Stopwatch.now() - setupStart)))

            if let url = floorDatabases.source.postgresURL {
                let connection = try await StorageBenchmark.connect(url)
                do {
                    try await warmWAL(connection)
                    try await connection.close()
                } catch {
                    try? await connection.close()
                    throw error
                }
            }

            let all = ["trivial", "checkins", "repeat", "dashboard", "light", "floor"]
            let phases = all.contains(where: { selection?.contains($0) ?? false }) ? all.filter(wants) : all
            func run(_ phase: String, _ shape: Shape, _ probe: Probe) async throws -> Outcome? {
                guard phases.contains(phase) else { return nil }
                return try await drive(port: port, shape: shape, tokens: tokens, probe)
            }
            let healthz = Probe(method: "GET", path: "/healthz", signed: false)
            let today = Probe(method: "GET", path: "/v1/today", signed: true)
            let trivial = try await run("trivial", shape, healthz)
            let checkIn = Probe(method: "POST", path: "/v1/habits/walk/check-ins", signed: true)
            let completions = try await run("checkins", shape, checkIn)
            // The same check-ins again, once every user has checked in today, so that these
            // unlock nothing. That is the everyday check-in, and what the floor's rows (an
            // event, the habit row, the head) stand for. The phase above reaches every user
            // only when it runs more than 10,000 check-ins in its 10 s, so each user first
            // checks in once more, untimed.
            if phases.contains("repeat") {
                try await primeCheckIns(port: port, shape: shape, tokens: tokens, checkIn)
            }
            let repeats = try await run("repeat", shape, checkIn)
            let dashboard = try await run("dashboard", shape, today)
            // Latency under a light load: with 64 connections in a closed loop a request
            // mostly waits in the queue (even /healthz has a p99 of several ms there).
            var light = shape
            light.connections = shape.lightConnections
            let trivialLight = try await run("light", light, healthz)
            let dashboardLight = try await run("light", light, today)
            var floor: Outcome?
            var readFloor: Outcome?
            if phases.contains("floor") {
                let samples = try await ServerFloor.samples(
                    from: floorDatabases.source, answer: try await sampleAnswer(client: client, token: tokens[0]),
                    today: try await sampleAnswer(client: client, token: tokens[0], today))
                let withReads = phases.contains("light")
                let light = light
                (floor, readFloor) = try await ServerFloor.withServer(
                    floorDatabases.target, tokens: tokens, samples: samples, readers: light.connections
                ) { port in
                    // The reads first, so that the writes' checkpoints do not fall in them.
                    let reads = withReads ? try await drive(port: port, shape: light, tokens: tokens, today) : nil
                    return (try await drive(port: port, shape: shape, tokens: tokens, checkIn), reads)
                }
            }
            var result = rows(
                name: name, shape: shape, users: tokens.count, completionTarget: completionTarget,
                trivial: trivial, completions: completions, dashboard: dashboard, trivialLight: trivialLight,
                dashboardLight: dashboardLight)
            if let floor {
                result.insert(
                    contentsOf: floorRows(
                        name: name, floor: floor, trivial: trivial, completions: completions, repeats: repeats,
                        target: completionTarget)
                        + readFloorRows(
                            name: name, connections: light.connections, readFloor: readFloor,
                            trivialLight: trivialLight, dashboardLight: dashboardLight),
                    at: result.count - 1)
            }
            return result
        }
    }

    /// The real server's answer to one more check-in, which the floor server answers with.
    private static func sampleAnswer(
        client: some TestClientProtocol, token: String,
        _ probe: Probe = Probe(method: "POST", path: "/v1/habits/walk/check-ins", signed: true)
    ) async throws -> ByteBuffer {
        let response = try await client.execute(
            uri: probe.path, method: HTTPRequest.Method(probe.method) ?? .get,
            headers: [.authorization: "Bearer \(token)"], body: nil)
        guard (200..<300).contains(response.status.code) else {
            throw LoadError("the sample \(probe.method) \(probe.path) answered \(response.status)")
        }
        return response.body
    }

    /// The floor's rows: its rate beside the trivial route's, and the real route's share of it.
    private static func floorRows(
        name: String, floor: Outcome, trivial: Outcome?, completions: Outcome?, repeats: Outcome?, target: Double
    ) -> [ResultRow] {
        var rows = [
            ResultRow(
                benchmark: name,
                metric: "floor: least a durable check-in costs on this stack (no engine, no JSON), req/s",
                measured: Format.grouped(Int(floor.rate)),
                baseline: trivial.map { Format.grouped(Int($0.rate)) } ?? "—",
                ratio: trivial.map { Format.ratio(floor.rate / $0.rate) } ?? "—",
                target: "bounds the ≥ \(Format.grouped(Int(target)))/s target"),
            ResultRow(
                benchmark: name, metric: "floor p50 / p99",
                measured: "\(Format.duration(floor.p50)) / \(Format.duration(floor.p99))"),
        ]
        if let micros = floor.coreMicros {
            rows.append(
                ResultRow(
                    benchmark: name, metric: "floor: busy core time per request (whole machine)",
                    measured: Format.duration(micros * 1e3),
                    baseline: completions?.coreMicros.map { Format.duration($0 * 1e3) } ?? "—",
                    ratio: completions?.coreMicros.map { Format.ratio(micros / $0) } ?? "—"))
        }
        if let completions {
            rows.append(
                ResultRow(
                    benchmark: name, metric: "durable check-ins ÷ floor (most unlock a first milestone)",
                    measured: Format.grouped(Int(completions.rate)),
                    baseline: Format.grouped(Int(floor.rate)), ratio: Format.ratio(completions.rate / floor.rate)))
        }
        if let repeats {
            rows.append(
                ResultRow(
                    benchmark: name, metric: "check-ins that unlock nothing ÷ floor",
                    measured: Format.grouped(Int(repeats.rate)),
                    baseline: Format.grouped(Int(floor.rate)), ratio: Format.ratio(repeats.rate / floor.rate),
                    target: "≥ 0.6× the floor", met: repeats.rate >= 0.6 * floor.rate))
            if let micros = repeats.coreMicros, let floorMicros = floor.coreMicros {
                rows.append(
                    ResultRow(
                        benchmark: name, metric: "check-in that unlocks nothing: busy core time (whole machine)",
                        measured: Format.duration(micros * 1e3),
                        baseline: Format.duration(floorMicros * 1e3) + " (floor)",
                        ratio: Format.ratio(micros / floorMicros)))
            }
        }
        if floor.errors > 0 {
            rows.append(ResultRow(benchmark: name, metric: "floor errors (non-2xx)", measured: "\(floor.errors)"))
        }
        return rows
    }

    /// The read floor's rows: its p99 beside the trivial route's, and the dashboard's beside
    /// it, under the light load.
    private static func readFloorRows(
        name: String, connections: Int, readFloor: Outcome?, trivialLight: Outcome?, dashboardLight: Outcome?
    ) -> [ResultRow] {
        guard let readFloor, let trivialLight else { return [] }
        var rows = [
            ResultRow(
                benchmark: name,
                metric:
                    "read floor (token, one version read, fixed answer) p50 / p99, \(connections) connections "
                    + "(\(Format.grouped(Int(readFloor.rate))) req/s)",
                measured: "\(Format.duration(readFloor.p50)) / \(Format.duration(readFloor.p99))",
                baseline: "\(Format.duration(trivialLight.p50)) / \(Format.duration(trivialLight.p99))",
                ratio: Format.ratio(readFloor.p99 / trivialLight.p99))
        ]
        if let dashboardLight {
            rows.append(
                ResultRow(
                    benchmark: name, metric: "GET /v1/today p99 ÷ read floor p99, \(connections) connections",
                    measured: Format.duration(dashboardLight.p99), baseline: Format.duration(readFloor.p99),
                    ratio: Format.ratio(dashboardLight.p99 / readFloor.p99)))
        }
        if readFloor.errors > 0 {
            rows.append(
                ResultRow(benchmark: name, metric: "read floor errors (non-2xx)", measured: "\(readFloor.errors)"))
        }
        return rows
    }

    /// The result rows of the phases that ran.
    private static func rows(
        name: String, shape: Shape, users: Int, completionTarget: Double, trivial: Outcome?, completions: Outcome?,
        dashboard: Outcome?, trivialLight: Outcome?, dashboardLight: Outcome?
    ) -> [ResultRow] {
        let c = shape.connections
        let l = shape.lightConnections
        var rows: [ResultRow] = []
        let baselineRate = trivial.map { Format.grouped(Int($0.rate)) } ?? "—"
        let baselineLatency = trivial.map { "\(Format.duration($0.p50)) / \(Format.duration($0.p99))" } ?? "—"
        if let trivial {
            rows.append(
                ResultRow(
                    benchmark: name, metric: "GET /healthz req/s, \(c) connections (ceiling)",
                    measured: Format.grouped(Int(trivial.rate))))
            rows.append(
                ResultRow(benchmark: name, metric: "GET /healthz p50 / p99", measured: baselineLatency))
        }
        if let completions {
            rows.append(
                ResultRow(
                    benchmark: name, metric: "durable check-ins/s, \(Format.grouped(users)) users",
                    measured: Format.grouped(Int(completions.rate)), baseline: baselineRate,
                    ratio: trivial.map { Format.ratio(completions.rate / $0.rate) } ?? "—",
                    target: "≥ \(Format.grouped(Int(completionTarget)))/s", met: completions.rate >= completionTarget))
            rows.append(
                ResultRow(
                    benchmark: name, metric: "check-in p50 / p99",
                    measured: "\(Format.duration(completions.p50)) / \(Format.duration(completions.p99))",
                    baseline: baselineLatency, ratio: trivial.map { Format.ratio(completions.p99 / $0.p99) } ?? "—",
                    target: "p99 < 25 ms", met: completions.p99 < 25e6))
            if let micros = completions.coreMicros {
                rows.append(
                    ResultRow(
                        benchmark: name, metric: "check-in: busy core time per request (whole machine)",
                        measured: Format.duration(micros * 1e3),
                        baseline: trivial?.coreMicros.map { Format.duration($0 * 1e3) } ?? "—",
                        ratio: trivial?.coreMicros.map { Format.ratio(micros / $0) } ?? "—"))
            }
        }
        if let dashboard {
            rows.append(
                ResultRow(
                    benchmark: name, metric: "GET /v1/today req/s",
                    measured: Format.grouped(Int(dashboard.rate)), baseline: baselineRate,
                    ratio: trivial.map { Format.ratio(dashboard.rate / $0.rate) } ?? "—"))
            rows.append(
                ResultRow(
                    benchmark: name, metric: "GET /v1/today p50 / p99, \(c) connections (queueing)",
                    measured: "\(Format.duration(dashboard.p50)) / \(Format.duration(dashboard.p99))",
                    baseline: baselineLatency, ratio: trivial.map { Format.ratio(dashboard.p99 / $0.p99) } ?? "—"))
        }
        if let dashboardLight, let trivialLight {
            rows.append(
                ResultRow(
                    benchmark: name,
                    metric:
                        "GET /v1/today p50 / p99, \(l) connections (\(Format.grouped(Int(dashboardLight.rate))) req/s)",
                    measured: "\(Format.duration(dashboardLight.p50)) / \(Format.duration(dashboardLight.p99))",
                    baseline: "\(Format.duration(trivialLight.p50)) / \(Format.duration(trivialLight.p99))",
                    ratio: Format.ratio(dashboardLight.p99 / trivialLight.p99), target: "p99 ≤ 2× /healthz p99",
                    met: dashboardLight.p99 <= 2 * trivialLight.p99))
        }
        let outcomes = [trivial, completions, dashboard, trivialLight, dashboardLight].compactMap { $0 }
        rows.append(
            ResultRow(
                benchmark: name, metric: "errors (non-2xx) during the \(outcomes.count) runs",
                measured: "\(outcomes.reduce(0) { $0 + $1.errors })"))
        return rows
    }

    /// Registers `users` accounts over HTTP, each with a `walk` habit; returns their tokens.
    private static func makeUsers(port: Int, shape: Shape) async throws -> [String] {
        try await withThrowingTaskGroup(of: [String].self) { group in
            for connection in 0..<shape.connections {
                group.addTask {
                    try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                        var tokens: [String] = []
                        for user in stride(from: connection, to: shape.users, by: shape.connections) {
                            let body =
                                #"{"email": "u\#(user)@load.local", "password": "load test", "displayName": "u\#(user)", "timeZone": "UTC"}"#
                            let registered = try await client.post(
                                "/v1/accounts", headers: [.contentType: "application/json"],
                                body: ByteBuffer(string: body))
                            let json = try JSONSerialization.jsonObject(
                                with: Data(String(buffer: registered.body ?? ByteBuffer()).utf8))
                            guard let token = (json as? [String: Any])?["token"] as? String else {
                                throw LoadError(
                                    "registration failed: \(String(buffer: registered.body ?? ByteBuffer()))")
                            }
                            let habit = try await client.post(
                                "/v1/habits",
                                headers: [.contentType: "application/json", .authorization: "Bearer \(token)"],
                                body: ByteBuffer(string: #"{"name": "Walk", "habit": "walk"}"#))
                            guard habit.status == .created else {
                                throw LoadError("habit creation failed: \(String(buffer: habit.body ?? ByteBuffer()))")
                            }
                            tokens.append(token)
                        }
                        return tokens
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    struct Outcome {
        var rate: Double
        var p50: Double
        var p99: Double
        var errors: Int
        /// The machine's busy CPU time per request, in µs: server, database and load
        /// generator together (`nil` without `/proc/stat`).
        var coreMicros: Double?
    }

    /// Whether to print each phase's latencies half-second by half-second
    /// (`MOMENTUM_BENCH_TIMELINE=1`), to see stalls that a whole run's percentiles hide.
    static let timeline = ProcessInfo.processInfo.environment["MOMENTUM_BENCH_TIMELINE"] == "1"

    /// Whether to skip ``warmWAL(_:)`` (`MOMENTUM_BENCH_SERVER=…,coldwal`), to measure a
    /// freshly created cluster.
    static let coldWAL = selection?.contains("coldwal") ?? false

    /// Brings a freshly created PostgreSQL cluster's write-ahead log to the state of one
    /// that has run for a while: 32 segments are created (each switch to a new segment
    /// writes its 16 MiB of zeros), then a checkpoint recycles them for the segments to
    /// come. Without this, every new segment stalls the commits waiting on it for 50–100 ms
    /// while PostgreSQL zero-fills it (every 3 s or so at this benchmark's write rate); a
    /// server that has run for a while writes into recycled segments instead.
    static func warmWAL(_ connection: PostgresConnection) async throws {
        guard !coldWAL else { return }
        let logger = Logger(label: "bench")
        for _ in 0..<32 {
            _ = try await connection.query("SELECT pg_logical_emit_message(false, 'momentum', 'warm')", logger: logger)
            _ = try await connection.query("SELECT pg_switch_wal()", logger: logger)
        }
        _ = try await connection.query("CHECKPOINT", logger: logger)
    }

    /// One kind of request of a run: a method, a path, and whether it carries a user's token.
    struct Probe: Sendable {
        var method: String
        var path: String
        var signed: Bool

        /// The whole request for a user's token.
        func encoded(_ token: String) -> ByteBuffer {
            LoadGenerator.request(method, path, headers: signed ? [("Authorization", "Bearer \(token)")] : [])
        }
    }

    /// Each connection's requests for the built-in generator: connection `i` serves the
    /// users `i`, `i + connections`, … in turn, so no two requests of one user overlap.
    static func perConnection(shape: Shape, tokens: [String], _ probe: Probe) -> [[ByteBuffer]] {
        (0..<shape.connections).map { connection in
            stride(from: connection, to: tokens.count, by: shape.connections).map { probe.encoded(tokens[$0]) }
        }
    }

    /// One request per user, not timed: the built-in generator with each request sent once.
    /// Fails if any answer is not 2xx, since the phase after it relies on every user's.
    static func primeCheckIns(port: Int, shape: Shape, tokens: [String], _ probe: Probe) async throws {
        let requests = perConnection(shape: shape, tokens: tokens, probe)
        let result = try await LoadGenerator.run(port: port, requests: requests, until: .max, limit: 1)
        guard result.errors == 0, result.latencies.count == tokens.count else {
            throw LoadError(
                "priming check-ins: \(result.latencies.count) answers for \(tokens.count) users, "
                    + "\(result.errors) not 2xx")
        }
    }

    /// Runs `connections` closed-loop clients for the shape's duration: the built-in
    /// generator (`LoadGenerator`), where connection `i` serves the users `i`,
    /// `i + connections`, … in turn, or `wrk` in a process of its own
    /// (`MOMENTUM_BENCH_LOAD=wrk`, ``Wrk``).
    static func drive(port: Int, shape: Shape, tokens: [String], _ probe: Probe) async throws -> Outcome {
        if Wrk.selected {
            let busyBefore = MachineTime.busySeconds()
            let result = try await Wrk.run(
                port: port, probe: probe, tokens: tokens, connections: shape.connections, seconds: shape.seconds)
            let busy = busyBefore.flatMap { before in MachineTime.busySeconds().map { $0 - before } }
            return Outcome(
                rate: Double(result.requests) / result.seconds, p50: result.p50, p99: result.p99,
                errors: result.errors, coreMicros: busy.map { $0 * 1e6 / Double(max(result.requests, 1)) })
        }
        let requests = perConnection(shape: shape, tokens: tokens, probe)
        let start = Stopwatch.now()
        let busyBefore = MachineTime.busySeconds()
        let result = try await LoadGenerator.run(
            port: port, requests: requests, until: start + UInt64(shape.seconds * 1e9))
        let elapsed = Double(Stopwatch.now() - start) / 1e9
        let busyAfter = MachineTime.busySeconds()
        let busy = busyBefore.flatMap { before in busyAfter.map { $0 - before } }
        if timeline {
            var buckets: [Int: [UInt64]] = [:]
            for (latency, end) in zip(result.latencies, result.ends) {
                buckets[Int((end - start) / 500_000_000), default: []].append(latency)
            }
            for key in buckets.keys.sorted() {
                let p = Percentiles(buckets[key]!)
                print(
                    "  t=\(Double(key) / 2)s n=\(buckets[key]!.count) p50=\(Format.duration(p.value(at: 50))) p99=\(Format.duration(p.value(at: 99))) max=\(Format.duration(p.value(at: 100)))"
                )
            }
        }
        let percentiles = Percentiles(result.latencies)
        let count = Double(max(result.latencies.count, 1))
        return Outcome(
            rate: Double(result.latencies.count) / elapsed, p50: percentiles.value(at: 50),
            p99: percentiles.value(at: 99), errors: result.errors, coreMicros: busy.map { $0 * 1e6 / count })
    }

    /// Latency of a 4 KiB write followed by fsync, in the benchmark's directory.
    private static func fsyncLatency(directory: URL, count: Int) -> Percentiles {
        let path = directory.appending(path: "fsync.probe").path
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { return Percentiles([0]) }
        defer { try? handle.close() }
        let block = Data(repeating: 0x6D, count: 4_096)
        var samples: [UInt64] = []
        for _ in 0..<count {
            let start = Stopwatch.now()
            handle.write(block)
            try? handle.synchronize()
            samples.append(Stopwatch.now() - start)
        }
        return Percentiles(samples)
    }

    private static func require(_ port: Int?) throws -> Int {
        guard let port else { throw LoadError("the live server reported no port") }
        return port
    }

    struct LoadError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// The machine's CPU time, from `/proc/stat`.
enum MachineTime {
    /// Seconds every core together spent busy since boot (user, nice, system, interrupts
    /// and time stolen by the hypervisor; not idle or waiting for I/O), or `nil` where
    /// `/proc/stat` is not readable.
    static func busySeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 8 else { return nil }
        // user, nice, system, idle, iowait, irq, softirq, steal (guest time is inside user).
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
