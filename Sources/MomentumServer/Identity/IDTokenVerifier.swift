import Crypto
import Foundation
import JWTKit
import Logging
@_spi(Testing) import MomentumServices

/// Checks OpenID Connect ID tokens (OpenID Connect Core §3.1.3.7) with jwt-kit.
///
/// The header is read first: its `alg` must be an asymmetric algorithm Momentum accepts
/// (RS256, RS384, RS512, ES256, ES384, EdDSA) — never `none`, never an HMAC, which a token
/// signed with a provider's public key as the secret would need — and its `kid` must name a
/// key of the provider's set (``IdentityKeySets``) of the kind the algorithm uses (and the
/// key's own `alg`, when it has one, must be the same). The signature is checked with that
/// key only. Then the claims: `iss` exactly the provider's issuer, `aud` holding one of its
/// audiences, `exp` not passed and `nbf` and `iat` not to come (each with the configured
/// skew), a `sub`, and the nonce: the token's `nonce` must be the one the client sent, or
/// its SHA-256 in lower-case hex (what Apple's and Firebase's clients put in the request to
/// the provider), and a provider configured with `requireNonce` needs one. Time is the
/// configuration's clock.
struct IDTokenVerifier: IdentityTokenVerifying {
    let keySets: IdentityKeySets
    let settings: IdentityProviderSettings
    let clock: @Sendable () -> Date

    /// The algorithms accepted, and the kind of key each needs.
    static let algorithms: [String: (keyType: String, curve: String?)] = [
        "RS256": ("RSA", nil), "RS384": ("RSA", nil), "RS512": ("RSA", nil),
        "ES256": ("EC", "P-256"), "ES384": ("EC", "P-384"), "EdDSA": ("OKP", "Ed25519"),
    ]

    /// The longest token read.
    static let maximumTokenBytes = 16_384

    func keySetStatus() async -> [IdentityKeySetStatus] {
        await keySets.status()
    }

