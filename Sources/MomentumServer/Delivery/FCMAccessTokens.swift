import AsyncHTTPClient
import Foundation
import JWTKit
import MomentumServices
import NIOCore

/// FCM's OAuth2 access token: a JWT signed with the service account's RSA key (RS256),
/// exchanged at the account's `token_uri` (RFC 7523's JWT bearer grant), kept until a
/// minute before it expires. Concurrent sends share one exchange in flight.
actor FCMAccessTokens {
    private let configuration: FCMConfiguration
    private let client: HTTPClient
    private var signer: JWTKeyCollection?
    private var current: (token: String, expires: Date)?
    private var exchange: Task<(token: String, expires: Date), any Error>?

    /// How long a JWT asserts for (Google accepts at most an hour).
    static let assertionLifetime: TimeInterval = 3600
    /// How long before its expiry a token is exchanged again.
    static let margin: TimeInterval = 60

    init(_ configuration: FCMConfiguration, client: HTTPClient) {
        self.configuration = configuration
        self.client = client
    }

    /// The access token to send with at `now`: the cached one, the one being exchanged, or
    /// a new one.
    func token(now: Date) async throws -> String {
        if let current, now < current.expires.addingTimeInterval(-Self.margin) {
            return current.token
        }
        if let exchange { return try await exchange.value.token }
        let task = Task { try await self.exchangeToken(now: now) }
        exchange = task
        do {
            let fresh = try await task.value
            current = fresh
            exchange = nil
            return fresh.token
        } catch {
            exchange = nil
            throw error
        }
    }

    /// Forgets `token` (FCM answered 401 to it), unless a newer one replaced it already.
    func discard(_ token: String) {
        if current?.token == token { current = nil }
    }

    /// A signed assertion exchanged for a token.
    private func exchangeToken(now: Date) async throws -> (token: String, expires: Date) {
        let assertion = try await self.assertion(now: now)
        var request = HTTPClientRequest(url: configuration.tokenURI)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(
            ByteBuffer(
                string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"))
        let (response, answer, error) = await DeliveryHTTP.execute(request, client: client)
        guard let response else { throw FCMTokenError("the token exchange failed: \(error ?? "no answer")") }
        guard response.status.code == 200 else {
            throw FCMTokenError("the token exchange answered HTTP \(response.status.code): \(Self.oauthError(answer))")
        }
        struct Answer: Decodable {
            var accessToken: String
            var expiresIn: Double?
            enum CodingKeys: String, CodingKey {
                case accessToken = "access_token"
                case expiresIn = "expires_in"
            }
        }
        guard let decoded = try? JSONDecoder().decode(Answer.self, from: Data(answer.utf8)),
            !decoded.accessToken.isEmpty
        else { throw FCMTokenError("the token exchange answered no access_token") }
        let lifetime = min(max(decoded.expiresIn ?? 3600, 0), 86_400)
        return (decoded.accessToken, now.addingTimeInterval(lifetime))
    }

    /// The JWT: the service account asks for the messaging scope, for an hour.
    private func assertion(now: Date) async throws -> String {
        let kid = JWKIdentifier(string: configuration.privateKeyID)
        let signer: JWTKeyCollection
        if let existing = self.signer {
            signer = existing
        } else {
            signer = await JWTKeyCollection().add(
                rsa: try Insecure.RSA.PrivateKey(pem: configuration.privateKeyPEM), digestAlgorithm: .sha256,
                kid: kid)
            self.signer = signer
        }
        let issued = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        return try await signer.sign(
            Claims(
                iss: IssuerClaim(value: configuration.clientEmail), sub: SubjectClaim(value: configuration.clientEmail),
                aud: AudienceClaim(value: configuration.tokenURI), scope: FCMConfiguration.scope,
                iat: IssuedAtClaim(value: issued),
                exp: ExpirationClaim(value: issued.addingTimeInterval(Self.assertionLifetime))),
            kid: kid)
    }

    /// The `error` and `error_description` of an OAuth2 error answer, or its status alone.
    static func oauthError(_ answer: String) -> String {
        struct Answer: Decodable {
            var error: String
            var description: String?
            enum CodingKeys: String, CodingKey {
                case error
                case description = "error_description"
            }
        }
        guard let decoded = try? JSONDecoder().decode(Answer.self, from: Data(answer.utf8)) else {
            return "no OAuth2 error"
        }
        return ([decoded.error] + [decoded.description].compactMap { $0 }).map { String($0.prefix(200)) }
            .joined(separator: ": ")
    }

    /// The assertion's claims.
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var scope: String
        var iat: IssuedAtClaim
        var exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

/// Why no access token was had: what the exchange met, never the key.
struct FCMTokenError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
