import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import Synchronization
import Testing

/// A certificate for `localhost` and `127.0.0.1`, made by the installed `openssl`, that the
/// server under test is told to trust.
struct LoopbackCertificate: Sendable {
    let certificatePEM: String
    let keyPEM: String

    static func make() throws -> LoopbackCertificate {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", directory.appending(path: "key.pem").path, "-out", directory.appending(path: "cert.pem").path,
            "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ReceiverError("openssl could not make a certificate (status \(process.terminationStatus))")
        }
        return LoopbackCertificate(
            certificatePEM: try String(contentsOf: directory.appending(path: "cert.pem"), encoding: .utf8),
            keyPEM: try String(contentsOf: directory.appending(path: "key.pem"), encoding: .utf8))
    }

    var tlsConfiguration: TLSConfiguration {
        get throws {
            TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map {
                    .certificate($0)
                },
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)))
        }
    }
}

struct ReceiverError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One request a receiver got.
struct ReceivedRequest: Sendable {
    let method: String
    let path: String
    let headers: HTTPFields
    let body: [UInt8]
    /// Whether it came over HTTP/2.
    let http2: Bool

    func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
}

/// The request context of a receiver: it notes whether the request came on an HTTP/2
/// stream.
struct ReceiverContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let http2: Bool

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        http2 = String(describing: type(of: source.channel)).contains("HTTP2")
    }
}

/// A real HTTP server on loopback that records every request and answers what the test
/// decides (plain HTTP/1.1, TLS with HTTP/1.1, or TLS with HTTP/2 by ALPN).
final class LoopbackReceiver: Sendable {
    enum Mode: Sendable {
        case plain
        case tls(LoopbackCertificate)
        case http2(LoopbackCertificate)
    }

    /// What the receiver answers a request: a status and a body.
    typealias Answer = @Sendable (ReceivedRequest) -> (status: Int, body: String)

    let port: Int
    let scheme: String
    private let task: Task<Void, any Error>
    private let shared: SharedState

    private init(port: Int, scheme: String, task: Task<Void, any Error>, shared: SharedState) {
        self.port = port
        self.scheme = scheme
        self.task = task
        self.shared = shared
    }

    var base: String { "\(scheme)://localhost:\(port)" }

    var requests: [ReceivedRequest] { shared.received.withLock { $0 } }

    func answer(_ answer: @escaping Answer) { shared.answer.withLock { $0 = answer } }

    /// Starts a receiver on a free port and waits until it listens.
    static func start(_ mode: Mode, answer: @escaping Answer = { _ in (200, "") }) async throws -> LoopbackReceiver {
        let shared = SharedState(answer: answer)
        let router = Router(context: ReceiverContext.self)
        router.on("**", method: .post) { request, context in
            var body = try await request.body.collect(upTo: 1 << 20)
            let record = ReceivedRequest(
                method: request.method.rawValue, path: request.uri.path, headers: request.headers,
                body: body.readBytes(length: body.readableBytes) ?? [], http2: context.http2)
            shared.received.withLock { $0.append(record) }
            let (status, text) = shared.answer.withLock { $0 }(record)
            return Response(
                status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        let server: HTTPServerBuilder
        let scheme: String
        switch mode {
        case .plain:
            server = .http1()
            scheme = "http"
        case .tls(let certificate):
            server = try .tls(.http1(), tlsConfiguration: certificate.tlsConfiguration)
            scheme = "https"
        case .http2(let certificate):
            server = try .http2Upgrade(tlsConfiguration: certificate.tlsConfiguration)
            scheme = "https"
        }
        let port = Mutex<Int?>(nil)
        var logger = Logger(label: "momentum.receiver")
        logger.logLevel = .critical
        let app = Application(
            router: router, server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } }, logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let bound = port.withLock({ $0 }) {
                return LoopbackReceiver(port: bound, scheme: scheme, task: task, shared: shared)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        throw ReceiverError("the receiver never listened")
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }

    private final class SharedState: Sendable {
        let received = Mutex<[ReceivedRequest]>([])
        let answer: Mutex<Answer>
        init(answer: @escaping Answer) { self.answer = Mutex(answer) }
    }
}
