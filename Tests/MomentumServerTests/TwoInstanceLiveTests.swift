import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumCore
import MomentumPostgres
import MomentumServer
import MomentumServices
import MomentumStore
import MomentumTestSupport
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization
import Testing

/// Two server instances, each on its own socket and connection pool, sharing one real
/// PostgreSQL database: what a deployment behind a load balancer looks like.
@Suite(.serialized) struct TwoInstanceLiveTests {
    @Test func aCheckInOnOneInstanceReachesTheOtherInstancesStreamWithinASecond() async throws {
        try await TwoInstances.with { a, b in
            let phone = try await a.register("sam", zone: "UTC")
            let laptop = try await b.signIn("sam", device: "laptop")
            let created = try await a.call(
                .post, "/v1/habits", token: phone, json: #"{"name": "Walk", "habit": "walk"}"#)
            #expect(created.status == .created, "\(created.text)")

            let stream = try await EventStreamReader.open(port: try #require(b.port), token: laptop)
            try await stream.waitFor("event: ready")
            let started = ContinuousClock.now
            let checkIn = try await a.call(.post, "/v1/habits/walk/check-ins", token: phone, json: "{}")
            #expect(checkIn.status == .ok, "\(checkIn.text)")
            let change = try await stream.waitFor("event: change")
            let elapsed = ContinuousClock.now - started
            await stream.close()
            #expect(elapsed < .seconds(1), "the change took \(elapsed) to reach the other instance")
            #expect(change.contains(#""kind":"events""#), "\(change)")

            // The other instance serves the new state at once (its engine cache sees the
            // newer log head in the shared database).
            let today = try await b.call(.get, "/v1/today", token: laptop)
            let habits = today.json["habits"] as? [[String: Any]] ?? []
            let walk = habits.first { ($0["definition"] as? [String: Any])?["habit"] as? String == "walk" }
            #expect(walk?["current"] as? Int == 1, "\(today.text)")

            // A second check-in the same day unlocks nothing, so PostgreSQL writes it in one
            // statement; /metrics counts the append and the statement that carried it.
            let again = try await a.call(.post, "/v1/habits/walk/check-ins", token: phone, json: "{}")
            #expect(again.status == .ok, "\(again.text)")
            let metrics = try await a.call(.get, "/metrics").text
            func value(_ prefix: String) -> Int? {
                metrics.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }.flatMap {
                    Int($0.dropFirst(prefix.count + 1))
                }
            }
            let appends = try #require(value(#"momentum_store_appends_total{path="one_statement"}"#), "\(metrics)")
            let statements = try #require(value("momentum_store_append_statements_total"), "\(metrics)")
            #expect(appends >= 1)
            #expect(statements >= 1)
            #expect(statements <= appends)
            #expect(value("momentum_store_append_batches_failed_total") == 0)
        }
    }

    /// A post shared through one instance reaches a friend's feed, and their stream on the
    /// other instance says so; a reaction through the other reaches the achiever's stream.
    @Test func aSharedPostReachesAFriendsStreamOnTheOtherInstance() async throws {
        try await TwoInstances.with { a, b in
            let ada = try await a.person("ada")
            let bob = try await b.person("bob")
            try await a.befriend(ada, bob)
            _ = try await a.call(.post, "/v1/habits", token: ada.token, json: #"{"name": "Walk", "habit": "walk"}"#)
            let checkIn = try await a.call(.post, "/v1/habits/walk/check-ins", token: ada.token, json: "{}")
            let unlock = try #require((checkIn.json["unlocks"] as? [[String: Any]])?.first?["id"] as? String)

            let bobStream = try await EventStreamReader.open(port: try #require(b.port), token: bob.token)
            try await bobStream.waitFor("event: ready")
            let shared = try await a.call(.post, "/v1/posts", token: ada.token, json: #"{"unlock": "\#(unlock)"}"#)
            #expect(shared.status == .created, "\(shared.text)")
            try await bobStream.waitFor(#""kind":"feed""#)
            await bobStream.close()
            let feed = try await b.call(.get, "/v1/feed", token: bob.token)
            let post = try #require((feed.json["items"] as? [[String: Any]])?.first?["post"] as? [String: Any])
            #expect(post["id"] as? String == shared.json["id"] as? String)

            let adaStream = try await EventStreamReader.open(port: try #require(a.port), token: ada.token)
            try await adaStream.waitFor("event: ready")
            let id = post["id"] as? String ?? ""
            let reacted = try await b.call(
                .put, "/v1/posts/\(ada.id)/\(id)/reaction", token: bob.token, json: #"{"reaction": "clap"}"#)
            #expect(reacted.status == .ok, "\(reacted.text)")
            try await adaStream.waitFor(#""kind":"notifications""#)
            await adaStream.close()
        }
    }

    /// Sessions are cached for a minute, but one ended through one instance stops working
    /// on the other at once: the revocation travels through the relay.
    @Test func aSessionEndedOnOneInstanceStopsWorkingOnTheOtherAtOnce() async throws {
        try await TwoInstances.with { a, b in
            let phone = try await a.register("kim", zone: "UTC")
            let laptop = try await a.signIn("kim", device: "laptop")
            // Instance b verifies and caches both sessions.
            #expect(try await b.call(.get, "/v1/profile", token: phone).status == .ok)
            #expect(try await b.call(.get, "/v1/profile", token: laptop).status == .ok)

            #expect(try await a.call(.delete, "/v1/sessions/current", token: laptop).status == .noContent)
            try await Self.expectUnauthorized(on: b, token: laptop)
            #expect(try await b.call(.get, "/v1/profile", token: phone).status == .ok)

            // Deleting the account ends every session, on every instance.
            #expect(try await a.call(.delete, "/v1/account", token: phone).status == .noContent)
            try await Self.expectUnauthorized(on: b, token: phone)
        }
    }

    /// Polls until the instance refuses the token; the relay brings revocations within
    /// milliseconds, the session cache would keep the token working for a minute.
    private static func expectUnauthorized(on client: any TestClientProtocol, token: String) async throws {
        let deadline = ContinuousClock.now + .seconds(2)
        var status = try await client.call(.get, "/v1/profile", token: token).status
        while status != .unauthorized, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            status = try await client.call(.get, "/v1/profile", token: token).status
        }
        #expect(status == .unauthorized)
    }

    @Test func twoDevicesOnTwoInstancesRaceToBuyWithDiamondsForOnlyOnePurchase() async throws {
        try await TwoInstances.with { a, b in
            let phone = try await a.register("ray", zone: "UTC")
            let tablet = try await b.signIn("ray", device: "tablet")
            let start = Date().addingTimeInterval(-12 * 86_400)
            var events = [habitCreated("walk", at: start, zone: "UTC")]
            for day in 0...12 {
                events.append(
                    completion(
                        "w\(day)", habit: "walk", at: start.addingTimeInterval(Double(day) * 86_400 + 60), zone: "UTC"))
            }
            // Twelve days of history from before the account existed: an operator's import.
            let owner = ServerHarness.ownerToken
            let pushed = try await a.call(
                .post, "/v1/admin/imports",
                json: #"{"email": "ray@example.com", "events": [\#(events.joined(separator: ","))]}"#,
                headers: [.authorization: "Bearer \(owner)"])
            #expect(pushed.status == .ok, "\(pushed.text)")
            let wallet = try await b.call(.get, "/v1/wallet", token: tablet)
            let diamonds = try #require((wallet.json["wallet"] as? [String: Any])?["diamonds"] as? Int)
            let store = try await b.call(.get, "/v1/store", token: tablet)
            let price = try #require((store.json["catalog"] as? [String: Any])?["customPricePerFreeze"] as? Int)
            let days = diamonds / price
            try #require(days >= 1 && 2 * days * price > diamonds, "diamonds \(diamonds), price \(price)")

            let body = #"{"days": \#(days)}"#
            async let first = a.call(.post, "/v1/store/purchases", token: phone, json: body)
            async let second = b.call(.post, "/v1/store/purchases", token: tablet, json: body)
            let statuses = [try await first, try await second].map(\.status.code).sorted()
            #expect(statuses == [201, 409], "\(statuses)")

            for (client, token) in [(a, phone), (b, tablet)] {
                let after = try await client.call(.get, "/v1/wallet", token: token)
                let balance = try #require(after.json["wallet"] as? [String: Any])
                #expect(balance["diamonds"] as? Int == diamonds - days * price)
                #expect(balance["freezes"] as? Int == days)
            }
        }
    }
}

/// Starts two live servers on one fresh PostgreSQL database, each with its own store
/// (connection pool) and LISTEN/NOTIFY relay, and waits until both are ready.
enum TwoInstances {
    static func with(
        _ body: @escaping @Sendable (any TestClientProtocol, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_live") { url in
            let first = try PostgresStore(url: url)
            let second = try PostgresStore(url: url)
            do {
                try await first.migrate()
                try await bootstrapOwner(first)
                try await run(first) { a in
                    try await run(second) { b in
                        try await body(a, b)
                    }
                }
            } catch {
                await first.close()
                await second.close()
                throw error
            }
            await first.close()
            await second.close()
        }
    }

    /// Stores the first owner and a session whose token is ``ServerHarness/ownerToken``,
    /// as a harness does: what tests send to the admin routes.
    static func bootstrapOwner(_ store: PostgresStore) async throws {
        let now = Date()
        _ = try await store.createFirstOwner(
            OperatorRecord(
                id: "op_live_owner", email: ServerHarness.ownerEmail, name: "Live Owner", role: "owner",
                passwordHash: "$2b$04$unused", createdAt: now, createdBy: OperatorActor.adminTokenID))
        try await store.createOperatorSession(
            OperatorSessionRecord(
                tokenHash: Tokens.hash(ServerHarness.ownerToken), operatorID: "op_live_owner", kind: "api",
                csrf: "live-csrf", createdAt: now, expiresAt: now.addingTimeInterval(86_400), lastSeenAt: now))
    }

    private static func run(
        _ store: PostgresStore, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        configuration.adminToken = "admin-secret"
        var logger = Logger(label: "momentum.live-test")
        logger.logLevel = .warning
        let state = ServerState(
            store: store, configuration: configuration, relay: PostgresRelay(store: store), logger: logger)
        try await buildApplication(state).test(.live) { client in
            let deadline = ContinuousClock.now + .seconds(10)
            while try await client.call(.get, "/readyz").status != .ok {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the instance never became ready")
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            try await body(client)
        }
    }
}

extension TestClientProtocol {
    /// Signs an existing test user in on another device.
    func signIn(_ name: String, device: String) async throws -> String {
        let response = try await call(
            .post, "/v1/sessions",
            json: #"{"email": "\#(name)@example.com", "password": "correct horse", "deviceName": "\#(device)"}"#)
        #expect(response.status == .created, "\(response.text)")
        return response.json["token"] as? String ?? ""
    }
}

/// A raw HTTP/1.1 connection reading a server-sent event stream as it arrives (the test
/// client collects whole bodies, which a stream never finishes).
final class EventStreamReader: Sendable {
    private let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    private let received = Received()
    private let reader: Task<Void, Never>

    private init(channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, request: String) {
        self.channel = channel
        let received = self.received
        reader = Task {
            try? await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: request))
                for try await chunk in inbound {
                    received.text.withLock { $0 += String(buffer: chunk) }
                }
            }
        }
    }

    static func open(port: Int, token: String) async throws -> EventStreamReader {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let request =
            "GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n\r\n"
        return EventStreamReader(channel: channel, request: request)
    }

    /// Waits (up to five seconds) for the stream to contain `marker`, and returns what
    /// arrived so far from the marker on.
    @discardableResult
    func waitFor(_ marker: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if let text = received.text.withLock({ text in text.range(of: marker).map { String(text[$0.lowerBound...]) }
            }) {
                return text
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw StreamTimeout(marker: marker, received: received.text.withLock { $0 })
    }

    func close() async {
        reader.cancel()
        try? await channel.channel.close()
    }

    final class Received: Sendable {
        let text = Mutex("")
    }

    struct StreamTimeout: Error, CustomStringConvertible {
        let marker: String
        let received: String
        var description: String { "no '\(marker)' within 5 s; the stream held: \(received)" }
    }
}
