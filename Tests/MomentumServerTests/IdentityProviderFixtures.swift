import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import JWTKit
import Logging
import NIOCore
import Synchronization
import Testing

@testable import MomentumServices
@testable import MomentumStore

/// The keys an identity provider of the tests signs with: RSA (2048-bit, made by the
/// installed `openssl` once per run) and P-256, each with its `kid`.
struct IdentityTestKeys: Sendable {
    let rsa: JWTKit.Insecure.RSA.PrivateKey
    let otherRSA: JWTKit.Insecure.RSA.PrivateKey
    let ec: ES256PrivateKey

    static let shared: IdentityTestKeys = {
        // A failure to make a key fails the tests that need one, never skips them.
        IdentityTestKeys(rsa: try! makeRSA(), otherRSA: try! makeRSA(), ec: ES256PrivateKey())
    }()

    static func makeRSA() throws -> JWTKit.Insecure.RSA.PrivateKey {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pem = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JWTKit.Insecure.RSA.PrivateKey(pem: String(decoding: pem, as: UTF8.self))
    }

    /// A key set of the RSA key as `rsa-1`, the EC key as `ec-1`, and `extra` more.
    func jwks(_ extra: [String] = []) throws -> String {
        let (modulus, exponent) = try rsa.publicKey.getKeyPrimitives()
        var keys = [
            #"{"kty":"RSA","kid":"rsa-1","use":"sig","alg":"RS256","n":"\#(modulus.base64URL)","e":"\#(exponent.base64URL)"}"#
        ]
        if let parameters = ec.parameters {
            keys.append(
                #"{"kty":"EC","kid":"ec-1","use":"sig","crv":"P-256","x":"\#(parameters.x)","y":"\#(parameters.y)"}"#)
        }
        return #"{"keys":[\#((keys + extra).joined(separator: ","))]}"#
    }

    /// The RSA key as another `kid`, for a key set that rotates to it.
    func rsaJWK(kid: String) throws -> String {
        let (modulus, exponent) = try rsa.publicKey.getKeyPrimitives()
        return #"{"kty":"RSA","kid":"\#(kid)","n":"\#(modulus.base64URL)","e":"\#(exponent.base64URL)"}"#
    }
}

/// The claims of a test token.
struct TestClaims: JWTPayload {
    var iss = "https://issuer.test"
    var sub = "subject-1"
    var aud: [String] = ["app.momentum.test"]
    var exp: Double
    var iat: Double
    var nbf: Double?
    var nonce: String?
    var email: String?
    var emailVerified: Bool?
    var name: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nbf, nonce, email, name
        case emailVerified = "email_verified"
    }

    init(now: Date) {
        exp = now.timeIntervalSince1970 + 600
        iat = now.timeIntervalSince1970
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

enum TestTokens {
    static func rs256(
        _ claims: TestClaims, kid: String = "rsa-1", key: JWTKit.Insecure.RSA.PrivateKey? = nil
    ) async throws
        -> String
    {
        let keys = JWTKeyCollection()
        await keys.add(
            rsa: key ?? IdentityTestKeys.shared.rsa, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    static func es256(_ claims: TestClaims, kid: String = "ec-1") async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: IdentityTestKeys.shared.ec, kid: JWKIdentifier(string: kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// A token signed by hand: `header` and `claims` as given, `signature` over them.
    static func handMade(
        header: String, _ claims: TestClaims, signature: (Data) -> Data
    ) throws -> String {
        let encoder = JSONEncoder()
        let input = Data(header.utf8).base64URL + "." + (try encoder.encode(claims)).base64URL
        return input + "." + signature(Data(input.utf8)).base64URL
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// An identity provider's key set server on loopback over TLS, counting its hits, answering
/// what the test decides: the keys, a hang, 5 MB, or a redirect.
final class JWKSServer: Sendable {
    enum Answer: Sendable {
        case keys(String, cacheControl: String?)
        /// The keys, after a wait: sign-ins meanwhile must share the one fetch.
        case slowKeys(String, delay: Duration)
        case hang
        case huge
        case redirect(String)
    }

    let port: Int
    private let task: Task<Void, any Error>
    private let shared: SharedState

    private init(port: Int, task: Task<Void, any Error>, shared: SharedState) {
        self.port = port
        self.task = task
        self.shared = shared
    }

    var url: String { "https://127.0.0.1:\(port)/keys" }
    var hits: Int { shared.hits.withLock { $0 } }
    func answer(_ next: Answer) { shared.answer.withLock { $0 = next } }

    private final class SharedState: Sendable {
        let hits = Mutex(0)
        let answer: Mutex<Answer>
        init(_ answer: Answer) { self.answer = Mutex(answer) }
    }

    static func start(certificate: LoopbackCertificate, answer first: Answer) async throws -> JWKSServer {
        let shared = SharedState(first)
        let router = Router()
        router.get("**") { _, _ -> Response in
            shared.hits.withLock { $0 += 1 }
            switch shared.answer.withLock({ $0 }) {
            case .keys(let json, let cacheControl):
                var headers: HTTPFields = [.contentType: "application/json"]
                if let cacheControl { headers[.cacheControl] = cacheControl }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
            case .slowKeys(let json, let delay):
                try await Task.sleep(for: delay)
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: json)))
            case .hang:
                try await Task.sleep(for: .seconds(30))
                return Response(status: .ok)
            case .huge:
                // 5 MB, announced, streamed in chunks: the reader must stop early.
                let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 << 10)
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(contentLength: 80 * chunk.readableBytes) { (writer: inout any ResponseBodyWriter) in
                        for _ in 0..<80 { try await writer.write(chunk) }
                        try await writer.finish(nil)
                    })
            case .redirect(let location):
                return Response(status: .found, headers: [.location: location])
            }
        }
        let port = Mutex<Int?>(nil)
        var logger = Logger(label: "momentum.jwks")
        logger.logLevel = .critical
        let app = Application(
            router: router, server: try .tls(.http1(), tlsConfiguration: certificate.tlsConfiguration),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } }, logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        // Generous: in the parallel pass, a server may wait long for a thread to start on.
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let bound = port.withLock({ $0 }) {
                return JWKSServer(port: bound, task: task, shared: shared)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        throw ReceiverError("the JWKS server never listened")
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }
}
