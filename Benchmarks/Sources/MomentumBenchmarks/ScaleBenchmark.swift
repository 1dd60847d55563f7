import Foundation
import GRDB
import HummingbirdBcrypt
import HummingbirdTesting
import MomentumCore
import MomentumSQLite
import MomentumStore
import MomentumTestSupport
import NIOCore

/// Benchmark 13: many users on one machine (issue 29 §3).
///
/// A SQLite database of `users` registered users, each with `habits` daily habits and
/// `days` days of history (``generate(path:shape:)``), is
/// served by the real `momentum serve` process, started with an engine cache bounded in
/// bytes. Then `active` of the users sign in and use the app, and the benchmark reads the
/// server's resident memory from `/proc/<pid>/status` throughout:
///
/// 1. the cold pass: each active user's first `GET /v1/today` after the server started
///    (their engine is replayed from their log);
/// 2. the warm pass: the same request for users whose engines the cache holds;
/// 3. the busy hour: check-ins and dashboards of every active user in a shuffled order, so
///    that the cache, smaller than the active users' engines, keeps evicting.
///
/// The database is kept between runs when `MOMENTUM_BENCH_SCALE_DIR` names a directory
/// (generating 100,000 users takes minutes). The shape comes from `MOMENTUM_BENCH_SCALE_USERS`,
/// `…_ACTIVE`, `…_HABITS`, `…_DAYS`, `…_CACHE_MB` and `…_SECONDS`.
enum ScaleBenchmark {
    static func run(_ settings: Settings) -> [ResultRow] {
        blocking { await measureAll(settings) }
    }

    struct Shape: Sendable, CustomStringConvertible {
        var users: Int
        var active: Int
        var habits: Int
        var days: Int
        var cacheMegabytes: Int
        var seconds: Double
        var connections = 8

        var description: String {
            "\(Format.grouped(users)) users × \(habits) habit\(habits == 1 ? "" : "s") × \(days) days, "
                + "\(Format.grouped(active)) active"
        }
    }

    static func shape(_ settings: Settings) -> Shape {
        let environment = ProcessInfo.processInfo.environment
        func number(_ name: String, _ fallback: Int) -> Int {
            environment["MOMENTUM_BENCH_SCALE_" + name].flatMap { Int($0) }.map { min(max(1, $0), 10_000_000) }
                ?? fallback
        }
        let users = number("USERS", settings.quick ? 300 : 100_000)
        return Shape(
            users: users, active: min(users, number("ACTIVE", max(1, users / 10))), habits: number("HABITS", 1),
            days: number("DAYS", settings.quick ? 60 : 365),
            cacheMegabytes: number("CACHE_MB", settings.quick ? 2 : 256),
            seconds: Double(number("SECONDS", settings.quick ? 2 : 20)))
    }

    static let password = "scale test"
    static let zone = "America/New_York"

    static func user(_ index: Int) -> String { "u_scale\(index)" }
    static func email(_ index: Int) -> String { "s\(index)@scale.local" }

