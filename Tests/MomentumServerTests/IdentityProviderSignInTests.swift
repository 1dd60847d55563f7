import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumStore

/// Sign-in with an identity provider's ID token (`POST /v1/sessions/id-token`) against a
/// provider whose key set a local HTTPS server publishes, on SQLite and PostgreSQL.
@Suite(.serialized)
struct IdentityProviderSignInTests {
    typealias Backend = ServerHarness.Backend

    /// A harness whose provider `test` publishes its keys on a local server; the server's
    /// certificate is trusted and its loopback address allowed, as an operator would for a
    /// provider beside the server. The fetch timeout is long unless a test is about it, so
    /// that a machine busy with the whole suite does not turn a slow fetch into a 503.
    static func withProvider(
        _ backend: Backend, answer: JWKSServer.Answer? = nil, requireNonce: Bool = false,
        timeout: Duration = .seconds(30),
        _ body: @escaping @Sendable (ServerHarness, any TestClientProtocol, JWKSServer) async throws -> Void
    ) async throws {
        let certificate = try LoopbackCertificate.make()
        let server = try await JWKSServer.start(
            certificate: certificate, answer: try answer ?? .keys(IdentityTestKeys.shared.jwks(), cacheControl: nil))
        do {
            try await ServerHarness.with(
                backend: backend,
                configure: {
                    $0.deliveryTrustRootsPEM = certificate.certificatePEM
                    $0.webhookAllowedNetworks = ["127.0.0.1"]
                    $0.identity.providers = [
                        IdentityProvider(
                            name: "test", issuer: "https://issuer.test", audiences: ["app.momentum.test"],
                            jwksURL: server.url, requireNonce: requireNonce)
                    ]
                    $0.identity.fetchTimeout = timeout
                }
            ) { harness, client in try await body(harness, client, server) }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func signIn(
        _ client: any TestClientProtocol, _ token: String, nonce: String? = nil, extra: String = ""
    ) async throws -> JSONResponse {
        let nonceField = nonce.map { #", "nonce": "\#($0)""# } ?? ""
        return try await client.call(
            .post, "/v1/sessions/id-token",
            json: #"{"provider": "test", "idToken": "\#(token)", "deviceName": "phone"\#(nonceField)\#(extra)}"#)
    }

    /// How many accounts the store holds.
    static func accounts(_ harness: ServerHarness) async throws -> Int {
        let backend = try #require(harness.state.store as? any SQLBackend)
        return try await backend.run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([SQLStatement("SELECT COUNT(*) FROM accounts")]) { rows throws(StoreError) in
                    .done(Int(rows[0].first?[0].int64 ?? -1))
                }
            })
    }

    static func issue(_ response: JSONResponse) -> String? {
        ((response.json["error"] as? [String: Any])?["details"] as? [[String: Any]])?.first?["issue"] as? String
    }

    @Test(arguments: Backend.allCases)
    func aFirstSignInCreatesTheUserAndLaterOnesFindItWithTheKeysCached(_ backend: Backend) async throws {
        try await Self.withProvider(backend) { harness, client, server in
            #expect(try await Self.accounts(harness) == 0)
            var claims = TestClaims(now: harness.now)
            claims.name = "Ada"
            let first = try await Self.signIn(
                client, try await TestTokens.rs256(claims), extra: #", "timeZone": "Europe/Berlin""#)
            #expect(first.status == .created, "\(first.text)")
            let user = try #require(first.json["userID"] as? String)
            let token = try #require(first.json["token"] as? String)
            #expect(first.json["email"] == nil)
            let profile = try await client.call(.get, "/v1/profile", token: token)
            #expect(profile.json["timeZone"] as? String == "Europe/Berlin")
            #expect(profile.json["displayName"] as? String == "Ada")
            // Later sign-ins, RSA or EC, find the same user; the keys were fetched once.
            harness.clock.value.withLock { $0 += 120 }
            let second = try await Self.signIn(client, try await TestTokens.rs256(TestClaims(now: harness.now)))
            #expect(second.status == .created, "\(second.text)")
            #expect(second.json["userID"] as? String == user)
            let third = try await Self.signIn(client, try await TestTokens.es256(TestClaims(now: harness.now)))
            #expect(third.json["userID"] as? String == user, "\(third.text)")
            #expect(try await Self.accounts(harness) == 1)
            // Each instance fetches the keys once (one in a single-instance run): a round of
            // sign-ins reaches every instance, and a second round fetches nothing.
            for round in 0..<2 {
                let before = server.hits
                for _ in 0..<ServerHarness.instances {
                    let again = try await Self.signIn(client, try await TestTokens.rs256(TestClaims(now: harness.now)))
                    #expect(again.json["userID"] as? String == user)
                }
                if round == 1 { #expect(server.hits == before) }
            }
            #expect(server.hits <= ServerHarness.instances)
            // A token that expired within the allowed skew (60 s) still signs in.
            var late = TestClaims(now: harness.now)
            late.exp = harness.now.timeIntervalSince1970 - 30
            #expect(try await Self.signIn(client, try await TestTokens.rs256(late)).status == .created)
        }
    }

    @Test(arguments: Backend.allCases)
    func refusedTokensAnswer401WithTheirReasonAndCreateNothing(_ backend: Backend) async throws {
        try await Self.withProvider(backend) { harness, client, server in
            let keys = IdentityTestKeys.shared
            let now = harness.now
            let claims = TestClaims(now: now)
            var expired = claims
            expired.exp = now.timeIntervalSince1970 - 120
            var early = claims
            early.nbf = now.timeIntervalSince1970 + 600
            var issuedLater = claims
            issuedLater.iat = now.timeIntervalSince1970 + 600
            var audience = claims
            audience.aud = ["another.app"]
            var issuer = claims
            issuer.iss = "https://accounts.evil.test"
            let publicPEM = keys.rsa.publicKey.pemRepresentation
            let cases: [(String, String, String)] = [
                ("forged", try await TestTokens.rs256(claims, key: keys.otherRSA), "signature"),
                ("expired", try await TestTokens.rs256(expired), "expired"),
                ("not yet valid", try await TestTokens.rs256(early), "not_yet_valid"),
                ("issued in the future", try await TestTokens.rs256(issuedLater), "not_yet_valid"),
                ("wrong audience", try await TestTokens.rs256(audience), "audience"),
                ("wrong issuer", try await TestTokens.rs256(issuer), "issuer"),
                (
                    "alg none",
                    try TestTokens.handMade(header: #"{"alg":"none","kid":"rsa-1"}"#, claims) { _ in Data() },
                    "algorithm"
                ),
                (
                    "HS256 keyed with the RSA public key",
                    try TestTokens.handMade(header: #"{"alg":"HS256","kid":"rsa-1","typ":"JWT"}"#, claims) { input in
                        Data(
                            HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: Data(publicPEM.utf8)))
                        )
                    },
                    "algorithm"
                ),
                (
                    "an RSA signature under the EC key's kid", try await TestTokens.rs256(claims, kid: "ec-1"),
                    "algorithm"
                ),
                ("not a JWT", "not.a.jwt", "malformed"),
            ]
            for (name, token, reason) in cases {
                let answer = try await Self.signIn(client, token)
                #expect(answer.status == .unauthorized, "\(name): \(answer.text)")
                #expect(answer.errorCode == "invalid_id_token", "\(name)")
                #expect(Self.issue(answer) == reason, "\(name): \(answer.text)")
            }
            #expect(try await Self.accounts(harness) == 0)
            #expect(server.hits <= ServerHarness.instances)
            let unknown = try await client.call(
                .post, "/v1/sessions/id-token",
                json: #"{"provider": "elsewhere", "idToken": "\#(try await TestTokens.rs256(claims))"}"#)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.errorCode == "unknown_provider")
            #expect(try await Self.accounts(harness) == 0)
        }
    }

    /// An unknown `kid` is refused; once the provider publishes it, a sign-in a minute
    /// later gets it (how often keys are fetched is ``IdentityKeySetsTests``').
    @Test(arguments: Backend.allCases)
    func anUnknownKeyIsRefusedUntilTheProviderPublishesIt(_ backend: Backend) async throws {
        try await Self.withProvider(backend) { harness, client, server in
            let signedIn = try await Self.signIn(client, try await TestTokens.rs256(TestClaims(now: harness.now)))
            #expect(signedIn.status == .created)
            for kid in ["new-0", "new-1"] {
                harness.clock.value.withLock { $0 += 61 }
                let refused = try await Self.signIn(
                    client, try await TestTokens.rs256(TestClaims(now: harness.now), kid: kid))
                #expect(refused.status == .unauthorized)
                #expect(Self.issue(refused) == "unknown_key")
            }
            server.answer(
                .keys(
                    try IdentityTestKeys.shared.jwks([try IdentityTestKeys.shared.rsaJWK(kid: "new-3")]),
                    cacheControl: "max-age=3600"))
            harness.clock.value.withLock { $0 += 61 }
            for _ in 0..<ServerHarness.instances {
                let rotated = try await Self.signIn(
                    client, try await TestTokens.rs256(TestClaims(now: harness.now), kid: "new-3"))
                #expect(rotated.status == .created, "\(rotated.text)")
                #expect(rotated.json["userID"] as? String == signedIn.json["userID"] as? String)
            }
            #expect(try await Self.accounts(harness) == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func aProviderThatRequiresANonceGetsTheOneTheClientSent(_ backend: Backend) async throws {
        try await Self.withProvider(backend, requireNonce: true) { harness, client, _ in
            let raw = "raw-nonce-42"
            let hashed = SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
            var plain = TestClaims(now: harness.now)
            plain.nonce = raw
            var sha = TestClaims(now: harness.now)
            sha.nonce = hashed
            let missing = try await Self.signIn(
                client, try await TestTokens.rs256(TestClaims(now: harness.now)), nonce: raw)
            #expect(Self.issue(missing) == "nonce")
            let unsent = try await Self.signIn(client, try await TestTokens.rs256(plain))
            #expect(Self.issue(unsent) == "nonce")
            let other = try await Self.signIn(client, try await TestTokens.rs256(plain), nonce: "another")
            #expect(Self.issue(other) == "nonce")
            // The raw nonce matches a token that carries it or its SHA-256 (Apple, Firebase).
            #expect(try await Self.accounts(harness) == 0)
            #expect(try await Self.signIn(client, try await TestTokens.rs256(plain), nonce: raw).status == .created)
            #expect(try await Self.signIn(client, try await TestTokens.rs256(sha), nonce: raw).status == .created)
            #expect(try await Self.accounts(harness) == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func aKeySetThatHangsAnswers503WithinTheTimeout(_ backend: Backend) async throws {
        try await Self.withProvider(backend, answer: .hang, timeout: .seconds(1)) { harness, client, _ in
            let started = ContinuousClock.now
            let answer = try await Self.signIn(client, try await TestTokens.rs256(TestClaims(now: harness.now)))
            // The provider hangs for 30 s; a 1-s timeout answers long before, even on a
            // machine busy with the whole suite.
            #expect(ContinuousClock.now - started < .seconds(15))
            #expect(answer.status == .serviceUnavailable, "\(answer.text)")
            #expect(answer.errorCode == "identity_provider_unavailable")
            #expect(try await Self.accounts(harness) == 0)
        }
    }

    @Test(arguments: Backend.allCases)
    func aKeySetOfFiveMegabytesIsRefused(_ backend: Backend) async throws {
        try await Self.withProvider(backend, answer: .huge) { harness, client, _ in
            let answer = try await Self.signIn(client, try await TestTokens.rs256(TestClaims(now: harness.now)))
            #expect(answer.status == .serviceUnavailable, "\(answer.text)")
            #expect(answer.errorCode == "identity_provider_unavailable")
            #expect(try await Self.accounts(harness) == 0)
        }
    }

    @Test(arguments: Backend.allCases)
    func aRedirectToAPrivateAddressIsNotFollowed(_ backend: Backend) async throws {
        for target in ["https://169.254.169.254/latest/meta-data", "https://10.0.0.7/keys", "http://127.0.0.1:9/keys"] {
            try await Self.withProvider(backend, answer: .redirect(target)) { harness, client, server in
                let answer = try await Self.signIn(client, try await TestTokens.rs256(TestClaims(now: harness.now)))
                #expect(answer.status == .serviceUnavailable, "\(target): \(answer.text)")
                #expect(answer.errorCode == "identity_provider_unavailable")
                #expect(server.hits == 1)
                #expect(try await Self.accounts(harness) == 0)
            }
        }
    }
}
