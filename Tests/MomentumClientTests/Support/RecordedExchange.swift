import Foundation
import HTTPTypes
import MomentumAPI
import OpenAPIRuntime
import Synchronization

/// One exchange of a real server run: the JSON request an SDK sent and the JSON answer it
/// got, kept as a fixture (`Fixtures/Answers/<operation>.json`) so that a later server and a
/// later SDK can be measured against what today's shipped apps send and read.
struct RecordedExchange: Sendable {
    var operation: String
    var method: String
    var path: String
    var status: Int
    /// The request's JSON body, when it had one.
    var request: Data?
    /// The answer's JSON body, when it had one.
    var answer: Data?

    /// Where the fixtures are, in the repository (the recording writes them there).
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures/Answers")

    /// Every recorded exchange, by operation id.
    static func all() throws -> [String: RecordedExchange] {
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        var exchanges: [String: RecordedExchange] = [:]
        for file in files where file.pathExtension == "json" {
            let exchange = try RecordedExchange(file: Data(contentsOf: file))
            exchanges[exchange.operation] = exchange
        }
        return exchanges
    }

    init(operation: String, method: String, path: String, status: Int, request: Data?, answer: Data?) {
        self.operation = operation
        self.method = method
        self.path = path
        self.status = status
        self.request = request
        self.answer = answer
    }

    private init(file: Data) throws {
        let object = try JSONSerialization.jsonObject(with: file) as? [String: Any] ?? [:]
        func body(_ key: String) throws -> Data? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            return try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        }
        self.init(
            operation: object["operation"] as? String ?? "", method: object["method"] as? String ?? "",
            path: object["path"] as? String ?? "", status: object["status"] as? Int ?? 0, request: try body("request"),
            answer: try body("answer"))
    }

    /// Writes the exchange as its fixture file (stable: sorted keys, pretty printed).
    func write() throws {
        func value(_ data: Data?) throws -> Any {
            try data.map { try JSONSerialization.jsonObject(with: $0, options: .fragmentsAllowed) } ?? NSNull()
        }
        let object: [String: Any] = [
            "operation": operation, "method": method, "path": path, "status": status, "request": try value(request),
            "answer": try value(answer),
        ]
        let data = try JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        try (data + Data("\n".utf8)).write(to: Self.directory.appending(path: "\(operation).json"))
    }
}

/// Keeps the fullest JSON exchange of each operation that passes through it, and the last
/// session token an answer gave (so that the generated client can call as that account).
final class ExchangeRecorder: ClientMiddleware, Sendable {
    let exchanges = Mutex<[String: RecordedExchange]>([:])
    let token = Mutex<String?>(nil)

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var sent: Data?
        if let body { sent = try await Data(collecting: body, upTo: 1 << 24) }
        let (response, answerBody) = try await next(request, sent.map { HTTPBody($0) }, baseURL)
        var received: Data?
        if let answerBody { received = try await Data(collecting: answerBody, upTo: 1 << 24) }
        let json = response.headerFields[.contentType]?.hasPrefix("application/json") ?? false
        if (200..<300).contains(response.status.code), json || (received ?? Data()).isEmpty {
            let exchange = RecordedExchange(
                operation: operationID, method: request.method.rawValue, path: request.path ?? "",
                status: response.status.code, request: sent, answer: json ? received : nil)
            // The fullest answer of each operation (the pull that brought events, not an empty one).
            exchanges.withLock {
                if ($0[operationID]?.answer?.count ?? -1) < (exchange.answer?.count ?? 0) { $0[operationID] = exchange }
            }
            if json, let received,
                let issued = (try? JSONSerialization.jsonObject(with: received) as? [String: Any])?["token"] as? String
            {
                token.withLock { $0 = issued }
            }
        }
        return (response, received.map { HTTPBody($0) })
    }
}

/// Sends the recorded token of an ``ExchangeRecorder`` (a generated client's calls as the
/// account the SDK signed in).
struct RecordedToken: ClientMiddleware {
    let recorder: ExchangeRecorder

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = recorder.token.withLock({ $0 }) { request.headerFields[.authorization] = "Bearer \(token)" }
        return try await next(request, body, baseURL)
    }
}

/// Answers every request with the recorded answer of its operation, changed by `mutate`:
/// the server of a later release, as far as today's client can tell.
struct ReplayTransport: ClientTransport {
    struct NoRecording: Error, CustomStringConvertible {
        var operation: String
        var description: String { "no recorded answer of \(operation)" }
    }

    let exchanges: [String: RecordedExchange]
    let mutate: @Sendable (_ operation: String, _ status: Int, _ answer: Any) -> Any

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let exchange = exchanges[operationID] else { throw NoRecording(operation: operationID) }
        var response = HTTPResponse(status: .init(code: exchange.status))
        guard let answer = exchange.answer else { return (response, nil) }
        response.headerFields[.contentType] = "application/json"
        let value = mutate(operationID, exchange.status, try JSONSerialization.jsonObject(with: answer))
        return (response, HTTPBody(try JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed)))
    }
}
