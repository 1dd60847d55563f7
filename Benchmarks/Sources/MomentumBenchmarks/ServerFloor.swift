import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumPostgres
import MomentumSQLite
import MomentumServer
import MomentumServices
import MomentumStore
import NIOCore
import PostgresNIO
import Synchronization

/// The least a durable check-in can cost on this machine with Momentum's stack
/// (Hummingbird over NIO; SQLite through GRDB or PostgreSQL through PostgresNIO): a server
/// that does nothing but what any implementation of the route must do, measured under the
/// same load as the real one.
///
/// Each `POST /v1/habits/:habit/check-ins` finds its user by the bearer token (one
/// dictionary lookup: no hashing, no session row), hands the append to a group commit that
/// writes, for every append of a batch, the event row, the habit's projection row (a
/// document of the size the real store wrote) and the user's head, in one transaction with
/// one flush of the log per batch, and once that committed answers with the bytes of the
/// real server's answer to a check-in. No engine, no validation, no JSON encoding or
/// decoding, no version check or lock, no middleware, no logging. An implementation of the
/// route cannot do less, so the figure bounds what the real route could reach here.
enum ServerFloor {
    /// What the floor writes and answers: samples of the real store's rows and answer.
    struct Samples: Sendable {
        var eventBody: String
        var habitState: String
        var answer: ByteBuffer
        /// The real server's answer to `GET /v1/today`, which the read floor answers with.
        var today: ByteBuffer
    }

    /// A database: a SQLite file, or a PostgreSQL database's URL.
    enum Backend: Sendable {
        case sqlite(path: String)
        case postgres(url: String)

        /// The database's URL, for PostgreSQL.
        var postgresURL: String? {
            if case .postgres(let url) = self { url } else { nil }
        }
    }

    /// The last event body and a habit row the real store wrote in `source`, with the real
    /// server's `answer` to a check-in.
    static func samples(from source: Backend, answer: ByteBuffer, today: ByteBuffer) async throws -> Samples {
        let (body, state): (String, String)
        switch source {
        case .sqlite(let path):
            (body, state) = try StorageBenchmark.samples(path)
        case .postgres(let url):
            let connection = try await StorageBenchmark.connect(url)
            do {
                (body, state) = try await StorageBenchmark.samples(connection)
                try await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        }
        return Samples(eventBody: body, habitState: state, answer: answer, today: today)
    }

    /// Creates the floor's database in `backend`, an empty one (Momentum's schema; one user, head and
    /// habit row per token), serves the route on a free port and runs `body` with that port.
    static func withServer<T: Sendable>(
        _ backend: Backend, tokens: [String], samples: Samples, readers: Int,
        _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> T {
        var users: [String: String] = [:]
        for (index, token) in tokens.enumerated() { users[token] = "floor\(index)" }
        let writer: any FloorWriter
        switch backend {
        case .sqlite(let path):
            writer = try await SQLiteFloorWriter(path: path, users: tokens.count, samples: samples)
        case .postgres(let url):
            writer = try await PostgresFloorWriter(
                url: url, users: tokens.count, samples: samples, readers: readers)
        }
        do {
            let result = try await serve(writer: writer, users: users, samples: samples, body)
            await writer.close()
            return result
        } catch {
            await writer.close()
            throw error
        }
    }

    private static func serve<T: Sendable>(
        writer: any FloorWriter, users: [String: String], samples: Samples,
        _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> T {
        let router = Router()
        @Sendable func user(_ request: Request) -> String? {
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
            return users[String(header.dropFirst(7))]
        }
        router.post("/v1/habits/:habit/check-ins") { request, context -> Response in
            guard let user = user(request) else { return Response(status: .unauthorized) }
            try await writer.append(user: user)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: samples.answer))
        }
        // The read floor: what any server must do to answer a dashboard that reflects
        // every write acknowledged before it, whichever instance took the write: confirm
        // with the database that the state it holds is current (one version read), then
        // answer. The answer is the real dashboard's bytes, not computed.
        router.get("/v1/today") { request, context -> Response in
            guard let user = user(request) else { return Response(status: .unauthorized) }
            guard try await writer.version(of: user) != nil else { return Response(status: .notFound) }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: samples.today))
        }
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: Logger(label: "momentum.bench.floor") { MomentumLogHandler(label: $0, level: .error) })
        return try await application.test(.live) { client in
            guard let port = client.port else { throw ServerLoadBenchmark.LoadError("the floor reported no port") }
            return try await body(port)
        }
    }
}

/// Writes one check-in durably; returns once it is committed. Reads a user's version.
private protocol FloorWriter: Sendable {
    func append(user: String) async throws
    /// The user's stored version, read from the database (`nil`: no such user).
    func version(of user: String) async throws -> Int64?
    func close() async
}

