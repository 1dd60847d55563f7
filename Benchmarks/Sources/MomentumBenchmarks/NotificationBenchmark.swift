import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumServer
import MomentumServices
import MomentumStore
import MomentumTestSupport
import NIOCore
import Synchronization

/// Benchmark 11: notifications at scale (issue 26), each figure beside a baseline measured in
/// the same run.
///
/// - Planning: Core's `NotificationPlanner` over a million users' runs (a year of history,
///   10 habits each, 64 distinct users repeated), against the plain insert of the rows it
///   plans.
/// - The due scan: claiming the next 200 due users among a million wakes, on SQLite and
///   PostgreSQL, its p99 against a plain indexed `SELECT` of the same rows.
/// - Delivery: notifications sent by the server's sender to a webhook sink on loopback,
///   against raw HTTP posts of the same bodies to the same sink with the same concurrency
///   (the floor), and the plain insert of the same queue rows.
enum NotificationBenchmark {
    static func run(_ settings: Settings) -> [ResultRow] {
        // MOMENTUM_BENCH_ONLY=delivery skips the rest (to profile one part).
        let only = ProcessInfo.processInfo.environment["MOMENTUM_BENCH_ONLY"]
        var rows = only == nil ? planning(users: settings.quick ? 20_000 : 1_000_000) : []
        rows += blocking { await measureStores(settings, only: only) }
        return rows
    }

    // MARK: Planning

    /// Situations of users with a year of 10 daily habits, at the end of their log.
    static func situations(count: Int) -> [(NotificationPlanner.Situation, Date)] {
        (0..<count).map { user in
            var options = LogGenerator.Options()
            options.days = 365
            options.seed = 0x6E6F_7469_6600 &+ UInt64(user)
            let events = LogGenerator(options).events()
            let now = Fixtures.now(after: events)
            var engine = EvaluationBenchmark.loaded(events, now: now)
            let state = engine.state(at: now, zone: options.timeZone, calendarDays: 9)
            let series = engine.series(at: now, zone: options.timeZone)
            return (NotificationPlanner.Situation(state: state, series: series), now)
        }
    }

    static func planning(users: Int) -> [ResultRow] {
        let templates = situations(count: 64)
        let planner = NotificationPlanner(
            preferences: NotificationPreferences(weeklySummary: true), zone: ZoneOffsetTable.named("America/New_York")!,
            dayStartHour: 0)
        var checksum: UInt64 = 0
        var planned: [PlannedNotification] = []
        let rounds = Rounds.measure(count: 3, warmup: 0, checksum: &checksum) {
            var sum: UInt64 = 0
            planned.removeAll(keepingCapacity: true)
            for user in 0..<users {
                let (situation, now) = templates[user % templates.count]
                // A run covers the time since the user's last one: here the last 6 hours.
                let run = planner.run(situation, after: now.addingTimeInterval(-6 * 3600), now: now)
                sum &+= UInt64(run.due.count &+ run.dropped.count)
                if user < 20_000 { planned += run.due }
            }
            return sum
        }
        let perUser = rounds.median / Double(users)
        // The baseline: a plain insert of planned rows into SQLite, 500 per statement.
        let insert = plainInsert(planned.isEmpty ? [] : Array(planned.prefix(20_000)))
        print(
            "  planning: \(Format.grouped(users)) users in \(Format.duration(rounds.median)) "
                + "(\(Format.duration(perUser)) per user), \(planned.count) rows planned for the first 20,000")
        print("  plain insert of those rows: \(Format.duration(insert)) per row; checksum \(checksum)")
        return [
            ResultRow(
                benchmark: "notifications", metric: "plan \(Format.grouped(users)) users' runs, 1 core",
                measured: Format.duration(rounds.median) + " (\(Format.duration(perUser))/user)",
                baseline: Format.duration(insert) + "/row (plain insert)",
                ratio: Format.ratio(insert / max(perUser, 1)), target: "1M runs ≤ 60 s on 1 core",
                met: users < 1_000_000 || rounds.median <= 60e9)
        ]
    }