    func verify(_ token: String, provider: IdentityProvider, nonce: String?) async throws -> VerifiedIdentity {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= Self.maximumTokenBytes, parts.count == 3,
            let headerData = Self.base64URLDecoded(parts[0]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { throw ServiceError.invalidIDToken("malformed", "it is not a signed JWT") }
        guard let alg = header.alg, let kind = Self.algorithms[alg] else {
            throw ServiceError.invalidIDToken(
                "algorithm", "its algorithm '\(header.alg ?? "")' is not one of \(Self.algorithms.keys.sorted())")
        }
        guard header.crit == nil else {
            throw ServiceError.invalidIDToken("malformed", "it has critical header fields Momentum does not know")
        }
        guard let kid = header.kid, !kid.isEmpty,
            case .key(var key) = try await keySets.key(kid, of: provider)
        else { throw ServiceError.invalidIDToken("unknown_key", "its key (kid) is not one of the provider's") }
        guard key.keyType.rawValue == kind.keyType, kind.curve == nil || key.curve?.rawValue == kind.curve,
            key.algorithm == nil || key.algorithm?.rawValue == alg
        else {
            throw ServiceError.invalidIDToken("algorithm", "its algorithm '\(alg)' is not its key's")
        }
        key.algorithm = JWK.Algorithm(rawValue: alg)
        let claims: Claims
        do {
            let keys = JWTKeyCollection()
            try await keys.add(jwk: key)
            claims = try await keys.verify(token, as: Claims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw ServiceError.invalidIDToken("signature", "its signature is not the provider's")
        } catch {
            throw ServiceError.invalidIDToken("malformed", "it could not be read")
        }
        return try check(claims, provider: provider, nonce: nonce)
    }

    private func check(_ claims: Claims, provider: IdentityProvider, nonce: String?) throws -> VerifiedIdentity {
        let now = clock().timeIntervalSince1970
        let skew = settings.clockSkew
        guard claims.iss == provider.issuer else {
            throw ServiceError.invalidIDToken("issuer", "its issuer is not the provider's")
        }
        guard let audiences = claims.aud, audiences.contains(where: provider.audiences.contains) else {
            throw ServiceError.invalidIDToken("audience", "it is not meant for this app (aud)")
        }
        guard let exp = claims.exp else { throw ServiceError.invalidIDToken("malformed", "it has no expiry (exp)") }
        guard now < exp + skew else { throw ServiceError.invalidIDToken("expired", "it has expired") }
        if let nbf = claims.nbf, nbf > now + skew {
            throw ServiceError.invalidIDToken("not_yet_valid", "it is not valid yet (nbf)")
        }
        if let iat = claims.iat, iat > now + skew {
            throw ServiceError.invalidIDToken("not_yet_valid", "it was issued in the future (iat)")
        }
        guard let subject = claims.sub, !subject.isEmpty, subject.utf8.count <= 255,
            !subject.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { throw ServiceError.invalidIDToken("malformed", "it has no subject (sub)") }
        if provider.requireNonce || nonce != nil {
            guard let nonce, let claimed = claims.nonce, Self.nonce(claimed, matches: nonce) else {
                throw ServiceError.invalidIDToken("nonce", "its nonce is not the one this sign-in sent")
            }
        }
        return VerifiedIdentity(
            subject: subject, email: claims.email, emailVerified: claims.emailVerified ?? false, name: claims.name)
    }

    /// Whether a token's nonce is the client's raw nonce or its SHA-256 in lower-case hex.
    static func nonce(_ claimed: String, matches raw: String) -> Bool {
        let hashed = SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
        return claimed == raw || claimed == hashed
    }

    static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    /// The header fields read before any key is chosen.
    struct Header: Decodable {
        var alg: String?
        var kid: String?
        var crit: [String]?
    }

    /// The claims checked; any may be missing from a token (its absence is then refused
    /// where it matters).
    struct Claims: JWTPayload {
        var iss: String?
        var sub: String?
        var aud: [String]?
        var exp: Double?
        var nbf: Double?
        var iat: Double?
        var nonce: String?
        var email: String?
        var emailVerified: Bool?
        var name: String?

        enum CodingKeys: String, CodingKey {
            case iss, sub, aud, exp, nbf, iat, nonce, email, name
            case emailVerified = "email_verified"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            iss = try? container.decodeIfPresent(String.self, forKey: .iss)
            sub = try? container.decodeIfPresent(String.self, forKey: .sub)
            if let one = try? container.decodeIfPresent(String.self, forKey: .aud) {
                aud = [one]
            } else {
                aud = try? container.decodeIfPresent([String].self, forKey: .aud)
            }
            exp = try? container.decodeIfPresent(Double.self, forKey: .exp)
            nbf = try? container.decodeIfPresent(Double.self, forKey: .nbf)
            iat = try? container.decodeIfPresent(Double.self, forKey: .iat)
            nonce = try? container.decodeIfPresent(String.self, forKey: .nonce)
            email = try? container.decodeIfPresent(String.self, forKey: .email)
            name = try? container.decodeIfPresent(String.self, forKey: .name)
            // Apple writes it as a string ("true").
            if let flag = try? container.decodeIfPresent(Bool.self, forKey: .emailVerified) {
                emailVerified = flag
            } else if let text = try? container.decodeIfPresent(String.self, forKey: .emailVerified) {
                emailVerified = text == "true"
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(iss, forKey: .iss)
            try container.encodeIfPresent(sub, forKey: .sub)
            try container.encodeIfPresent(aud, forKey: .aud)
            try container.encodeIfPresent(exp, forKey: .exp)
            try container.encodeIfPresent(nonce, forKey: .nonce)
        }

        /// The claims are checked by ``IDTokenVerifier`` with the configuration's clock.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

extension IDTokenVerifier {
    /// The verifier of a configuration's providers, whose key sets are fetched within its
    /// bounds, from addresses vetted as webhooks' are.
    static func make(
        configuration: ServerConfiguration, addresses: WebhookAddresses, logger: Logger
    ) -> IDTokenVerifier {
        let settings = configuration.identity
        let fetcher = KeySetFetcher(
            addresses: addresses, extraRootsPEM: configuration.deliveryTrustRootsPEM, timeout: settings.fetchTimeout,
            maximumBytes: settings.maximumKeySetBytes, allowsPlainHTTP: settings.allowsPlainHTTP)
        return IDTokenVerifier(
            keySets: IdentityKeySets(fetcher: fetcher, settings: settings, clock: configuration.clock, logger: logger),
            settings: settings, clock: configuration.clock)
    }
}
