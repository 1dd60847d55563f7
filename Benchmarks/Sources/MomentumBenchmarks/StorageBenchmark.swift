import Foundation
import GRDB
import Logging
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumStore
import MomentumTestSupport
import PostgresNIO

/// Durable appends per second, single and concurrent, on SQLite and PostgreSQL, each beside
/// the raw database's own single-row commit rate measured in the same run.
///
/// The raw baseline commits one row per transaction, one after another, with the same
/// durability (SQLite WAL + `synchronous = FULL`; PostgreSQL's default `fsync`). Momentum's
/// appends each also update the user's projections in the same transaction.
enum StorageBenchmark {
    static func run(_ settings: Settings) -> [ResultRow] {
        blocking { await measureAll(settings) }
    }

    private static func measureAll(_ settings: Settings) async -> [ResultRow] {
        var rows: [ResultRow] = []
        let commits = settings.quick ? 200 : 1_000
        let users = settings.quick ? 16 : 64
        let perUser = settings.quick ? 10 : 40
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let raw = try rawSQLite(path: directory.appending(path: "raw.sqlite").path, commits: commits)
            let store = try SQLiteStore(path: directory.appending(path: "store.sqlite").path)
            try await store.migrate()
            rows += try await measureStore(
                store, name: "storage-sqlite", raw: raw, commits: commits, users: users, perUser: perUser)
            await store.close()
        } catch {
            print("storage-sqlite failed: \(error)")
        }
        do {
            let cluster = try PostgresTestCluster.shared
            let database = "momentum_bench_\(UInt32.random(in: 0...UInt32.max))"
            try await admin(cluster, "CREATE DATABASE \(database)")
            let raw = try await rawPostgres(url: cluster.url(database: database), commits: commits)
            let store = try PostgresStore(url: cluster.url(database: database) + "&pool=\(min(users, 32))")
            try await store.migrate()
            rows += try await measureStore(
                store, name: "storage-postgres", raw: raw, commits: commits, users: users, perUser: perUser)
            await store.close()
        } catch {
            print("storage-postgres failed: \(error)")
        }
        return rows
    }

    /// Appends for one user after another (single) and for many users at once (concurrent).
    private static func measureStore(
        _ store: any MomentumStore, name: String, raw: Double, commits: Int, users: Int, perUser: Int
    ) async throws -> [ResultRow] {
        let logs = (0..<users).map { Self.log(seed: UInt64($0 + 1), count: perUser) }
        for user in 0..<users {
            try await store.createAccount(
                Account(id: "u\(user)", email: "u\(user)@bench.local", passwordHash: "!", createdAt: Date()),
                profile: Profile(displayName: "u\(user)", updatedAt: Date()))
        }
        // Single: one append at a time, for the first user.
        var single: [UInt64] = []
        let singleStart = Stopwatch.now()
        for event in logs[0] {
            let (_, ns) = try await timed {
                try await store.append([event], for: "u0", receivedAt: event.at, device: nil)
            }
            single.append(ns)
        }
        let singleRate = Double(logs[0].count) / (Double(Stopwatch.now() - singleStart) / 1e9)

        // Concurrent: every other user appends its log at the same time.
        let start = Stopwatch.now()
        let latencies = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for user in 1..<users {
                let log = logs[user]
                group.addTask {
                    var mine: [UInt64] = []
                    for event in log {
                        let (_, ns) = try await timed {
                            try await store.append([event], for: "u\(user)", receivedAt: event.at, device: nil)
                        }
                        mine.append(ns)
                    }
                    return mine
                }
            }
            return try await group.reduce(into: [UInt64]()) { $0 += $1 }
        }
        let concurrentRate = Double(latencies.count) / (Double(Stopwatch.now() - start) / 1e9)
        let singleP = Percentiles(single)
        let concurrentP = Percentiles(latencies)
        return [
            ResultRow(
                benchmark: name, metric: "raw single-row commits/s (\(commits))", measured: Format.grouped(Int(raw))),
            ResultRow(
                benchmark: name, metric: "appends/s, one at a time",
                measured: Format.grouped(Int(singleRate)), baseline: Format.grouped(Int(raw)),
                ratio: Format.ratio(singleRate / raw)),
            ResultRow(
                benchmark: name,
                metric: "append p50 / p99, one at a time",
                measured:
                    "\(Format.duration(singleP.value(at: 50))) / \(Format.duration(singleP.value(at: 99)))"),
            ResultRow(
                benchmark: name, metric: "appends/s, \(users - 1) users at once",
                measured: Format.grouped(Int(concurrentRate)), baseline: Format.grouped(Int(raw)),
                ratio: Format.ratio(concurrentRate / raw), target: "≥ 5× raw", met: concurrentRate >= 5 * raw),
            ResultRow(
                benchmark: name,
                metric: "append p50 / p99, \(users - 1) users at once",
                measured:
                    "\(Format.duration(concurrentP.value(at: 50))) / \(Format.duration(concurrentP.value(at: 99)))"),
        ]
    }

    private static func timed<T>(_ body: () async throws -> T) async rethrows -> (T, UInt64) {
        let start = Stopwatch.now()
        let value = try await body()
        return (value, Stopwatch.now() - start)
    }

    /// A habit and `count - 1` daily completions.
    private static func log(seed: UInt64, count: Int) -> [Event] {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        var events = [
            Event(
                id: "h\(seed)", at: start, timeZone: "UTC",
                payload: .habitCreated(HabitDefinition(id: "read", name: "Read")))
        ]
        for day in 1..<count {
            events.append(
                Event(
                    id: "c\(seed)-\(day)", at: start.addingTimeInterval(Double(day) * 86_400 - 3_600), timeZone: "UTC",
                    payload: .completion(habit: "read", day: nil, value: 1, note: nil)))
        }
        return events
    }

    /// SQLite's own rate: one-row transactions, one after another, WAL + synchronous=FULL.
    private static func rawSQLite(path: String, commits: Int) throws -> Double {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)") }
        let start = Stopwatch.now()
        for index in 0..<commits {
            try pool.write { db in
                try db.execute(sql: "INSERT INTO t (id, body) VALUES (?, ?)", arguments: [index, "row \(index)"])
            }
        }
        let rate = Double(commits) / (Double(Stopwatch.now() - start) / 1e9)
        try pool.close()
        return rate
    }

    /// PostgreSQL's own rate: one-row autocommit inserts on one connection.
    private static func rawPostgres(url: String, commits: Int) async throws -> Double {
        let connection = try await connect(url)
        let logger = Logger(label: "bench")
        _ = try await connection.query("CREATE TABLE raw_t (id BIGINT PRIMARY KEY, body TEXT NOT NULL)", logger: logger)
            .get()
        let start = Stopwatch.now()
        for index in 0..<commits {
            _ = try await connection.query(
                "INSERT INTO raw_t (id, body) VALUES (\(Int64(index)), \("row \(index)"))", logger: logger
            ).get()
        }
        let rate = Double(commits) / (Double(Stopwatch.now() - start) / 1e9)
        try await connection.close()
        return rate
    }

    private static func connect(_ url: String) async throws -> PostgresConnection {
        let parts = URLComponents(string: url)!
        let configuration = PostgresConnection.Configuration(
            host: parts.host ?? "127.0.0.1", port: parts.port ?? 5432, username: parts.user ?? "postgres",
            password: parts.password, database: String(parts.path.dropFirst()), tls: .disable)
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "bench"))
    }

    private static func admin(_ cluster: PostgresTestCluster, _ sql: String) async throws {
        let connection = try await connect(cluster.url(database: "postgres"))
        _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "bench")).get()
        try await connection.close()
    }
}
