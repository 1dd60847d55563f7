import Foundation
import MomentumTestSupport
import Testing

/// Tracing end to end: `momentum serve` started as a process with `otlpEndpoint` pointed at
/// an OTLP/HTTP receiver in the test (swift-otel's default, protobuf), JSON logs and a
/// webhook on a second receiver, on SQLite and on PostgreSQL.
///
/// A check-in that arrives with a W3C `traceparent` continues that trace: the request's
/// server span and the store's spans under it are exported with its trace id, and the log
/// line of the request names it. The webhook the check-in's event leads to is sent later by
/// the delivery pass (background work, a root span of its own), yet its post continues the
/// check-in's trace: it carries a `traceparent` of that trace, and its client span, exported
/// there under the request's, links to the pass that sent it.
@Suite(.serialized) struct TracingExportTests {
    static let trace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let caller = "00f067aa0ba902b7"

    @Test(arguments: ServerHarness.Backend.allCases)
    func aTraceparentIsContinuedIntoTheStoreAndDeliveriesCarryTheirs(_ backend: ServerHarness.Backend) async throws {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(
                path: "momentum-trace-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try await run(database: directory.appending(path: "m.sqlite").path, system: "sqlite", in: directory)
        case .postgres:
            try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_trace") { url in
                let directory = FileManager.default.temporaryDirectory.appending(
                    path: "momentum-trace-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                try await run(database: url, system: "postgresql", in: directory)
            }
        }
    }

