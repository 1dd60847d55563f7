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
        if ProcessInfo.processInfo.environment["MOMENTUM_FLUSH_LATENCY_US"] != nil, settings.flushLatencyMicros == 0 {
            print(
                "MOMENTUM_FLUSH_LATENCY_US is set but the shim is not preloaded: run under Scripts/with-flush-latency")
        }
        // On a disk whose flush takes a millisecond or more, group commit must pay for itself
        // many times over (issue 29): 10× the raw rate; on this machine's nearly free flush, 5×.
        let target = settings.flushLatencyMicros >= 1000 ? 10.0 : 5.0
        let label = settings.flushLabel
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
                store, name: "storage-sqlite" + label, raw: raw, commits: commits, users: users, perUser: perUser,
                target: target)
            await store.close()
            let floor = try await sqlFloor(
                directory: directory, sample: directory.appending(path: "store.sqlite").path, users: users,
                appends: settings.quick ? 2_000 : 20_000)
            rows.append(
                ResultRow(
                    benchmark: "storage-sqlite" + label,
                    metric: "SQL floor: an append's 3 statements, no engine, 64 per commit",
                    measured: "\(Format.grouped(Int(floor.full)))/s", baseline: Format.grouped(Int(raw)),
                    ratio: Format.ratio(floor.full / raw)))
            rows.append(
                ResultRow(
                    benchmark: "storage-sqlite" + label,
                    metric: "SQL floor: an empty event and the head only, no savepoint, 64 per commit",
                    measured: "\(Format.grouped(Int(floor.minimal)))/s", baseline: Format.grouped(Int(raw)),
                    ratio: Format.ratio(floor.minimal / raw)))
        } catch {
            print("storage-sqlite failed: \(error)")
        }
        do {
            let cluster = try PostgresTestCluster.shared
            let database = try await cluster.createDatabase(prefix: "momentum_bench").name
            let raw = try await rawPostgres(url: cluster.url(database: database), commits: commits)
            let store = try PostgresStore(url: cluster.url(database: database) + "&pool=\(min(users, 32))")
            try await store.migrate()
            rows += try await measureStore(
                store, name: "storage-postgres" + label, raw: raw, commits: commits, users: users, perUser: perUser,
                target: target)
            await store.close()
            let floor = try await postgresFloor(
                url: cluster.url(database: database), users: users, connections: min(users, 32),
                appends: settings.quick ? 1_000 : 10_000)
            rows.append(
                ResultRow(
                    benchmark: "storage-postgres" + label,
                    metric: "SQL floor: an append's transaction, no engine, \(min(users, 32)) connections",
                    measured: "\(Format.grouped(Int(floor)))/s", baseline: Format.grouped(Int(raw)),
                    ratio: Format.ratio(floor / raw)))
        } catch {
            print("storage-postgres failed: \(error)")
        }
        return rows
    }

    /// Appends for one user after another (single) and for many users at once (concurrent).
    private static func measureStore(
        _ store: any MomentumStore, name: String, raw: Double, commits: Int, users: Int, perUser: Int,
        target: Double
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
                ratio: Format.ratio(concurrentRate / raw), target: "≥ \(Int(target))× raw",
                met: concurrentRate >= target * raw),
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

    /// The least SQL an append can cost: the three statements a warm user's append writes
    /// (the event, the habit's projection row, the user's head), with documents of the
    /// size the store really wrote, prepared in advance and committed 64 appends per
    /// transaction, each in a savepoint — the group committer's shape with no engine work.
    /// What no implementation that stores an append with its projection can beat here.
    /// Also returns the rate with the least an append could write at all: an empty event
    /// body and the head, no projection row.
    private static func sqlFloor(
        directory: URL, sample: String, users: Int, appends: Int
    ) async throws -> (full: Double, minimal: Double) {
        let (body, state) = try samples(sample)
        let path = directory.appending(path: "floor.sqlite").path
        let store = try SQLiteStore(path: path)
        try await store.migrate()
        for user in 0..<users {
            try await store.createAccount(
                Account(id: "f\(user)", email: "f\(user)@bench.local", passwordHash: "!", createdAt: Date()),
                profile: Profile(displayName: "f\(user)", updatedAt: Date()))
        }
        await store.close()
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try SQLiteStore.requireFullSync(pool)
        defer { try? pool.close() }
        let full = try floorRun(pool: pool, users: users, appends: appends, body: body, state: state)
        let minimal = try floorRun(pool: pool, users: users, appends: appends, body: "{}", state: nil)
        return (full, minimal)
    }

    /// The last event body and a habit row the measured store wrote, in SQLite.
    static func samples(_ path: String) throws -> (String, String) {
        var configuration = Configuration()
        configuration.readonly = true
        let source = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? source.close() }
        return try source.read { db in
            (
                try String.fetchOne(db, sql: "SELECT body FROM events ORDER BY seq DESC LIMIT 1") ?? "{}",
                try String.fetchOne(db, sql: "SELECT state FROM habits LIMIT 1") ?? "{}"
            )
        }
    }

    private static func floorRun(
        pool: DatabasePool, users: Int, appends: Int, body: String, state: String?
    ) throws -> Double {
        let offset = try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0 }
        let now = Date().timeIntervalSince1970
        let start = Stopwatch.now()
        var done = 0
        while done < appends {
            let batch = min(64, appends - done)
            let first = done
            try pool.write { db in
                let event = try db.cachedStatement(
                    sql: """
                        INSERT INTO events (user_id, seq, event_id, type, at, time_zone, body, received_at, device)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """)
                let habit = try db.cachedStatement(
                    sql: """
                        INSERT INTO habits (user_id, habit_id, ordinal, name, archived, current_streak, best_streak, state)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (user_id, habit_id) DO UPDATE SET ordinal = excluded.ordinal, name = excluded.name,
                          archived = excluded.archived, current_streak = excluded.current_streak,
                          best_streak = excluded.best_streak, state = excluded.state
                        """)
                let head = try db.cachedStatement(
                    sql: """
                        UPDATE user_heads SET version = version + 1, head_seq = ?, diamonds = ?, freezes = ?,
                          evaluated_at = ? WHERE user_id = ?
                        """)
                for index in first..<(first + batch) {
                    let user = "f\((offset + index) % users)"
                    let seq = (offset + index) / users + 1
                    guard let state else {
                        // The least there is: no projection row, no savepoint.
                        try event.execute(arguments: [
                            user, seq, "e\(offset + index)", "completion", now, "UTC", body, now, nil as String?,
                        ])
                        try head.execute(arguments: [seq, 0, 0, now, user])
                        continue
                    }
                    try db.inSavepoint {
                        try event.execute(arguments: [
                            user, seq, "e\(offset + index)", "completion", now, "UTC", body, now, nil as String?,
                        ])
                        try habit.execute(arguments: [user, "read", 0, "Read", false, seq, seq, state])
                        try head.execute(arguments: [seq, 0, 0, now, user])
                        return .commit
                    }
                }
            }
            done += batch
        }
        return Double(appends) / (Double(Stopwatch.now() - start) / 1e9)
    }

    /// The last event body and a habit row the measured store wrote, in PostgreSQL.
    static func samples(_ connection: PostgresConnection) async throws -> (String, String) {
        let logger = Logger(label: "bench")
        let eventRows = try await connection.query(
            "SELECT body FROM events ORDER BY seq DESC LIMIT 1", logger: logger
        ).get().rows
        let habitRows = try await connection.query("SELECT state FROM habits LIMIT 1", logger: logger).get().rows
        return (try eventRows.first?.decode(String.self) ?? "{}", try habitRows.first?.decode(String.self) ?? "{}")
    }

    /// SQLite's own rate: one-row transactions, one after another, WAL + synchronous=FULL.
    private static func rawSQLite(path: String, commits: Int) throws -> Double {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try SQLiteStore.requireFullSync(pool)
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

    /// The least an append can cost on PostgreSQL: its transaction (BEGIN, the event, the
    /// habit's projection row with a document of the stored size, the user's head, COMMIT)
    /// with no engine work and no lock, from `connections` connections at once, each
    /// appending for its own users — what a store that writes an append with its
    /// projection cannot beat here.
    private static func postgresFloor(url: String, users: Int, connections: Int, appends: Int) async throws -> Double {
        let setup = try await connect(url)
        let logger = Logger(label: "bench")
        let (body, state) = try await samples(setup)
        // The measured store's users stay; the floor writes under other ids, after theirs.
        for user in 0..<users {
            let id = "floor\(user)"
            _ = try await setup.query(
                """
                INSERT INTO accounts (user_id, email, password_hash, created_at) VALUES (\(id), \(id + "@bench.local"), '!', 0)
                """, logger: logger
            ).get()
            _ = try await setup.query(
                """
                INSERT INTO user_heads (user_id, version, head_seq, diamonds, freezes, evaluated_at)
                VALUES (\(id), 0, 0, 0, 0, 0)
                """, logger: logger
            ).get()
        }
        try await setup.close()
        let perConnection = appends / connections
        let start = Stopwatch.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for connection in 0..<connections {
                group.addTask {
                    let db = try await connect(url)
                    let logger = Logger(label: "bench")
                    for index in 0..<perConnection {
                        let id = "floor\((connection + index * connections) % users)"
                        let seq = Int64(connection * perConnection + index + 1)
                        let eventID = "f\(seq)"
                        _ = try await db.query("BEGIN", logger: logger).get()
                        _ = try await db.query(
                            """
                            INSERT INTO events (user_id, seq, event_id, type, at, time_zone, body, received_at, device)
                            VALUES (\(id), \(seq), \(eventID), 'completion', 0, 'UTC', \(body), 0, NULL)
                            """, logger: logger
                        ).get()
                        _ = try await db.query(
                            """
                            INSERT INTO habits (user_id, habit_id, ordinal, name, archived, current_streak, best_streak, state)
                            VALUES (\(id), 'read', 0, 'Read', 0, \(seq), \(seq), \(state))
                            ON CONFLICT (user_id, habit_id) DO UPDATE SET current_streak = excluded.current_streak,
                              best_streak = excluded.best_streak, state = excluded.state
                            """, logger: logger
                        ).get()
                        _ = try await db.query(
                            """
                            UPDATE user_heads SET version = version + 1, head_seq = \(seq), evaluated_at = 0
                            WHERE user_id = \(id)
                            """, logger: logger
                        ).get()
                        _ = try await db.query("COMMIT", logger: logger).get()
                    }
                    try await db.close()
                }
            }
            try await group.waitForAll()
        }
        return Double(perConnection * connections) / (Double(Stopwatch.now() - start) / 1e9)
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

    static func connect(_ url: String) async throws -> PostgresConnection {
        let parts = URLComponents(string: url)!
        let configuration = PostgresConnection.Configuration(
            host: parts.host ?? "127.0.0.1", port: parts.port ?? 5432, username: parts.user ?? "postgres",
            password: parts.password, database: String(parts.path.dropFirst()), tls: .disable)
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "bench"))
    }
}
