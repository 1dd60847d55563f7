import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumSQLite
@_spi(Benchmarks) import MomentumServer
import MomentumServices
import MomentumStore
import NIOCore
import Tracing

/// Benchmark 16: what tracing costs when it is off (no `otlpEndpoint`: the no-op tracer),
/// against the same router with the tracing middleware removed entirely (the baseline),
/// timed in the same run (issue 50: "at no measurable cost when off").
///
/// One SQLite store and one server state; two routers over it, one built as the server
/// builds it (`RequestTracingMiddleware` first), one without that middleware, both driven
/// without a socket (HummingbirdTesting's router client). Each round, for every user, a
/// check-in (`POST /v1/events`, a completion) and a dashboard (`GET /v1/today`) go through
/// both routers, one right after the other, the order alternating; the figure is the median
/// of the rounds' ratios. The store's and the deliveries' spans are in both routers' paths:
/// with the no-op tracer they step aside the same way.
///
/// Also shown: one `withSpan` under the no-op tracer, and the same check the store and the
/// middleware make instead (`InstrumentationSystem.tracer is NoOpTracer`).
enum TracingBenchmark {
    static func run(_ settings: Settings) -> [ResultRow] {
        blocking { await measure(settings) } + spans(settings)
    }

    private static func measure(_ settings: Settings) async -> [ResultRow] {
        let users = settings.quick ? 10 : 50
        let rounds = settings.quick ? 3 : 21
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-tracing-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try SQLiteStore(path: directory.appending(path: "tracing.sqlite").path)
            try await store.migrate()
            var configuration = ServerConfiguration()
            configuration.bcryptCost = 4
            configuration.userRequestsPerMinute = 0
            configuration.addressRequestsPerMinute = 0
            configuration.passwordChecksPerAddress = 1_000
            configuration.logLevel = .error
            let logger = Logger(label: "momentum.bench") { MomentumLogHandler(label: $0, level: .error) }
            let state = ServerState(store: store, configuration: configuration, logger: logger)
            // The requests' log lines at the error level, as the other server benchmarks.
            let traced = Application(router: buildRouter(state, tracing: true), logger: logger)
            let bare = Application(router: buildRouter(state, tracing: false), logger: logger)
            let rows = try await traced.test(.router) { tracedClient in
                try await bare.test(.router) { bareClient in
                    try await compare(tracedClient, bareClient, users: users, rounds: rounds)
                }
            }
            await store.close()
            return rows
        } catch {
            print("  failed: \(error)")
            return []
        }
    }

    private static func compare(
        _ traced: some TestClientProtocol, _ bare: some TestClientProtocol, users: Int, rounds: Int
    ) async throws -> [ResultRow] {
        var tokens: [String] = []
        for user in 0..<users {
            let registered = try await traced.execute(
                uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(
                    string:
                        #"{"email": "t\#(user)@tracing.local", "password": "load test", "displayName": "t\#(user)", "timeZone": "UTC"}"#
                ))
            let object =
                (try? JSONSerialization.jsonObject(with: Data(String(buffer: registered.body).utf8))) as? [String: Any]
            guard let token = object?["token"] as? String else {
                throw ServerLoadBenchmark.LoadError("registration failed: \(String(buffer: registered.body))")
            }
            tokens.append(token)
            let created = event("h-\(user)", type: "habit.created", extra: #", "name": "Walk""#)
            let habit = #"{"events": [\#(created)]}"#
            let answer = try await traced.execute(
                uri: "/v1/events", method: .post, headers: headers(token), body: ByteBuffer(string: habit))
            guard answer.status == .ok else { throw ServerLoadBenchmark.LoadError("habit: \(answer.status)") }
        }
        // One request through one router: its time.
        func time(
            _ client: some TestClientProtocol, _ uri: String, _ method: HTTPRequest.Method, _ token: String,
            _ body: String?
        ) async throws -> UInt64 {
            let start = Stopwatch.now()
            let answer = try await client.execute(
                uri: uri, method: method, headers: headers(token), body: body.map { ByteBuffer(string: $0) })
            let elapsed = Stopwatch.now() &- start
            guard answer.status == .ok else { throw ServerLoadBenchmark.LoadError("\(uri): \(answer.status)") }
            return elapsed
        }
        // Each request of the mix goes through both routers, one right after the other
        // (which first alternates), so that both meet the same moment of a busy machine.
        var tracedRounds: [Double] = []
        var bareRounds: [Double] = []
        var ratios: [Double] = []
        for round in 0..<(rounds + 1) {
            var tracedTime: UInt64 = 0
            var bareTime: UInt64 = 0
            for user in 0..<users {
                let token = tokens[user]
                let first = (round + user) % 2 == 0
                if first {
                    tracedTime &+= try await time(traced, "/v1/events", .post, token, body("t", round, user))
                    bareTime &+= try await time(bare, "/v1/events", .post, token, body("b", round, user))
                    bareTime &+= try await time(bare, "/v1/today", .get, token, nil)
                    tracedTime &+= try await time(traced, "/v1/today", .get, token, nil)
                } else {
                    bareTime &+= try await time(bare, "/v1/events", .post, token, body("b", round, user))
                    tracedTime &+= try await time(traced, "/v1/events", .post, token, body("t", round, user))
                    tracedTime &+= try await time(traced, "/v1/today", .get, token, nil)
                    bareTime &+= try await time(bare, "/v1/today", .get, token, nil)
                }
            }
            // Round 0 warms both routers and is not counted.
            if round > 0 {
                tracedRounds.append(Double(tracedTime) / Double(2 * users))
                bareRounds.append(Double(bareTime) / Double(2 * users))
                ratios.append(Double(tracedTime) / Double(bareTime))
            }
        }
        let off = median(tracedRounds)
        let base = median(bareRounds)
        // The median of the rounds' ratios: each round's two figures met the same load.
        let ratio = median(ratios)
        print(
            "  \(users) users × \(rounds) rounds, a check-in and a dashboard each; per request: tracing off "
                + "\(Format.duration(off)), no tracing middleware \(Format.duration(base)), ratio \(Format.ratio(ratio))"
        )
        return [
            ResultRow(
                benchmark: "tracing", metric: "request mix, tracing off (÷ no tracing middleware)",
                measured: Format.duration(off), baseline: Format.duration(base), ratio: Format.ratio(ratio),
                target: "≤ 1.02×", met: ratio <= 1.02)
        ]
    }

    /// A span under the no-op tracer, and the check that replaces it.
    private static func spans(_ settings: Settings) -> [ResultRow] {
        let count = settings.quick ? 100_000 : 2_000_000
        var checksum: UInt64 = 0
        let (_, spanTime) = Stopwatch.time {
            for index in 0..<count {
                withSpan("noop") { _ in checksum &+= UInt64(index) }
            }
        }
        let (_, checkTime) = Stopwatch.time {
            for index in 0..<count where InstrumentationSystem.tracer is NoOpTracer {
                checksum &+= UInt64(index)
            }
        }
        blackHole(checksum)
        let span = Double(spanTime) / Double(count)
        let check = Double(checkTime) / Double(count)
        print("  withSpan under the no-op tracer \(Format.duration(span)); the check instead \(Format.duration(check))")
        return [
            ResultRow(
                benchmark: "tracing", metric: "a span's check with tracing off (÷ a no-op withSpan)",
                measured: Format.duration(check), baseline: Format.duration(span), ratio: Format.ratio(check / span))
        ]
    }

    /// A check-in's body: a completion of `walk`, its id unique to the router, round and user.
    private static func body(_ router: String, _ round: Int, _ user: Int) -> String {
        let completion = event("c-\(router)-\(round)-\(user)", type: "completion")
        return #"{"events": [\#(completion)]}"#
    }

    /// An event of the habit `walk`, now.
    private static func event(_ id: String, type: String, extra: String = "") -> String {
        let at = ISO8601DateFormatter().string(from: Date())
        return #"{"id": "\#(id)", "type": "\#(type)", "at": "\#(at)", "tz": "UTC", "habit": "walk"\#(extra)}"#
    }

    private static func headers(_ token: String) -> HTTPFields {
        [.contentType: "application/json", .authorization: "Bearer \(token)"]
    }
}
