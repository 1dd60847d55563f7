import Crypto
import Foundation
import MomentumServices

extension IntegrationGuideTests {
    /// "Sign in with your identity provider": a provider `example` whose keys a loopback
    /// HTTPS server publishes (its certificate trusted, its address allowed, as an operator
    /// would for a provider beside the server), and the tokens the blocks exchange:
    /// `ID_TOKEN` (a new user's, with the nonce `NONCE`) and `LINK_ID_TOKEN` (an identity the
    /// guide's password account links), both valid for an hour by the real clock.
    static func prepareIdentityProviders(_ run: inout GuideRun) async throws {
        let certificate = try LoopbackCertificate.make()
        let keys = try await JWKSServer.start(
            certificate: certificate, answer: .keys(try IdentityTestKeys.shared.jwks(), cacheControl: "max-age=3600"))
        run.cleanups.append { await keys.stop() }
        run.configuration.deliveryTrustRootsPEM =
            (run.configuration.deliveryTrustRootsPEM.map { $0 + "\n" } ?? "") + certificate.certificatePEM
        run.configuration.webhookAllowedNetworks.append("127.0.0.1")
        run.configuration.identity.providers = [
            IdentityProvider(
                name: "example", issuer: "https://issuer.test", audiences: ["app.momentum.test"], jwksURL: keys.url,
                requireNonce: true)
        ]
        run.configuration.identity.fetchTimeout = .seconds(30)
        let nonce = "guide-nonce-\(UUID().uuidString)"
        let hashed = SHA256.hash(data: Data(nonce.utf8)).map { String(format: "%02x", $0) }.joined()
        var newUser = TestClaims(now: Date())
        newUser.sub = "guide-user-1"
        newUser.nonce = hashed
        newUser.exp = Date().timeIntervalSince1970 + 3_600
        var linked = newUser
        linked.sub = "guide-user-2"
        run.environment["ID_TOKEN"] = try await TestTokens.rs256(newUser)
        run.environment["LINK_ID_TOKEN"] = try await TestTokens.rs256(linked)
        run.environment["NONCE"] = nonce
    }
}
