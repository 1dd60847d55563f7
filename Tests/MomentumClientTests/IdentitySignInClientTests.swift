import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MomentumClient
import MomentumCore
@_spi(Testing) import MomentumServices
import NIOCore
import Synchronization
import Testing

/// `MomentumClient.signIn(idToken:provider:)` against a real server whose identity provider
/// publishes an EC key on loopback.
@Suite(.serialized) struct IdentitySignInClientTests {
    static let key = P256.Signing.PrivateKey()

    /// The provider's key set: the P-256 key as `ec-1`.
    static var jwks: String {
        let raw = key.publicKey.rawRepresentation
        return
            #"{"keys":[{"kty":"EC","kid":"ec-1","crv":"P-256","x":"\#(base64URL(raw.prefix(32)))","y":"\#(base64URL(raw.suffix(32)))"}]}"#
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// An ES256 ID token of `subject`, signed by hand.
    static func token(subject: String, now: Date, nonce: String? = nil) throws -> String {
        var claims: [String: Any] = [
            "iss": "https://issuer.test", "aud": "app.momentum.test", "sub": subject,
            "iat": Int(now.timeIntervalSince1970), "exp": Int(now.timeIntervalSince1970) + 600,
        ]
        if let nonce { claims["nonce"] = nonce }
        let header = base64URL(Data(#"{"alg":"ES256","kid":"ec-1","typ":"JWT"}"#.utf8))
        let input = header + "." + base64URL(try JSONSerialization.data(withJSONObject: claims))
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + base64URL(signature)
    }

    /// A plain-HTTP key set server on loopback (the server under test allows it for tests only).
    static func withKeySetServer<R: Sendable>(_ body: (String) async throws -> R) async throws -> R {
        let router = Router()
        router.get("keys") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: jwks)))
        }
        let port = Mutex<Int?>(nil)
        var logger = Logger(label: "momentum.jwks")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } }, logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        defer { task.cancel() }
        while port.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
        return try await body("http://127.0.0.1:\(port.withLock { $0 } ?? 0)/keys")
    }

    @Test(arguments: Backend.allCases)
    func aDeviceSignsInWithAnIDTokenAndSyncsAsTheSameUserElsewhere(_ backend: Backend) async throws {
        try await Self.withKeySetServer { jwksURL in
            try await LiveServer.with(
                backend,
                configure: {
                    $0.webhookAllowedNetworks = ["127.0.0.1"]
                    $0.identity.allowsPlainHTTP = true
                    // Long: under the parallel pass a loaded machine may take seconds to answer.
                    $0.identity.fetchTimeout = .seconds(30)
                    $0.identity.providers = [
                        IdentityProvider(
                            name: "test", issuer: "https://issuer.test", audiences: ["app.momentum.test"],
                            jwksURL: jwksURL, requireNonce: true)
                    ]
                }
            ) { server in
                let files = try ClientFiles()
                let phone = try MomentumClient.make(server, files: files, device: "phone")
                let tablet = try MomentumClient.make(server, files: files, device: "tablet")
                // A token without the nonce the provider requires is refused, and nothing is stored.
                do {
                    try await phone.signIn(
                        idToken: try Self.token(subject: "s-1", now: server.clock.now), provider: "test",
                        nonce: "n-1")
                    Issue.record("a token without its nonce signed in")
                } catch let error as ClientError {
                    #expect(error.code == "invalid_id_token", "\(error)")
                }
                #expect(try await phone.account == nil)
                try await phone.signIn(
                    idToken: try Self.token(subject: "s-1", now: server.clock.now, nonce: "n-1"), provider: "test",
                    nonce: "n-1", deviceName: "phone", timeZone: "Europe/Berlin")
                let account = try #require(try await phone.account)
                #expect(account.email == nil)
                _ = try await phone.record(habit("read", "Read"))
                try await phone.sync()
                try await tablet.signIn(
                    idToken: try Self.token(subject: "s-1", now: server.clock.now, nonce: "n-2"), provider: "test",
                    nonce: "n-2")
                #expect(try await tablet.account?.userID == account.userID)
                try await tablet.sync()
                #expect(try await tablet.today().habits.map(\.definition.id) == ["read"])
            }
        }
    }
}