    private static func measureAll(_ settings: Settings) async -> [ResultRow] {
        let shape = shape(settings)
        let environment = ProcessInfo.processInfo.environment
        let kept = environment["MOMENTUM_BENCH_SCALE_DIR"].map { URL(fileURLWithPath: $0) }
        let directory =
            kept ?? FileManager.default.temporaryDirectory.appending(path: "momentum-scale-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if kept == nil { try? FileManager.default.removeItem(at: directory) } }
        let name = "scale-\(shape.users)u-\(shape.habits)h-\(shape.days)d-\(templates)t"
        let path = directory.appending(path: name + ".sqlite").path
        let marker = directory.appending(path: name + ".done")
        do {
            let generated: Generated
            if let data = try? Data(contentsOf: marker),
                let previous = try? JSONDecoder().decode(Generated.self, from: data)
            {
                generated = previous
                print("  reusing \(path): \(shape.description), \(Format.grouped(previous.events)) events")
            } else {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                generated = try await generate(path: path, shape: shape)
                try JSONEncoder().encode(generated).write(to: marker)
            }
            let calibration = try await calibrate(path: path, shape: shape)
            return try await measure(path: path, shape: shape, generated: generated) + calibration
        } catch {
            print("  scale failed: \(error)")
            return [ResultRow(benchmark: "scale", metric: "failed", measured: "\(error)")]
        }
    }

    /// What the generation wrote.
    struct Generated: Codable {
        var users: Int
        var events: Int
        var seconds: Double
    }

    /// Distinct histories written through the store; the other users are copies of them
    /// (`MOMENTUM_BENCH_SCALE_TEMPLATES`, 200 by default: fewer for long histories).
    static let templates: Int = {
        let text = ProcessInfo.processInfo.environment["MOMENTUM_BENCH_SCALE_TEMPLATES"] ?? ""
        return min(max(Int(text) ?? 200, 1), 10_000)
    }()

    /// Writes ``templates`` users and their histories through a SQLite store, as their phones
    /// would have sent them: each day's events on that day (so a replay rewinds nothing,
    /// as for a user who syncs daily). Then copies them, row by row in SQL with new ids and
    /// emails, until there are `users` (writing 100,000 users through the store would take
    /// hours here; a copy's log, projections and engine are its template's).
    static func generate(path: String, shape: Shape) async throws -> Generated {
        let store = try SQLiteStore(path: path, engineCacheCapacity: 64)
        try await store.migrate()
        let hash = Bcrypt.hash(password, cost: 4)
        let table = ZoneOffsetTable.named(zone)!
        let clock = DayClock()
        let today = clock.localDay(of: Date(), in: table)
        let firstDay = today.advanced(by: -shape.days)
        let created = Date().addingTimeInterval(-Double(shape.days + 2) * 86_400)
        let start = Stopwatch.now()
        let workers = 4
        let written = min(templates, shape.users)
        let events = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var count = 0
                    for index in stride(from: worker, to: written, by: workers) {
                        let id = user(index)
                        try await store.createAccount(
                            Account(id: id, email: email(index), passwordHash: hash, createdAt: created),
                            profile: Profile(displayName: "s\(index)", timeZone: zone, updatedAt: created))
                        var options = LogGenerator.Options()
                        options.habits = shape.habits
                        options.days = shape.days
                        options.firstDay = firstDay
                        options.timeZone = zone
                        options.completionRate = 0.7
                        options.seed = 0x5CA1_E000_0000 &+ UInt64(index)
                        let log = LogGenerator(options).events()
                        var from = 0
                        while from < log.count {
                            let day = clock.localDay(of: log[from].at, in: table)
                            var to = from + 1
                            while to < log.count, clock.localDay(of: log[to].at, in: table) == day { to += 1 }
                            let batch = Array(log[from..<to])
                            let arrived = (batch.map(\.at).max() ?? created).addingTimeInterval(60)
                            _ = try await store.append(batch, for: id, receivedAt: arrived, device: nil)
                            from = to
                        }
                        count += log.count
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        await store.close()
        print(
            "  \(written) distinct users written through the store in "
                + "\(Format.fixed(Double(Stopwatch.now() - start) / 1e9, 0)) s")
        let copies = try copy(path: path, templates: written, users: shape.users)
        let seconds = Double(Stopwatch.now() - start) / 1e9
        let total = events * (shape.users / written) + copies.partialEvents
        print("  generated \(shape.description): \(Format.grouped(total)) events in \(Format.fixed(seconds, 0)) s")
        return Generated(users: shape.users, events: total, seconds: seconds)
    }

    /// Copies the first `templates` users' rows of every per-user table (every table with a
    /// `user_id` column) until there are `users`: user `t + k × templates` is a copy of
    /// user `t`, with its own id and email.
    static func copy(path: String, templates: Int, users: Int) throws -> (copied: Int, partialEvents: Int) {
        guard users > templates else { return (0, 0) }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let start = Stopwatch.now()
        let result = try queue.writeWithoutTransaction { db -> (Int, Int) in
            // A generation, not a measurement: no journal while copying.
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
            var copied: [(table: String, columns: [String])] = []
            for table in tables {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
                if columns.contains("user_id") { copied.append((table, columns)) }
            }
            // The template's number, and the copy's.
            let number = "CAST(substr(user_id, 8) AS INTEGER)"
            var partialEvents = 0
            for offset in stride(from: templates, to: users, by: templates) {
                let count = min(templates, users - offset)
                // The templates by key (every per-user key leads with the user id).
                let sources = (0..<count).map { "'\(user($0))'" }.joined(separator: ", ")
                try db.inTransaction {
                    for (table, columns) in copied {
                        let values = columns.map { column -> String in
                            switch column {
                            case "user_id": return "'u_scale' || (\(number) + \(offset))"
                            case "email": return "'s' || (\(number) + \(offset)) || '@scale.local'"
                            default: return column
                            }
                        }
                        try db.execute(
                            sql: """
                                INSERT INTO \(table) (\(columns.joined(separator: ", ")))
                                SELECT \(values.joined(separator: ", ")) FROM \(table)
                                WHERE user_id IN (\(sources))
                                """)
                    }
                    return .commit
                }
                if count < templates {
                    partialEvents =
                        try Int.fetchOne(
                            db, sql: "SELECT count(*) FROM events WHERE user_id IN (\(sources))")
                        ?? 0
                }
                if (offset / templates) % max(1, users / templates / 10) == 0 {
                    print(
                        "    \(Format.grouped(offset + count)) users in "
                            + "\(Format.fixed(Double(Stopwatch.now() - start) / 1e9, 0)) s")
                }
            }
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            return (users - templates, partialEvents)
        }
        return (result.0, result.1)
    }

    /// Loads users' engines into an unbounded cache in this process and compares the
    /// heap they take (glibc's `mallinfo2`) with the cache's estimate of their bytes, by
    /// which `--engine-cache-mb` bounds it.
    static func calibrate(path: String, shape: Shape) async throws -> [ResultRow] {
        guard Heap.snapshot() != nil else { return [] }
        let count = min(shape.users, 1_000)
        let store = try SQLiteStore(path: path, engineCacheCapacity: count + 1)
        // A first load brings what every load shares (zone tables, the pack, caches).
        _ = try await store.evaluate(user(0)) { engine, _ in engine.streaks.eventCount }
        store.engines.removeAll()
        let before = Heap.snapshot()!
        var events = 0
        for index in 0..<count {
            events += try await store.evaluate(user(index)) { engine, _ in engine.streaks.eventCount }
        }
        let after = Heap.snapshot()!
        let estimate = store.statistics.engineCache?.estimatedBytes ?? 0
        let heap = after.total - before.total
        await store.close()
        let perUser = Double(heap) / Double(count)
        let estimated = Double(estimate) / Double(count)
        print(
            "  calibration: \(count) engines of \(Format.fixed(Double(events) / Double(count), 0)) events each: "
                + "heap \(Format.bytes(perUser)) per user, the cache's estimate \(Format.bytes(estimated))")
        return [
            ResultRow(
                benchmark: "scale", metric: "cached engine: heap per user (\(count) users, in process)",
                measured: Format.bytes(perUser), baseline: Format.bytes(estimated) + " (the cache's estimate)",
                ratio: perUser > 0 ? Format.ratio(estimated / perUser) : "—", target: "estimate ≥ heap",
                met: estimated >= perUser)
        ]
    }

    /// The `momentum` executable built beside this one.
    static func serverExecutable() -> URL? {
        let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidate = own.deletingLastPathComponent().appending(path: "momentum")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// A process's resident memory now and at its peak (`VmRSS`, `VmHWM`), in bytes.
    static func residentMemory(of pid: Int32) -> (now: Int, peak: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap { line in
                line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1_024 }
            }
        }
        guard let now = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        return (now, peak)
    }

    /// The server's metrics, by name (series without labels only).
    static func metrics(port: Int) async throws -> [String: Double] {
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            let response = try await client.get("/metrics")
            var values: [String: Double] = [:]
            for line in String(buffer: response.body ?? ByteBuffer()).split(separator: "\n")
            where !line.hasPrefix("#") {
                let parts = line.split(separator: " ")
                if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
            }
            return values
        }
    }

