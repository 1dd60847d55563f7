import Foundation

/// An OpenID Connect identity provider whose ID tokens sign users in (Sign in with Apple,
/// Firebase Auth, Google, Auth0, Keycloak…), as the `identityProviders` setting names it.
///
/// A token is accepted from it only when it is signed by a key of ``jwksURL`` (chosen by the
/// token's `kid`), names ``issuer`` exactly, is meant for one of ``audiences``, is within its
/// validity, and carries the client's nonce when ``requireNonce`` is set.
public struct IdentityProvider: Sendable, Hashable, Codable {
    /// The name clients give (`apple`, `firebase`): 1 to 64 letters, digits, `-` or `_`.
    public var name: String
    /// The issuer, compared exactly with the token's `iss` (`https://appleid.apple.com`).
    public var issuer: String
    /// The audiences accepted: the token's `aud` must contain one (an app's bundle id, a
    /// Firebase project id, an OAuth client id).
    public var audiences: [String]
    /// Where the provider publishes its signing keys (a JSON Web Key Set), over HTTPS.
    public var jwksURL: String
    /// Whether every sign-in must send the nonce its token carries.
    public var requireNonce: Bool

    /// Creates a provider.
    public init(name: String, issuer: String, audiences: [String], jwksURL: String, requireNonce: Bool = false) {
        self.name = name
        self.issuer = issuer
        self.audiences = audiences
        self.jwksURL = jwksURL
        self.requireNonce = requireNonce
    }

    private enum CodingKeys: String, CodingKey {
        case name, issuer, audiences, jwksURL = "jwksUrl", requireNonce
    }

    /// Reads a provider from the setting's JSON; `requireNonce` may be left out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        issuer = try container.decode(String.self, forKey: .issuer)
        audiences = try container.decode([String].self, forKey: .audiences)
        jwksURL = try container.decode(String.self, forKey: .jwksURL)
        requireNonce = try container.decodeIfPresent(Bool.self, forKey: .requireNonce) ?? false
    }

    /// Reads the `identityProviders` setting: a JSON array of providers.
    ///
    /// - Throws: ``Problem`` naming the provider and the field at fault.
    public static func list(fromJSON text: String) throws(Problem) -> [IdentityProvider] {
        let providers: [IdentityProvider]
        do {
            providers = try JSONDecoder().decode([IdentityProvider].self, from: Data(text.utf8))
        } catch {
            throw Problem(
                "is not a JSON array of providers, each {\"name\", \"issuer\", \"audiences\": [...], \"jwksUrl\", \"requireNonce\"}: \(Self.describe(error))"
            )
        }
        var names: Set<String> = []
        for (index, provider) in providers.enumerated() {
            if let problem = provider.problem {
                throw Problem(
                    "provider \(index + 1) (\(provider.name.isEmpty ? "unnamed" : provider.name)): \(problem)")
            }
            guard names.insert(provider.name).inserted else {
                throw Problem("two providers are named '\(provider.name)'")
            }
        }
        return providers
    }

    /// What is wrong with the provider, or `nil`.
    public var problem: String? {
        let nameCharacters = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        if name.isEmpty || name.count > 64 || name.unicodeScalars.contains(where: { !nameCharacters.contains($0) }) {
            return "name must be 1 to 64 letters, digits, '-' or '_'"
        }
        if issuer.isEmpty || issuer.utf8.count > 512 { return "issuer must be 1 to 512 bytes" }
        if audiences.isEmpty || audiences.contains(where: { $0.isEmpty || $0.utf8.count > 512 }) {
            return "audiences must list at least one audience, each 1 to 512 bytes"
        }
        guard let url = URL(string: jwksURL), let scheme = url.scheme?.lowercased(), url.host?.isEmpty == false
        else { return "jwksUrl must be an https:// URL" }
        if scheme != "https" { return "jwksUrl must be an https:// URL (not \(scheme))" }
        return nil
    }

    /// What is wrong with a setting's value, in words that follow its name.
    public struct Problem: Error, Sendable, Equatable {
        /// The words.
        public var message: String
        /// Creates a problem.
        public init(_ message: String) { self.message = message }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "\(path(context.codingPath)) lacks \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(path(context.codingPath)) is of the wrong type"
        default:
            return "not valid JSON"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty
            ? "the value"
            : keys.map { $0.intValue.map { "[\($0 + 1)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

/// How ID tokens are checked and their providers' keys fetched: the providers, and the
/// bounds of a key set's fetch.
public struct IdentityProviderSettings: Sendable {
    /// The providers sign-ins may name; none by default (the routes answer `unknown_provider`).
    public var providers: [IdentityProvider] = []
    /// The longest a key set's fetch may take before sign-ins answer
    /// `identity_provider_unavailable`.
    public var fetchTimeout: Duration = .seconds(5)
    /// The most bytes of a key set read; a longer answer is refused.
    public var maximumKeySetBytes = 256 << 10
    /// The least time between two fetches of a provider's keys prompted by tokens with an
    /// unknown `kid`.
    public var refreshInterval: Duration = .seconds(60)
    /// How long a key set is kept when its answer gives no `Cache-Control: max-age`, and the
    /// bounds a given `max-age` is held within.
    public var cacheLifetime: Duration = .seconds(3_600)
    /// The shortest a key set is kept, whatever its `max-age` says.
    public var minimumCacheLifetime: Duration = .seconds(300)
    /// The longest a key set is kept, whatever its `max-age` says.
    public var maximumCacheLifetime: Duration = .seconds(86_400)
    /// The clock skew allowed on `exp`, `nbf` and `iat`.
    public var clockSkew: TimeInterval = 60
    /// Whether key sets may be fetched over plain HTTP: only tests that run a provider on
    /// loopback without TLS allow it; the `identityProviders` setting never does.
    @_spi(Testing) public var allowsPlainHTTP = false

    /// Settings with no providers.
    public init() {}
}