/// The appends waiting for a batch, and each user's last sequence number.
private struct FloorQueue {
    typealias Waiter = CheckedContinuation<Void, any Error>
    var waiting: [(user: String, done: Waiter)] = []
    var seq: [String: Int64] = [:]
    var next: Int64 = 0

    /// Up to `limit` waiting appends, each with its sequence number and a fresh event id.
    mutating func take(_ limit: Int) -> [(user: String, seq: Int64, id: String, done: Waiter)] {
        let batch = waiting.prefix(limit)
        waiting.removeFirst(batch.count)
        return batch.map { item in
            let seq = (seq[item.user] ?? 0) + 1
            self.seq[item.user] = seq
            next += 1
            return (item.user, seq, "floor-\(next)", item.done)
        }
    }
}

/// SQLite: one flusher takes up to 64 waiting appends and writes them in one transaction
/// (prepared statements, no savepoints), like Momentum's group committer without its work.
private final class SQLiteFloorWriter: FloorWriter {
    private struct State {
        var queue = FloorQueue()
        var flushing = false
    }

    private let pool: DatabasePool
    private let samples: ServerFloor.Samples
    private let state = Mutex(State())

    init(path: String, users: Int, samples: ServerFloor.Samples) async throws {
        let store = try SQLiteStore(path: path)
        try await store.migrate()
        await store.close()
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        pool = try DatabasePool(path: path, configuration: configuration)
        try SQLiteStore.requireFullSync(pool)
        self.samples = samples
        try await pool.write { db in
            for index in 0..<users {
                let user = "floor\(index)"
                try db.execute(
                    sql: "INSERT INTO accounts (user_id, email, password_hash, created_at) VALUES (?, ?, '!', 0)",
                    arguments: [user, "\(user)@floor.local"])
                try db.execute(
                    sql: """
                        INSERT INTO user_heads (user_id, version, head_seq, diamonds, freezes, evaluated_at)
                        VALUES (?, 0, 0, 0, 0, 0)
                        """, arguments: [user])
                try db.execute(
                    sql: """
                        INSERT INTO habits (user_id, habit_id, ordinal, name, archived, current_streak, best_streak, state)
                        VALUES (?, 'walk', 0, 'Walk', 0, 0, 0, ?)
                        """, arguments: [user, samples.habitState])
            }
        }
    }

    func append(user: String) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state -> Bool in
                state.queue.waiting.append((user, continuation))
                if state.flushing { return false }
                state.flushing = true
                return true
            }
            if start { Task { await self.flush() } }
        }
    }

    private func flush() async {
        while true {
            let batch = state.withLock { state in
                let batch = state.queue.take(64)
                if batch.isEmpty { state.flushing = false }
                return batch
            }
            if batch.isEmpty { return }
            let rows = batch.map { ($0.user, $0.seq, $0.id) }
            let body = samples.eventBody
            let habit = samples.habitState
            do {
                try await pool.write { db in
                    let now = Date().timeIntervalSince1970
                    let event = try db.cachedStatement(
                        sql: """
                            INSERT INTO events (user_id, seq, event_id, type, at, time_zone, body, received_at, device)
                            VALUES (?, ?, ?, 'completion', ?, 'UTC', ?, ?, NULL)
                            """)
                    let row = try db.cachedStatement(
                        sql: """
                            UPDATE habits SET current_streak = ?, best_streak = ?, state = ?
                            WHERE user_id = ? AND habit_id = 'walk'
                            """)
                    let head = try db.cachedStatement(
                        sql:
                            "UPDATE user_heads SET version = version + 1, head_seq = ?, evaluated_at = ? WHERE user_id = ?"
                    )
                    for (user, seq, id) in rows {
                        try event.execute(arguments: [user, seq, id, now, body, now])
                        try row.execute(arguments: [seq, seq, habit, user])
                        try head.execute(arguments: [seq, now, user])
                    }
                }
                for item in batch { item.done.resume() }
            } catch {
                for item in batch { item.done.resume(throwing: error) }
            }
        }
    }

    func version(of user: String) async throws -> Int64? {
        try await pool.read { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT version FROM user_heads WHERE user_id = ?"), arguments: [user])
        }
    }

    func close() async { try? pool.close() }
}

/// PostgreSQL: up to two statements in flight (as Momentum's group commit keeps), each
/// writing up to 64 waiting appends with one prepared statement of array parameters that
/// commits on its own.
private final class PostgresFloorWriter: FloorWriter {
    private struct State {
        var queue = FloorQueue()
        var idle: [PostgresConnection]
    }