    /// Nanoseconds per row of a plain SQLite insert of notification rows (WAL, 500 rows per
    /// statement and transaction).
    static func plainInsert(_ rows: [PlannedNotification]) -> Double {
        guard !rows.isEmpty else { return 0 }
        let path = FileManager.default.temporaryDirectory.appending(path: "momentum-plain-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        return blocking {
            do {
                let store = try SQLiteStore(path: path)
                try await store.migrate()
                _ = try await store.writeAlone(
                    SQLStatement(
                        """
                        CREATE TABLE plain (user_id TEXT, notification_key TEXT, kind TEXT, title TEXT, body TEXT,
                          url TEXT, day TEXT, meant_at REAL, expires_at REAL, PRIMARY KEY (user_id, notification_key))
                        """, []))
                let start = Stopwatch.now()
                var index = 0
                while index < rows.count {
                    let chunk = rows[index..<min(rows.count, index + 500)]
                    var arguments: [SQLValue] = []
                    for (offset, row) in chunk.enumerated() {
                        arguments += [
                            .text("u\(index + offset)"), .text(row.key), .text(row.kind.rawValue), .text(row.title),
                            .text(row.body), .text(row.url), .text(row.day.description), .date(row.at),
                            .date(row.expires),
                        ]
                    }
                    let marks = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(
                        separator: ", ")
                    _ = try await store.writeAlone(SQLStatement("INSERT INTO plain VALUES \(marks)", arguments))
                    index += chunk.count
                }
                let elapsed = Double(Stopwatch.now() &- start)
                await store.close()
                return elapsed / Double(rows.count)
            } catch {
                print("  plain insert failed: \(error)")
                return 0
            }
        }
    }

    // MARK: The due scan and delivery

    private static func measureStores(_ settings: Settings, only: String?) async -> [ResultRow] {
        var rows: [ResultRow] = []
        let wakes = settings.quick ? 20_000 : 1_000_000
        let scans = settings.quick ? 30 : 300
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-notify-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if only == nil {
            rows += await dueScans(wakes: wakes, scans: scans, directory: directory)
        }
        do {
            let store = try SQLiteStore(path: directory.appending(path: "deliver.sqlite").path)
            try await store.migrate()
            let users = ProcessInfo.processInfo.environment["MOMENTUM_BENCH_DELIVERY_USERS"].flatMap(Int.init)
            rows += try await delivery(store, users: users ?? (settings.quick ? 300 : 5_000))
            await store.close()
        } catch {
            print("  delivery failed: \(error)")
        }
        return rows
    }

    private static func dueScans(wakes: Int, scans: Int, directory: URL) async -> [ResultRow] {
        var rows: [ResultRow] = []
        do {
            let store = try SQLiteStore(path: directory.appending(path: "scan.sqlite").path)
            try await store.migrate()
            rows.append(try await dueScan(store, name: "SQLite", wakes: wakes, scans: scans))
            await store.close()
        } catch {
            print("  due scan on SQLite failed: \(error)")
        }
        do {
            let cluster = try PostgresTestCluster.shared
            let database = try await cluster.createDatabase(prefix: "momentum_notify").name
            let store = try PostgresStore(url: cluster.url(database: database))
            try await store.migrate()
            rows.append(try await dueScan(store, name: "PostgreSQL", wakes: wakes, scans: scans))
            await store.close()
        } catch {
            print("  due scan on PostgreSQL failed: \(error)")
        }
        return rows
    }