    private static func measure(path: String, shape: Shape, generated: Generated) async throws -> [ResultRow] {
        guard let executable = serverExecutable() else {
            print("  the momentum executable is not built beside this one (swift build --product momentum); skipped")
            return [ResultRow(benchmark: "scale", metric: "skipped: momentum not built", measured: "—")]
        }
        let databaseBytes = ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0)
        }
        let port = try PostgresTestCluster.freePort()
        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "serve", "--database", path, "--host", "127.0.0.1", "--port", "\(port)", "--bcrypt-cost", "4",
            "--user-requests-per-minute", "0", "--address-requests-per-minute", "0",
            "--password-checks-per-address", "64", "--password-queue", "10000",
            "--engine-cache-mb", "\(shape.cacheMegabytes)", "--notification-interval", "0",
            "--delivery-interval", "0", "--log-level", "error",
        ]
        let log = FileManager.default.temporaryDirectory.appending(path: "momentum-scale-server-\(port).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw ServerLoadBenchmark.LoadError("cannot write \(log.path)")
        }
        let logHandle = try FileHandle(forWritingTo: log)
        process.standardOutput = logHandle
        process.standardError = logHandle
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
            try? logHandle.close()
            try? FileManager.default.removeItem(at: log)
        }
        let pid = process.processIdentifier
        try await waitUntilReady(port: port, process: process, log: log)
        let started = residentMemory(of: pid)

        // The active users sign in (their sessions are what the next hour's requests carry).
        let signInStart = Stopwatch.now()
        let tokens = try await signIn(port: port, shape: shape)
        let signInSeconds = Double(Stopwatch.now() - signInStart) / 1e9
        let signedIn = residentMemory(of: pid)
        print(
            "  \(shape.description); \(Format.grouped(tokens.count)) signed in in \(Format.fixed(signInSeconds, 1)) s; "
                + "RSS \(mib(started?.now)) at start, \(mib(signedIn?.now)) signed in")

        // Connection c serves the active users c, c + connections, … in turn.
        let c = shape.connections
        let today: (String) -> ByteBuffer = { token in
            LoadGenerator.request("GET", "/v1/today", headers: [("Authorization", "Bearer \(token)")])
        }
        let lists = (0..<c).map { connection in Array(stride(from: connection, to: tokens.count, by: c)) }

        // 1. Cold: every active user's first dashboard since the server started.
        let before = try await metrics(port: port)
        let coldStart = Stopwatch.now()
        let cold = try await LoadGenerator.run(
            port: port, requests: lists.map { $0.map { today(tokens[$0]) } }, until: .max, limit: 1)
        let coldSeconds = Double(Stopwatch.now() - coldStart) / 1e9
        let afterCold = try await metrics(port: port)
        let coldMemory = residentMemory(of: pid)
        let cachedUsers = Int(afterCold["momentum_engine_cache_users"] ?? 0)
        let cachedBytes = afterCold["momentum_engine_cache_bytes"] ?? 0
        let coldPercentiles = Percentiles(cold.latencies)
        print(
            "  cold pass: \(Format.grouped(cold.latencies.count)) first requests in \(Format.fixed(coldSeconds, 1)) s, "
                + "p50 \(Format.duration(coldPercentiles.value(at: 50))), p99 \(Format.duration(coldPercentiles.value(at: 99))); "
                + "replays \(Int((afterCold["momentum_engine_cache_replays_total"] ?? 0) - (before["momentum_engine_cache_replays_total"] ?? 0))), "
                + "cache holds \(Format.grouped(cachedUsers)) users, \(mib(Int(cachedBytes))) of \(shape.cacheMegabytes) MiB; RSS \(mib(coldMemory?.now))"
        )

        // 2. Warm: users the cache holds (the last loaded of each connection's list; half of
        // what it holds, so that none is evicted during the pass).
        let warmPerConnection = max(1, cachedUsers / 2 / c)
        let warmLists = lists.map { Array($0.suffix(warmPerConnection)) }
        let warmStart = Stopwatch.now()
        let warm = try await LoadGenerator.run(
            port: port, requests: warmLists.map { $0.map { today(tokens[$0]) } },
            until: warmStart + UInt64(shape.seconds / 2 * 1e9))
        let afterWarm = try await metrics(port: port)
        let warmReplays = Int(
            (afterWarm["momentum_engine_cache_replays_total"] ?? 0)
                - (afterCold["momentum_engine_cache_replays_total"] ?? 0))
        let warmPercentiles = Percentiles(warm.latencies)
        print(
            "  warm pass: \(Format.grouped(warmPerConnection * c)) users, \(Format.grouped(warm.latencies.count)) requests, "
                + "p50 \(Format.duration(warmPercentiles.value(at: 50))), p99 \(Format.duration(warmPercentiles.value(at: 99))), "
                + "\(warmReplays) replays")

        // 3. The busy hour: a check-in and a dashboard for each active user, in a shuffled
        // order, while a sampler reads the server's resident memory every 100 ms.
        var generator = SplitMix64(seed: 29)
        let busyLists = lists.map { list -> [ByteBuffer] in
            var shuffled = list
            shuffled.shuffle(using: &generator)
            return shuffled.flatMap { index -> [ByteBuffer] in
                let habit = "h\(index % shape.habits)"
                let header = [("Authorization", "Bearer \(tokens[index])")]
                return [
                    LoadGenerator.request("POST", "/v1/habits/\(habit)/check-ins", headers: header),
                    LoadGenerator.request("GET", "/v1/today", headers: header),
                ]
            }
        }
        let sampler = Task {
            var highest = 0
            while !Task.isCancelled {
                highest = max(highest, residentMemory(of: pid)?.now ?? 0)
                try? await Task.sleep(for: .milliseconds(100))
            }
            return highest
        }
        let busyStart = Stopwatch.now()
        let busy = try await LoadGenerator.run(
            port: port, requests: busyLists, until: busyStart + UInt64(shape.seconds * 1e9))
        let busySeconds = Double(Stopwatch.now() - busyStart) / 1e9
        sampler.cancel()
        let sampledPeak = await sampler.value
        let afterBusy = try await metrics(port: port)
        let ending = residentMemory(of: pid)
        func delta(_ name: String) -> Double { (afterBusy[name] ?? 0) - (afterWarm[name] ?? 0) }
        let hits = delta("momentum_engine_cache_hits_total")
        let replays = delta("momentum_engine_cache_replays_total")
        let hitRate = hits + replays > 0 ? hits / (hits + replays) : 0
        let busyPercentiles = Percentiles(busy.latencies)
        let peak = max(sampledPeak, ending?.peak ?? 0)
        print(
            "  busy hour: \(Format.grouped(busy.latencies.count)) requests in \(Format.fixed(busySeconds, 1)) s, "
                + "p50 \(Format.duration(busyPercentiles.value(at: 50))), p99 \(Format.duration(busyPercentiles.value(at: 99))), "
                + "cache hit rate \(Format.fixed(hitRate * 100, 1)) %, evictions \(Int(delta("momentum_engine_cache_evictions_total"))); "
                + "RSS \(mib(ending?.now)) now, \(mib(peak)) at peak; errors \(cold.errors + warm.errors + busy.errors)"
        )

        let baseline = started?.now ?? 0
        let cap = shape.cacheMegabytes * 1_048_576
        // The bound: the server as it started, the engine cache's budget, and an allowance
        // of a quarter of the budget (at least 64 MiB) for the allocator's slack and what the
        // estimate leaves out.
        let allowance = max(64 * 1_048_576, cap / 4)
        let bound = baseline + cap + allowance
        let coldP99 = coldPercentiles.value(at: 99)
        let warmP99 = warmPercentiles.value(at: 99)
        return [
            ResultRow(
                benchmark: "scale", metric: "data: \(shape.description)",
                measured:
                    "\(Format.grouped(generated.events)) events, \(mib(databaseBytes)) on disk (generated in \(Format.fixed(generated.seconds, 0)) s)"
            ),
            ResultRow(
                benchmark: "scale", metric: "server RSS: started / \(Format.grouped(tokens.count)) signed in",
                measured: "\(mib(started?.now)) / \(mib(signedIn?.now))"),
            ResultRow(
                benchmark: "scale", metric: "cold first GET /v1/today p50 / p99, \(c) connections",
                measured: "\(Format.duration(coldPercentiles.value(at: 50))) / \(Format.duration(coldP99))",
                baseline:
                    "\(Format.duration(warmPercentiles.value(at: 50))) / \(Format.duration(warmP99)) (warm)",
                ratio: warmP99 > 0 ? Format.ratio(coldP99 / warmP99) : "—"),
            ResultRow(
                benchmark: "scale", metric: "engine cache after the cold pass (users, estimated bytes)",
                measured: "\(Format.grouped(cachedUsers)) users, \(mib(Int(cachedBytes)))",
                baseline: "\(shape.cacheMegabytes) MiB budget"),
            ResultRow(
                benchmark: "scale",
                metric: "busy hour: check-in + dashboard of \(Format.grouped(tokens.count)) active users, p50 / p99",
                measured:
                    "\(Format.duration(busyPercentiles.value(at: 50))) / \(Format.duration(busyPercentiles.value(at: 99)))",
                baseline: "\(Format.grouped(Int(Double(busy.latencies.count) / busySeconds))) req/s",
                ratio: "hit rate \(Format.fixed(hitRate * 100, 0)) %"),
            ResultRow(
                benchmark: "scale", metric: "server peak RSS (VmHWM) vs start + cache budget + allowance",
                measured: mib(peak), baseline: "\(mib(bound)) (\(mib(baseline)) + \(mib(cap)) + \(mib(allowance)))",
                ratio: bound > 0 ? Format.ratio(Double(peak) / Double(bound)) : "—", target: "≤ the bound",
                met: peak <= bound),
            ResultRow(
                benchmark: "scale", metric: "errors (non-2xx)", measured: "\(cold.errors + warm.errors + busy.errors)"),
        ]
    }

    static func mib(_ bytes: Int?) -> String {
        guard let bytes else { return "n/a" }
        return Format.fixed(Double(bytes) / 1_048_576, 0) + " MiB"
    }

    /// Waits for `/readyz` to answer 200 (the server migrates and opens its store first).
    static func waitUntilReady(port: Int, process: Process, log: URL) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw ServerLoadBenchmark.LoadError("momentum serve exited: \(text)")
            }
            let ready = try? await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                try await client.get("/readyz").status
            }
            if ready == .ok { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServerLoadBenchmark.LoadError("momentum serve was not ready within 120 s")
    }

    /// Signs the active users in over `connections` connections; returns their tokens.
    static func signIn(port: Int, shape: Shape) async throws -> [String] {
        let c = shape.connections
        let parts = try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
            for connection in 0..<c {
                group.addTask {
                    try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                        var tokens: [(Int, String)] = []
                        // Active users are spread over all users: every tenth, say.
                        for slot in stride(from: connection, to: shape.active, by: c) {
                            let index = slot * shape.users / shape.active
                            let body =
                                #"{"email": "\#(email(index))", "password": "\#(password)", "deviceName": "phone"}"#
                            let response = try await client.post(
                                "/v1/sessions", headers: [.contentType: "application/json"],
                                body: ByteBuffer(string: body))
                            let json = try JSONSerialization.jsonObject(
                                with: Data(String(buffer: response.body ?? ByteBuffer()).utf8))
                            guard let token = (json as? [String: Any])?["token"] as? String else {
                                throw ServerLoadBenchmark.LoadError(
                                    "sign-in failed: \(String(buffer: response.body ?? ByteBuffer()))")
                            }
                            tokens.append((slot, token))
                        }
                        return tokens
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return parts.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