    /// The batch's statement: every event, habit row and head of the batch at once.
    private struct Batch: PostgresPreparedStatement {
        typealias Row = ()
        static let sql = """
            WITH x AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) AS x (user_id, seq, event_id)),
            e AS (
              INSERT INTO events (user_id, seq, event_id, type, at, time_zone, body, received_at, device)
              SELECT user_id, seq, event_id, 'completion', $4, 'UTC', $5, $4, NULL FROM x),
            h AS (
              UPDATE habits SET current_streak = x.seq, best_streak = x.seq, state = $6
              FROM x WHERE habits.user_id = x.user_id AND habits.habit_id = 'walk')
            UPDATE user_heads SET version = version + 1, head_seq = x.seq, evaluated_at = $4
            FROM x WHERE user_heads.user_id = x.user_id
            """

        var users: [String]
        var seqs: [Int64]
        var ids: [String]
        var now: Double
        var body: String
        var state: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(users)
            bindings.append(seqs)
            bindings.append(ids)
            bindings.append(now)
            bindings.append(body)
            bindings.append(state)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// A user's version, the read floor's one statement.
    private struct Version: PostgresPreparedStatement {
        typealias Row = Int64
        static let sql = "SELECT version FROM user_heads WHERE user_id = $1"

        var user: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(user)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    private let samples: ServerFloor.Samples
    private let state: Mutex<State>
    private let connections: [PostgresConnection]
    /// Connections for reads, one per request in flight up to their number: no pool
    /// between a read and its connection.
    private let readers: Mutex<[PostgresConnection]>
    private let allReaders: [PostgresConnection]
    private let logger = Logger(label: "momentum.bench.floor")

    /// - Parameter readers: Connections for reads: as many as the reads' load has
    ///   connections, so that a read never waits for one.
    init(url: String, users: Int, samples: ServerFloor.Samples, readers: Int) async throws {
        let store = try PostgresStore(url: url)
        try await store.migrate()
        await store.close()
        self.samples = samples
        let setup = try await StorageBenchmark.connect(url)
        let logger = logger
        do {
            _ = try await setup.query(
                """
                INSERT INTO accounts (user_id, email, password_hash, created_at)
                SELECT 'floor' || g, 'floor' || g || '@floor.local', '!', 0 FROM generate_series(0, \(users - 1)) AS g
                """, logger: logger)
            _ = try await setup.query(
                """
                INSERT INTO user_heads (user_id, version, head_seq, diamonds, freezes, evaluated_at)
                SELECT 'floor' || g, 0, 0, 0, 0, 0 FROM generate_series(0, \(users - 1)) AS g
                """, logger: logger)
            _ = try await setup.query(
                """
                INSERT INTO habits (user_id, habit_id, ordinal, name, archived, current_streak, best_streak, state)
                SELECT 'floor' || g, 'walk', 0, 'Walk', 0, 0, 0, \(samples.habitState)
                FROM generate_series(0, \(users - 1)) AS g
                """, logger: logger)
            _ = try await setup.query("ANALYZE", logger: logger)
            try await ServerLoadBenchmark.warmWAL(setup)
            try await setup.close()
        } catch {
            try? await setup.close()
            throw error
        }
        var connections: [PostgresConnection] = []
        for _ in 0..<2 { connections.append(try await StorageBenchmark.connect(url)) }
        self.connections = connections
        state = Mutex(State(idle: connections))
        var forReads: [PostgresConnection] = []
        for _ in 0..<max(1, readers) { forReads.append(try await StorageBenchmark.connect(url)) }
        allReaders = forReads
        self.readers = Mutex(forReads)
    }

    func version(of user: String) async throws -> Int64? {
        guard let connection = readers.withLock({ $0.popLast() }) else {
            throw ServerLoadBenchmark.LoadError("more reads in flight than the read floor's connections")
        }
        defer { readers.withLock { $0.append(connection) } }
        var found: Int64?
        for try await version in try await connection.execute(Version(user: user), logger: logger) {
            found = version
        }
        return found
    }

    func append(user: String) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let connection = state.withLock { state -> PostgresConnection? in
                state.queue.waiting.append((user, continuation))
                return state.idle.popLast()
            }
            if let connection { Task { await self.flush(on: connection) } }
        }
    }

    private func flush(on connection: PostgresConnection) async {
        while true {
            let batch = state.withLock { state in
                let batch = state.queue.take(64)
                if batch.isEmpty { state.idle.append(connection) }
                return batch
            }
            if batch.isEmpty { return }
            let statement = Batch(
                users: batch.map(\.user), seqs: batch.map(\.seq), ids: batch.map(\.id),
                now: Date().timeIntervalSince1970, body: samples.eventBody, state: samples.habitState)
            do {
                _ = try await connection.execute(statement, logger: logger)
                for item in batch { item.done.resume() }
            } catch {
                for item in batch { item.done.resume(throwing: error) }
            }
        }
    }

    func close() async {
        for connection in connections + allReaders { try? await connection.close() }
    }
}