    /// Wakes spread evenly over a day; a scan every few minutes of it claims the next 200
    /// due (timed), then the run finishes them (untimed): their next wake is a day later.
    static func dueScan(_ store: some SQLBackend, name: String, wakes: Int, scans: Int) async throws -> ResultRow {
        let start = Date(timeIntervalSince1970: 1_784_000_000)
        var index = 0
        let loadStart = Stopwatch.now()
        while index < wakes {
            let count = min(500, wakes - index)
            var accounts: [SQLValue] = []
            var rows: [SQLValue] = []
            for user in index..<(index + count) {
                let id = String(format: "u%07d", user)
                accounts += [.text(id), .text("\(id)@example.com"), .text("x"), .date(start)]
                rows += [
                    .text(id), .date(start.addingTimeInterval(Double(user) * 86_400 / Double(wakes))), .date(start),
                ]
            }
            _ = try await store.writeAlone(
                SQLStatement(
                    "INSERT INTO accounts (user_id, email, password_hash, created_at) VALUES "
                        + Array(repeating: "(?, ?, ?, ?)", count: count).joined(separator: ", "), accounts))
            _ = try await store.writeAlone(
                SQLStatement(
                    "INSERT INTO notification_wakes (user_id, next_at, checked_until, touched) VALUES "
                        + Array(repeating: "(?, ?, ?, 0)", count: count).joined(separator: ", "), rows))
            index += count
        }
        print(
            "  \(name): \(Format.grouped(wakes)) wakes loaded in \(Format.duration(Double(Stopwatch.now() &- loadStart)))"
        )
        var claims: [UInt64] = []
        var selects: [UInt64] = []
        var claimed = 0
        for scan in 1...scans {
            let now = start.addingTimeInterval(Double(scan) * 86_400 / Double(scans + 1))
            let plain = SQLStatement(
                "SELECT user_id FROM notification_wakes WHERE next_at <= ? ORDER BY next_at LIMIT 200", [.date(now)])
            let (_, selectTime) = try await timed {
                try await store.run(
                    StoreProgram(writes: false) { () throws(StoreError) in
                        .query([plain]) { rows throws(StoreError) in .done(rows[0].count) }
                    })
            }
            selects.append(selectTime)
            let (batch, claimTime) = try await timed {
                try await store.claimNotificationRuns(now: now, lease: 120, limit: 200)
            }
            claims.append(claimTime)
            claimed += batch.count
            // The runs end: each user's next wake is a day later (untimed).
            var ids: [SQLValue] = [.date(now)]
            for claim in batch { ids.append(.text(claim.user)) }
            if !batch.isEmpty {
                _ = try await store.writeAlone(
                    SQLStatement(
                        """
                        UPDATE notification_wakes SET claimed_until = NULL, checked_until = ?,
                          next_at = next_at + 86400
                        WHERE user_id IN (\(Array(repeating: "?", count: batch.count).joined(separator: ", ")))
                        """, ids))
            }
        }
        let claimP99 = Percentiles(claims).value(at: 99)
        let selectP99 = Percentiles(selects).value(at: 99)
        print(
            "  \(name): \(scans) scans claimed \(Format.grouped(claimed)); claim p50 \(Format.duration(Percentiles(claims).median)) "
                + "p99 \(Format.duration(claimP99)); plain select p50 \(Format.duration(Percentiles(selects).median)) "
                + "p99 \(Format.duration(selectP99))")
        return ResultRow(
            benchmark: "notifications", metric: "due scan, \(name): claim 200 of \(Format.grouped(wakes)) wakes, p99",
            measured: Format.duration(claimP99), baseline: Format.duration(selectP99) + " (plain SELECT)",
            ratio: Format.ratio(claimP99 / max(selectP99, 1)), target: "p99 ≤ 50 ms", met: claimP99 <= 50e6)
    }

