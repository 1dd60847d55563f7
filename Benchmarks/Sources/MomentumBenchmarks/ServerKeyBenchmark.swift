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

/// Benchmark 14: an event recorded by an app's backend with a server key
/// (`POST /v1/server/users/{appUserId}/events`) beside the same event from a signed-in
/// device (`POST /v1/events`), on SQLite and PostgreSQL (issue 48: within 10 %).
///
/// One server, one store, one connection: each round records one completion for every
/// user both ways, the device's and the key's requests interleaved (which goes first
/// alternates by round), so that both meet the same database, cache and machine state. A
/// round's time per request is compared; the figure is the median over rounds.
enum ServerKeyBenchmark {
    static func run(_ settings: Settings) -> [ResultRow] {
        blocking { await measure(settings) }
    }

    private static func measure(_ settings: Settings) async -> [ResultRow] {
        let users = settings.quick ? 10 : 100
        let rounds = settings.quick ? 3 : 15
        var rows: [ResultRow] = []
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-keys-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try SQLiteStore(path: directory.appending(path: "keys.sqlite").path)
            try await store.migrate()
            rows += try await measure(store, name: "SQLite", users: users, rounds: rounds)
            await store.close()
        } catch {
            print("  SQLite: failed: \(error)")
        }
        do {
            try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_bench_keys") { url in
                let store = try PostgresStore(url: url)
                do {
                    try await store.migrate()
                    rows += try await measure(store, name: "PostgreSQL", users: users, rounds: rounds)
                } catch {
                    print("  PostgreSQL: failed: \(error)")
                }
                await store.close()
            }
        } catch {
            print("  PostgreSQL: failed: \(error)")
        }
        return rows
    }

    private static func measure(
        _ store: any MomentumStore, name: String, users: Int, rounds: Int
    ) async throws -> [ResultRow] {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        configuration.passwordChecksPerAddress = 1_000
        configuration.adminToken = "bench-admin"
        configuration.logLevel = .error
        let logger = Logger(label: "momentum.bench") { MomentumLogHandler(label: $0, level: .error) }
        let state = ServerState(store: store, configuration: configuration, relay: store.makeRelay(), logger: logger)
        return try await buildApplication(state).test(.live) { client in
            guard let port = client.port else { throw ServerLoadBenchmark.LoadError("no port") }
            return try await TestClient.withClient(host: "127.0.0.1", port: port) { http in
                let json: HTTPFields = [.contentType: "application/json"]
                // An owner (the admin token only creates the first one), then the key.
                let owner = #"{"email": "bench@ops.local", "name": "Bench", "password": "bench-owner-password"}"#
                _ = try await http.post(
                    "/v1/admin/operators", headers: headers("bench-admin"), body: ByteBuffer(string: owner))
                let signedIn = try await http.post(
                    "/v1/admin/sessions", headers: json,
                    body: ByteBuffer(string: #"{"email": "bench@ops.local", "password": "bench-owner-password"}"#))
                guard let operatorToken = object(signedIn.body)["token"] as? String else {
                    throw ServerLoadBenchmark.LoadError(
                        "no operator session: \(String(buffer: signedIn.body ?? ByteBuffer()))")
                }
                let created = try await http.post(
                    "/v1/admin/server-keys", headers: headers(operatorToken),
                    body: ByteBuffer(string: #"{"name": "bench", "scopes": ["events:write"]}"#))
                guard let key = object(created.body)["key"] as? String else {
                    throw ServerLoadBenchmark.LoadError(
                        "no server key: \(String(buffer: created.body ?? ByteBuffer()))")
                }
                let keyHeaders = headers(key)
                // A device user and an app user per slot, each with the habit "walk".
                var tokens: [String] = []
                for user in 0..<users {
                    let registered = try await http.post(
                        "/v1/accounts", headers: json,
                        body: ByteBuffer(
                            string:
                                #"{"email": "d\#(user)@keys.local", "password": "load test", "displayName": "d\#(user)", "timeZone": "UTC"}"#
                        ))
                    guard let token = object(registered.body)["token"] as? String else {
                        throw ServerLoadBenchmark.LoadError(
                            "registration failed: \(String(buffer: registered.body ?? ByteBuffer()))")
                    }
                    tokens.append(token)
                    let created = event("h-\(user)", type: "habit.created", extra: #", "name": "Walk""#)
                    let habit = #"{"events": [\#(created)]}"#
                    let device = try await http.post(
                        "/v1/events", headers: headers(token), body: ByteBuffer(string: habit))
                    let backend = try await http.post(
                        "/v1/server/users/app-\(user)/events", headers: keyHeaders,
                        body: ByteBuffer(string: #"{"timeZone": "UTC", "events": [\#(created)]}"#))
                    guard device.status == .ok, backend.status == .ok else {
                        throw ServerLoadBenchmark.LoadError("setup failed: \(device.status) \(backend.status)")
                    }
                }
                var deviceRounds: [Double] = []
                var keyRounds: [Double] = []
                for round in 0..<(rounds + 1) {
                    var deviceTime: UInt64 = 0
                    var keyTime: UInt64 = 0
                    for user in 0..<users {
                        let completion = event("c-\(round)-\(user)", type: "completion")
                        let body = #"{"events": [\#(completion)]}"#
                        let asDevice = {
                            let start = Stopwatch.now()
                            let answer = try await http.post(
                                "/v1/events", headers: headers(tokens[user]),
                                body: ByteBuffer(string: body))
                            deviceTime &+= Stopwatch.now() &- start
                            guard answer.status == .ok else {
                                throw ServerLoadBenchmark.LoadError("device push: \(answer.status)")
                            }
                        }
                        let asKey = {
                            let start = Stopwatch.now()
                            let answer = try await http.post(
                                "/v1/server/users/app-\(user)/events", headers: keyHeaders,
                                body: ByteBuffer(string: body))
                            keyTime &+= Stopwatch.now() &- start
                            guard answer.status == .ok else {
                                throw ServerLoadBenchmark.LoadError("server key: \(answer.status)")
                            }
                        }
                        if (round + user) % 2 == 0 {
                            try await asDevice()
                            try await asKey()
                        } else {
                            try await asKey()
                            try await asDevice()
                        }
                    }
                    // Round 0 warms both paths and is not counted.
                    if round > 0 {
                        deviceRounds.append(Double(deviceTime) / Double(users))
                        keyRounds.append(Double(keyTime) / Double(users))
                    }
                }
                let device = median(deviceRounds)
                let keyed = median(keyRounds)
                let ratio = keyed / device
                print(
                    "  \(name): \(users) users × \(rounds) rounds; per event: device \(Format.duration(device)), "
                        + "server key \(Format.duration(keyed)), key ÷ device \(Format.ratio(ratio))")
                return [
                    ResultRow(
                        benchmark: "server-keys", metric: "\(name): record an event with a server key (÷ device)",
                        measured: Format.duration(keyed), baseline: Format.duration(device), ratio: Format.ratio(ratio),
                        target: "≤ 1.10×", met: ratio <= 1.10)
                ]
            }
        }
    }

    /// An event of the habit `walk`, now.
    private static func event(_ id: String, type: String, extra: String = "") -> String {
        let at = ISO8601DateFormatter().string(from: Date())
        return #"{"id": "\#(id)", "type": "\#(type)", "at": "\#(at)", "tz": "UTC", "habit": "walk"\#(extra)}"#
    }

    private static func headers(_ token: String) -> HTTPFields {
        [.contentType: "application/json", .authorization: "Bearer \(token)"]
    }

    private static func object(_ body: ByteBuffer?) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(String(buffer: body ?? ByteBuffer()).utf8))) as? [String: Any]
            ?? [:]
    }
}
