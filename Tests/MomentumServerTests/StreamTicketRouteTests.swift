import Foundation
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
import Synchronization
import Testing

/// Stream tickets (`POST /v1/stream-tickets`, `GET /v1/stream?ticket=`): the change stream
/// opened by a browser that cannot send a bearer token. A ticket opens its user's stream
/// once, within its lifetime, while the session that asked for it lasts, on any instance
/// sharing the database, and nothing else; it never reaches the log.
///
/// The server listens on a port (a stream that opens never ends, which the router-testing
/// client would wait for), on SQLite and PostgreSQL, with a clock the test moves.
@Suite(.serialized) struct StreamTicketRouteTests {
    @Test(.timeLimit(.minutes(2)), arguments: ServerHarness.Backend.allCases)
    func aTicketOpensItsUsersStreamOnceAndIsRefusedAfterwards(backend: ServerHarness.Backend) async throws {
        try await TicketServer.with(backend) { server in
            let ada = try await server.register("ada")
            let bob = try await server.register("bob")
            let ticket = try await server.ticket(ada)
            #expect(ticket.ticket.hasPrefix("st."), "\(ticket.ticket)")
            #expect(ticket.expiresAt == server.clock.value.withLock { $0 }.addingTimeInterval(60))

            let stream = try await TicketStream.open(port: server.port, path: "/v1/stream?ticket=\(ticket.ticket)")
            try await stream.waitFor("event: ready")
            // Bob's check-in is not on Ada's stream; Ada's is.
            try await server.checkIn(bob)
            try await Task.sleep(for: .milliseconds(300))
            #expect(!stream.received.contains("event: change"), "\(stream.received)")
            try await server.checkIn(ada)
            let change = try await stream.waitFor("event: change")
            await stream.close()
            #expect(change.contains(#""kind":"events""#), "\(change)")

            let again = try await RawHTTP.send(port: server.port, "GET", "/v1/stream?ticket=\(ticket.ticket)")
            #expect(again.status == 401, "\(again.raw)")
            #expect(again.body.contains(#""code":"stream_ticket_invalid""#), "\(again.body)")
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: ServerHarness.Backend.allCases)
    func expiredForgedAndEndedSessionTicketsAreRefusedWithTheirReason(backend: ServerHarness.Backend) async throws {
        try await TicketServer.with(backend) { server in
            let ada = try await server.register("ada")
            func refusal(_ ticket: String) async throws -> String {
                let answer = try await RawHTTP.send(port: server.port, "GET", "/v1/stream?ticket=\(ticket)")
                #expect(answer.status == 401, "\(answer.raw)")
                let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
                return (json?["error"] as? [String: Any])?["code"] as? String ?? answer.body
            }
            // Expired: a minute and a second later, by the server's clock.
            let late = try await server.ticket(ada)
            server.clock.value.withLock { $0 += 61 }
            #expect(try await refusal(late.ticket) == "stream_ticket_expired")
            // Expired tickets are used up too.
            #expect(try await refusal(late.ticket) == "stream_ticket_invalid")

            // Forged: the shape of a ticket for Ada, a secret never issued; and no shape.
            let forged = "st.\(ada.user).\(String(repeating: "A", count: 43))"
            #expect(try await refusal(forged) == "stream_ticket_invalid")
            #expect(try await refusal("nonsense") == "stream_ticket_invalid")
            #expect(try await refusal("") == "stream_ticket_invalid")
            // Another user's id in front of a real ticket's secret opens nothing.
            let real = try await server.ticket(ada)
            let secret = real.ticket.split(separator: ".").last.map(String.init) ?? ""
            #expect(try await refusal("st.u_someoneelse.\(secret)") == "stream_ticket_invalid")

            // The session that asked for it signs out: the ticket ends with it.
            let phone = try await server.signIn("ada")
            let orphan = try await server.ticket(phone)
            let signOut = try await RawHTTP.send(
                port: server.port, "DELETE", "/v1/sessions/current", headers: ["Authorization": "Bearer \(phone.token)"]
            )
            #expect(signOut.status == 204, "\(signOut.raw)")
            #expect(try await refusal(orphan.ticket) == "session_ended")
            // The real ticket of a live session still works.
            let stream = try await TicketStream.open(port: server.port, path: "/v1/stream?ticket=\(real.ticket)")
            try await stream.waitFor("event: ready")
            await stream.close()
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aTicketOpensNothingButTheStreamAndStaysUnusedThere() async throws {
        try await TicketServer.with(.sqlite) { server in
            let ada = try await server.register("ada")
            let ticket = try await server.ticket(ada)
            for path in ["/v1/today?ticket=\(ticket.ticket)", "/v1/events?ticket=\(ticket.ticket)"] {
                let answer = try await RawHTTP.send(port: server.port, "GET", path)
                #expect(answer.status == 401, "\(path): \(answer.raw)")
                #expect(answer.body.contains(#""code":"unauthorized""#), "\(answer.body)")
            }
            let asBearer = try await RawHTTP.send(
                port: server.port, "GET", "/v1/today", headers: ["Authorization": "Bearer \(ticket.ticket)"])
            #expect(asBearer.status == 401, "\(asBearer.raw)")
            let newTicket = try await RawHTTP.send(
                port: server.port, "POST", "/v1/stream-tickets", headers: ["Authorization": "Bearer \(ticket.ticket)"])
            #expect(newTicket.status == 401, "\(newTicket.raw)")
            // None of that used it up.
            let stream = try await TicketStream.open(port: server.port, path: "/v1/stream?ticket=\(ticket.ticket)")
            try await stream.waitFor("event: ready")
            await stream.close()
            // Asking for a ticket needs a session, and takes no fields.
            let anonymous = try await RawHTTP.send(port: server.port, "POST", "/v1/stream-tickets", json: "{}")
            #expect(anonymous.status == 401, "\(anonymous.raw)")
            let extra = try await RawHTTP.send(
                port: server.port, "POST", "/v1/stream-tickets", headers: ["Authorization": "Bearer \(ada.token)"],
                json: #"{"user": "u_other"}"#)
            #expect(extra.status == 400 || extra.status == 422, "\(extra.raw)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func ticketsNeverReachTheLog() async throws {
        let recorder = LogRecorder()
        var logger = Logger(label: "momentum.test") { _ in RecordingLogHandler(recorder: recorder) }
        logger.logLevel = .trace
        let used = Mutex<[String]>([])
        try await TicketServer.with(.sqlite, logger: logger) { server in
            let ada = try await server.register("ada")
            let ticket = try await server.ticket(ada)
            let stream = try await TicketStream.open(port: server.port, path: "/v1/stream?ticket=\(ticket.ticket)")
            try await stream.waitFor("event: ready")
            await stream.close()
            let refused = try await RawHTTP.send(port: server.port, "GET", "/v1/stream?ticket=\(ticket.ticket)")
            #expect(refused.status == 401)
            used.withLock { $0.append(ticket.ticket) }
        }
        let lines = recorder.lines.withLock { $0 }
        let text = lines.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(lines.contains { $0.metadata["path"] == "/v1/stream" }, "\(text)")
        for ticket in used.withLock({ $0 }) {
            let secret = String(ticket.split(separator: ".").last ?? "")
            #expect(!text.contains(secret), "the log holds a ticket:\n\(text)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func anotherInstanceSharingTheDatabaseAdmitsTheTicketOnce() async throws {
        try await TwoInstances.with { a, b in
            let register = try await a.call(
                .post, "/v1/accounts",
                json: #"{"email": "sam@example.com", "password": "correct horse", "displayName": "Sam"}"#)
            let token = try #require(register.json["token"] as? String)
            _ = try await a.call(.post, "/v1/habits", token: token, json: #"{"name": "Walk", "habit": "walk"}"#)
            let issued = try await a.call(.post, "/v1/stream-tickets", token: token)
            #expect(issued.status == .created, "\(issued.text)")
            let ticket = try #require(issued.json["ticket"] as? String)

            let stream = try await TicketStream.open(port: try #require(b.port), path: "/v1/stream?ticket=\(ticket)")
            try await stream.waitFor("event: ready")
            let checkIn = try await a.call(.post, "/v1/habits/walk/check-ins", token: token, json: "{}")
            #expect(checkIn.status == .ok, "\(checkIn.text)")
            try await stream.waitFor("event: change")
            await stream.close()
            // Used on B, it is used on A too.
            let again = try await RawHTTP.send(port: try #require(a.port), "GET", "/v1/stream?ticket=\(ticket)")
            #expect(again.status == 401, "\(again.raw)")
            #expect(again.body.contains(#""code":"stream_ticket_invalid""#), "\(again.body)")
        }
    }
}

/// Who a test signed in: the user's id and a device's bearer token.
struct TicketUser: Sendable {
    let user: String
    let token: String
}

/// A live server on a fresh database for the stream ticket and CORS tests, with the
/// harness's movable clock.
struct TicketServer: Sendable {
    let port: Int
    let clock: TestClock

    static func with(
        _ backend: ServerHarness.Backend, logger: Logger? = nil,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (TicketServer) async throws -> Void
    ) async throws {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(
                path: "momentum-ticket-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try SQLiteStore(path: directory.appending(path: "server.sqlite").path)
            try await run(store, logger: logger, configure: configure, body)
        case .postgres:
            try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_tickets") { url in
                try await run(try PostgresStore(url: url), logger: logger, configure: configure, body)
            }
        }
    }

    private static func run(
        _ store: any MomentumStore, logger: Logger?, configure: @Sendable (inout ServerConfiguration) -> Void,
        _ body: @escaping @Sendable (TicketServer) async throws -> Void
    ) async throws {
        try await store.migrate()
        let clock = TestClock()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        configuration.clock = { clock.value.withLock { $0 } }
        configure(&configuration)
        var quiet = Logger(label: "momentum.ticket-test")
        quiet.logLevel = .error
        let state = ServerState(store: store, configuration: configuration, logger: logger ?? quiet)
        do {
            try await buildApplication(state).test(.live) { client in
                try await body(TicketServer(port: try #require(client.port), clock: clock))
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Registers an account (created a day before the clock's now) with a `walk` habit.
    func register(_ name: String) async throws -> TicketUser {
        let answer = try await RawHTTP.send(
            port: port, "POST", "/v1/accounts",
            json: #"{"email": "\#(name)@example.com", "password": "correct horse", "displayName": "\#(name)"}"#)
        #expect(answer.status == 201, "\(answer.raw)")
        let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        let user = TicketUser(user: json?["userID"] as? String ?? "", token: json?["token"] as? String ?? "")
        let habit = try await RawHTTP.send(
            port: port, "POST", "/v1/habits", headers: ["Authorization": "Bearer \(user.token)"],
            json: #"{"name": "Walk", "habit": "walk"}"#)
        #expect(habit.status == 201, "\(habit.raw)")
        return user
    }

    /// Signs in again: another device session of the same user.
    func signIn(_ name: String) async throws -> TicketUser {
        let answer = try await RawHTTP.send(
            port: port, "POST", "/v1/sessions",
            json: #"{"email": "\#(name)@example.com", "password": "correct horse"}"#)
        #expect(answer.status == 201, "\(answer.raw)")
        let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        return TicketUser(user: json?["userID"] as? String ?? "", token: json?["token"] as? String ?? "")
    }

    /// Asks for a stream ticket as `user`.
    func ticket(_ user: TicketUser, origin: String? = nil) async throws -> (ticket: String, expiresAt: Date) {
        var headers = ["Authorization": "Bearer \(user.token)"]
        if let origin { headers["Origin"] = origin }
        let answer = try await RawHTTP.send(port: port, "POST", "/v1/stream-tickets", headers: headers)
        #expect(answer.status == 201, "\(answer.raw)")
        let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        let expiresAt = (json?["expiresAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
        return (json?["ticket"] as? String ?? "", expiresAt ?? .distantPast)
    }

    /// Checks in `walk` as `user`.
    func checkIn(_ user: TicketUser) async throws {
        let answer = try await RawHTTP.send(
            port: port, "POST", "/v1/habits/walk/check-ins", headers: ["Authorization": "Bearer \(user.token)"],
            json: "{}")
        #expect(answer.status == 200, "\(answer.raw)")
    }
}

/// A stream opened over a plain socket by its address (a ticket in its query), with the
/// request's other headers, read as it arrives.
final class TicketStream: Sendable {
    private let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    private let text = Mutex("")
    private let reader = Mutex<Task<Void, Never>?>(nil)

    private init(channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) { self.channel = channel }

    static func open(port: Int, path: String, headers: [String: String] = [:]) async throws -> TicketStream {
        let stream = TicketStream(channel: try await RawHTTP.connect(port: port))
        var lines = ["GET \(path) HTTP/1.1", "Host: 127.0.0.1", "Accept: text/event-stream"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        let request = lines.joined(separator: "\r\n") + "\r\n\r\n"
        let channel = stream.channel
        let task = Task<Void, Never> { [stream] in
            _ = try? await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: request))
                for try await chunk in inbound { stream.text.withLock { $0 += String(buffer: chunk) } }
            }
        }
        stream.reader.withLock { $0 = task }
        return stream
    }

    /// Everything received so far, the answer's head included.
    var received: String { text.withLock { $0 } }

    /// Waits (up to 30 seconds, for a loaded machine) for `marker`; what arrived from it on.
    @discardableResult
    func waitFor(_ marker: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let found = text.withLock({ text in text.range(of: marker).map { String(text[$0.lowerBound...]) } }) {
                return found
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw EventStreamReader.StreamTimeout(marker: marker, received: received)
    }

    func close() async {
        reader.withLock { $0?.cancel() }
        try? await channel.channel.close()
    }
}