    /// Notifications for `users` users sent to a webhook sink on loopback by the server's
    /// sender, beside raw posts of the same bodies and a plain insert of the same rows.
    static func delivery(_ store: SQLiteStore, users: Int) async throws -> [ResultRow] {
        let sink = try await Sink.start()
        defer { sink.stop() }
        let now = Date()
        for user in 0..<users {
            try await store.createAccount(
                Account(
                    id: "d\(user)", email: "d\(user)@example.com", passwordHash: "x",
                    createdAt: now.addingTimeInterval(-86_400)),
                profile: Profile(displayName: "D", timeZone: "UTC", pack: "habits", updatedAt: now))
        }
        try await store.createWebhook(
            Webhook(id: "wh_sink", url: "http://127.0.0.1:\(sink.port)/in", secret: "secret", createdAt: now))
        var notifications: [(String, PlannedNotification)] = []
        for user in 0..<users {
            let notification = PlannedNotification(
                key: "milestone:bench", kind: .milestone, title: "First check-in of Read",
                body: "Every streak starts with one day.", url: "/habits/read",
                day: LocalDay(year: 2026, month: 7, day: 14)!, habit: "read", at: now,
                expires: now.addingTimeInterval(86_400))
            notifications.append(("d\(user)", notification))
            _ = try await store.deliverNotifications([notification], to: "d\(user)", at: now)
        }
        var configuration = ServerConfiguration()
        configuration.deliveryInterval = .zero
        configuration.notificationInterval = .zero
        var logger = Logger(label: "momentum.bench")
        logger.logLevel = .critical
        let state = ServerState(store: store, configuration: configuration, logger: logger)
        let start = Stopwatch.now()
        let pass = try await state.runDueDeliveries()
        let elapsed = Double(Stopwatch.now() &- start)
        let rate = Double(pass.sent) / (elapsed / 1e9)
        let received = sink.count

        // The floor: the same number of posts of a body of the same size, 32 at once.
        let body = ByteBuffer(repeating: UInt8(ascii: "x"), count: 420)
        let client = HTTPClient.shared
        let floorStart = Stopwatch.now()
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func start() {
                guard next < users else { return }
                next += 1
                group.addTask {
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(sink.port)/in")
                    request.method = .POST
                    request.body = .bytes(body)
                    _ = try? await client.execute(request, timeout: .seconds(15))
                }
            }
            for _ in 0..<32 { start() }
            while await group.next() != nil { start() }
        }
        let floor = Double(users) / (Double(Stopwatch.now() &- floorStart) / 1e9)
        let insert = plainInsert(
            notifications.map(\.1).enumerated().map { offset, n in
                var copy = n
                copy.key = "k\(offset)"
                return copy
            })
        let insertRate = insert > 0 ? 1e9 / insert : 0
        print(
            "  delivery: \(pass.sent) of \(users) sent in \(Format.duration(elapsed)) (\(Format.grouped(Int(rate)))/s), "
                + "sink received \(received); raw posts \(Format.grouped(Int(floor)))/s; "
                + "plain insert \(Format.grouped(Int(insertRate))) rows/s")
        return [
            ResultRow(
                benchmark: "notifications", metric: "deliveries to a loopback webhook, SQLite, 2 cores",
                measured: "\(Format.grouped(Int(rate)))/s", baseline: "\(Format.grouped(Int(floor)))/s (raw posts)",
                ratio: Format.ratio(rate / max(floor, 1)), target: "every one sent once",
                met: pass.sent == users && received == users),
            ResultRow(
                benchmark: "notifications", metric: "deliveries beside a plain insert of the same rows",
                measured: "\(Format.grouped(Int(rate)))/s", baseline: "\(Format.grouped(Int(insertRate))) rows/s",
                ratio: Format.ratio(rate / max(insertRate, 1))),
        ]
    }

    static func timed<T>(_ body: () async throws -> T) async throws -> (T, UInt64) {
        let start = Stopwatch.now()
        let value = try await body()
        return (value, Stopwatch.now() &- start)
    }

    /// A webhook receiver on loopback that answers 200 and counts.
    final class Sink: Sendable {
        let port: Int
        private let counter: Counter
        private let task: Task<Void, any Error>

        var count: Int { counter.value.load(ordering: .relaxed) }

        private init(port: Int, counter: Counter, task: Task<Void, any Error>) {
            self.port = port
            self.counter = counter
            self.task = task
        }

        static func start() async throws -> Sink {
            let counter = Counter()
            let router = Router()
            router.post("in") { request, _ -> HTTPResponse.Status in
                _ = try await request.body.collect(upTo: 1 << 16)
                counter.value.add(1, ordering: .relaxed)
                return .ok
            }
            let port = Mutex<Int?>(nil)
            var logger = Logger(label: "momentum.sink")
            logger.logLevel = .critical
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } }, logger: logger)
            let task = Task { try await app.runService(gracefulShutdownSignals: []) }
            while port.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
            return Sink(port: port.withLock { $0 } ?? 0, counter: counter, task: task)
        }

        func stop() { task.cancel() }

        private final class Counter: Sendable {
            let value = Atomic<Int>(0)
        }
    }
}