    func run(database: String, system: String, in directory: URL) async throws {
        let collector = try await LoopbackReceiver.start(.plain)
        let webhook = try await LoopbackReceiver.start(.plain)
        let port = try SMTPReceiver.freePort()
        let server = try ServerProcess.start(
            in: directory,
            settings: [
                "--database", database, "--port", "\(port)",
                "--otlp-endpoint", collector.base, "--service-name", "momentum-test", "--log-format", "json",
                "--admin-token", "admin-secret", "--bcrypt-cost", "4", "--delivery-interval", "1",
                "--webhook-allowed-networks", "127.0.0.0/8",
            ],
            // Spans leave a tenth of a second after they end, not five.
            environment: ["OTEL_BSP_SCHEDULE_DELAY": "100"])
        defer {
            server.stop()
            Task {
                await collector.stop()
                await webhook.stop()
            }
        }
        try await server.waitUntilReady(port: port)

        // Given an account with a habit, and a webhook for streaks.
        try await LiveServer.register(port: port, "ada")
        let token = try Self.string(try await LiveServer.signIn(port: port, "ada"), "token")
        let user = ["Authorization": "Bearer \(token)"]
        let habit = try await RawHTTP.send(
            port: port, "POST", "/v1/habits", headers: user,
            json: #"{"habit": "read", "name": "Read", "policy": "strict"}"#)
        #expect(habit.status == 201, "\(habit.raw)")
        let owner = try await RawHTTP.send(
            port: port, "POST", "/v1/admin/operators", headers: ["Authorization": "Bearer admin-secret"],
            json: #"{"email": "ops@example.com", "name": "Ops", "password": "ops-owner-password"}"#)
        #expect(owner.status == 201, "\(owner.raw)")
        let session = try await RawHTTP.send(
            port: port, "POST", "/v1/admin/sessions",
            json: #"{"email": "ops@example.com", "password": "ops-owner-password"}"#)
        let operatorToken = try Self.string(session, "token")
        let created = try await RawHTTP.send(
            port: port, "POST", "/v1/admin/webhooks", headers: ["Authorization": "Bearer \(operatorToken)"],
            json: #"{"url": "\#(webhook.base)/events", "events": ["streak.started"]}"#)
        #expect(created.status == 201, "\(created.raw)")

        // When a check-in arrives in the caller's trace.
        let checkIn = try await RawHTTP.send(
            port: port, "POST", "/v1/habits/read/check-ins",
            headers: user.merging(["traceparent": "00-\(Self.trace)-\(Self.caller)-01"]) { $1 }, json: "{}")
        #expect(checkIn.status == 200, "\(checkIn.raw)")

        // Then the webhook is posted with a traceparent, and the spans of both traces reach
        // the collector.
        var spans: [ExportedSpan] = []
        var posted: ReceivedRequest?
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            posted = webhook.requests.first
            spans = collector.requests.filter { $0.path == "/v1/traces" }.flatMap { ExportedSpan.all(in: $0.body) }
            // The post's span, and the pass it links to (which ends after the post, so it may
            // come in a later export).
            let post = posted?.header("traceparent").flatMap { parent in spans.first { $0.id == Self.ids(parent)?.span }
            }
            if let post, let link = post.links.first, spans.contains(where: { $0.id == link.span }),
                spans.contains(where: { $0.trace == Self.trace && $0.kind == .client }),
                spans.contains(where: { $0.trace == Self.trace && $0.kind == .server && $0.parent == Self.caller })
            {
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(collector.requests.allSatisfy { $0.header("content-type") == "application/x-protobuf" })

        let request = try #require(
            spans.first { $0.trace == Self.trace && $0.kind == .server && $0.parent == Self.caller },
            "no server span continues the caller's trace: \(spans.map(\.description))")
        #expect(request.name.contains("/v1/habits/{habit}/check-ins"), "\(request.name)")
        #expect(request.attributes["http.response.status_code"] == "200")
        let inTrace = spans.filter { $0.trace == Self.trace }
        let database = inTrace.filter { $0.attributes["db.system.name"] == system }
        #expect(!database.isEmpty, "no store span in the trace: \(inTrace.map(\.description))")
        // Each store span hangs under the request's (directly or through another span of it).
        let known = Set(inTrace.map(\.id))
        for span in database {
            #expect(span.kind == .client)
            #expect(known.contains(span.parent), "\(span.description)")
            #expect(span.attributes["db.operation.name"].map { !$0.isEmpty } == true)
        }
        // No SQL argument is recorded: the habit's id or the user's token appear in no span.
        #expect(!spans.contains { $0.attributes.values.contains { $0.contains(token) } })

        let sent = try #require(posted, "the webhook was never posted")
        let parent = try #require(sent.header("traceparent"), "the webhook carries no traceparent")
        let ids = try #require(Self.ids(parent), "\(parent)")
        let client = try #require(spans.first { $0.id == ids.span }, "the post's span was not exported")
        #expect(client.trace == ids.trace && client.kind == .client && client.name == "POST")
        // It is in the check-in's trace, under the request's spans, though a later pass sent it.
        #expect(ids.trace == Self.trace, "\(client.description)")
        #expect(known.contains(client.parent), "\(client.description)")
        // It links to the delivery pass, a root span of its own trace.
        let link = try #require(client.links.first, "the post's span has no link to the pass: \(client.description)")
        let pass = try #require(spans.first { $0.id == link.span }, "\(link)")
        #expect(pass.trace == link.trace && pass.parent.isEmpty, "\(pass.description)")
        #expect(pass.name == "delivery", "\(spans.filter { $0.trace == link.trace }.map(\.description))")
        #expect(link.trace != Self.trace)
        #expect(spans.allSatisfy { $0.service == "momentum-test" })

        // The log is JSON, a line per event, and the request's line names its trace.
        server.stop()
        let lines = server.log.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        var requestLine: [String: Any]?
        for line in lines {
            let object = try #require(
                try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
            if (object["message"] as? String)?.hasPrefix("POST /v1/habits/read/check-ins") == true {
                requestLine = object
            }
        }
        let line = try #require(requestLine, "no log line for the check-in")
        #expect(line["trace_id"] as? String == Self.trace)
        #expect((line["span_id"] as? String)?.count == 16)
    }

    static func ids(_ traceparent: String) -> (trace: String, span: String)? {
        let parts = traceparent.split(separator: "-").map(String.init)
        guard parts.count == 4, parts[1].count == 32, parts[2].count == 16 else { return nil }
        return (parts[1], parts[2])
    }

    static func string(_ answer: RawHTTP.Answer, _ key: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        return try #require(object?[key] as? String, "no \(key): \(answer.raw)")
    }
}

/// `momentum serve` as a process of its own, its standard error kept in a file.
final class ServerProcess: Sendable {
    private let process: Process
    private let logFile: URL

    private init(process: Process, logFile: URL) {
        self.process = process
        self.logFile = logFile
    }

    /// The `momentum` executable the build made beside the tests.
    static var executable: URL {
        get throws {
            let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            let candidates = [
                beside.appending(path: "momentum"), beside.deletingLastPathComponent().appending(path: "momentum"),
                URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appending(path: ".build/debug/momentum"),
            ]
            return try #require(
                candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                "no momentum executable near \(beside.path)")
        }
    }

    /// Starts `momentum serve` with `settings`, in an environment without the runner's
    /// `MOMENTUM_` and `OTEL_` variables, plus `environment`.
    static func start(in directory: URL, settings: [String], environment: [String: String]) throws -> ServerProcess {
        let process = Process()
        process.executableURL = try executable
        process.arguments = ["serve"] + settings
        var variables = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("MOMENTUM_") && !$0.key.hasPrefix("OTEL_")
        }
        variables.merge(environment) { $1 }
        process.environment = variables
        let logFile = directory.appending(path: "serve.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: logFile)
        process.standardError = handle
        process.standardOutput = handle
        try process.run()
        return ServerProcess(process: process, logFile: logFile)
    }

    /// What it wrote so far.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Waits until `/readyz` answers 200.
    func waitUntilReady(port: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if !process.isRunning { throw ReceiverError("momentum serve ended: \(log)") }
            if let answer = try? await RawHTTP.send(port: port, "GET", "/readyz"), answer.status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ReceiverError("momentum serve was not ready within a minute: \(log)")
    }

    /// Stops it with SIGTERM (a graceful shutdown) and waits, SIGKILL after 20 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// A span of an OTLP/HTTP export (`ExportTraceServiceRequest` in protobuf), read with a
/// small reader of protobuf's wire format written for the test.
struct ExportedSpan: CustomStringConvertible {
    enum Kind: UInt64 {
        case unspecified, `internal`, server, client, producer, consumer
    }

    var trace = ""
    var id = ""
    var parent = ""
    var name = ""
    var kind = Kind.unspecified
    var attributes: [String: String] = [:]
    var service = ""
    /// Its links' trace and span ids.
    var links: [(trace: String, span: String)] = []

    var description: String { "\(name) [\(kind)] \(trace)/\(id)←\(parent) \(attributes)" }

    /// Every span of a request's body.
    static func all(in body: [UInt8]) -> [ExportedSpan] {
        var spans: [ExportedSpan] = []
        // ExportTraceServiceRequest.resource_spans = 1
        for resourceSpans in Protobuf.messages(1, in: body[...]) {
            // ResourceSpans.resource = 1 (Resource.attributes = 1), scope_spans = 2
            let service = Protobuf.messages(1, in: resourceSpans).first.map {
                attributes(Protobuf.messages(1, in: $0))["service.name"] ?? ""
            }
            for scopeSpans in Protobuf.messages(2, in: resourceSpans) {
                // ScopeSpans.spans = 2
                for bytes in Protobuf.messages(2, in: scopeSpans) {
                    var span = ExportedSpan()
                    for field in Protobuf.fields(bytes) {
                        switch (field.number, field.value) {
                        case (1, .bytes(let value)): span.trace = hex(value)
                        case (2, .bytes(let value)): span.id = hex(value)
                        case (4, .bytes(let value)): span.parent = hex(value)
                        case (5, .bytes(let value)): span.name = String(decoding: value, as: UTF8.self)
                        case (6, .varint(let value)): span.kind = Kind(rawValue: value) ?? .unspecified
                        case (13, .bytes(let link)):
                            // Span.Link: trace_id = 1, span_id = 2.
                            var ids = (trace: "", span: "")
                            for inner in Protobuf.fields(link) {
                                switch (inner.number, inner.value) {
                                case (1, .bytes(let value)): ids.trace = hex(value)
                                case (2, .bytes(let value)): ids.span = hex(value)
                                default: break
                                }
                            }
                            span.links.append(ids)
                        default: break
                        }
                    }
                    span.attributes = attributes(Protobuf.messages(9, in: bytes))
                    span.service = service ?? ""
                    spans.append(span)
                }
            }
        }
        return spans
    }

    /// `KeyValue`s (key = 1, value = 2: `AnyValue` with string = 1, bool = 2, int = 3),
    /// every value as text.
    static func attributes(_ pairs: [ArraySlice<UInt8>]) -> [String: String] {
        var attributes: [String: String] = [:]
        for pair in pairs {
            var key = ""
            var text = ""
            for field in Protobuf.fields(pair) {
                if field.number == 1, case .bytes(let value) = field.value {
                    key = String(decoding: value, as: UTF8.self)
                }
                if field.number == 2, case .bytes(let value) = field.value {
                    for inner in Protobuf.fields(value) {
                        switch (inner.number, inner.value) {
                        case (1, .bytes(let string)): text = String(decoding: string, as: UTF8.self)
                        case (2, .varint(let flag)): text = flag == 0 ? "false" : "true"
                        case (3, .varint(let number)): text = String(Int64(bitPattern: number))
                        default: break
                        }
                    }
                }
            }
            attributes[key] = text
        }
        return attributes
    }

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// Protobuf's wire format, enough to walk a message's fields.
enum Protobuf {
    enum Value {
        case varint(UInt64)
        case bytes(ArraySlice<UInt8>)
        case fixed
    }

    /// The fields of a message, in order; reading stops at the first malformed one.
    static func fields(_ bytes: ArraySlice<UInt8>) -> [(number: Int, value: Value)] {
        var fields: [(number: Int, value: Value)] = []
        var index = bytes.startIndex
        func varint() -> UInt64? {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.endIndex, shift < 64 {
                let byte = bytes[index]
                index += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
            }
            return nil
        }
        while index < bytes.endIndex {
            guard let key = varint() else { break }
            let number = Int(key >> 3)
            switch key & 7 {
            case 0:
                guard let value = varint() else { return fields }
                fields.append((number, .varint(value)))
            case 1, 5:
                let size = key & 7 == 1 ? 8 : 4
                guard bytes.endIndex - index >= size else { return fields }
                index += size
                fields.append((number, .fixed))
            case 2:
                guard let length = varint(), UInt64(bytes.endIndex - index) >= length else { return fields }
                let end = index + Int(length)
                fields.append((number, .bytes(bytes[index..<end])))
                index = end
            default:
                return fields
            }
        }
        return fields
    }

    /// The length-delimited fields numbered `number`.
    static func messages(_ number: Int, in bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        fields(bytes).compactMap { field in
            if field.number == number, case .bytes(let value) = field.value { return value }
            return nil
        }
    }
}
