import Foundation

/// Checks an ID token of a configured provider: its signature with the provider's keys, its
/// algorithm, issuer, audience, validity and nonce. The HTTP layer implements it (it
/// fetches the provider's keys); the services only take its answer.
public protocol IdentityTokenVerifying: Sendable {
    /// The identity a valid token proves.
    ///
    /// - Parameters:
    ///   - token: The ID token, as the client sent it.
    ///   - provider: The provider the client named.
    ///   - nonce: The raw nonce the client used, if it sent one.
    /// - Throws: ``ServiceError`` `invalid_id_token` (`.unauthenticated`) with the reason as
    ///   the `idToken` field's issue, or `identity_provider_unavailable` (`.unavailable`)
    ///   when the provider's keys cannot be fetched.
    func verify(_ token: String, provider: IdentityProvider, nonce: String?) async throws -> VerifiedIdentity

    /// What this instance holds of each provider's keys (the console shows it); none by
    /// default.
    func keySetStatus() async -> [IdentityKeySetStatus]
}

extension IdentityTokenVerifying {
    /// None: a verifier that caches no keys.
    public func keySetStatus() async -> [IdentityKeySetStatus] { [] }
}

/// What an instance holds of one identity provider's keys: how many, fetched when, until
/// when, and the last failure to fetch them.
public struct IdentityKeySetStatus: Sendable, Hashable {
    /// The provider's name.
    public var provider: String
    /// The signing keys cached.
    public var keys: Int
    /// When they were fetched; `nil` before the first fetch.
    public var fetchedAt: Date?
    /// When they are fetched again at the latest.
    public var expiresAt: Date?
    /// The last fetch that failed, and why.
    public var lastFailureAt: Date?
    /// Why it failed.
    public var lastFailure: String?

    /// Creates a status.
    public init(
        provider: String, keys: Int, fetchedAt: Date?, expiresAt: Date?, lastFailureAt: Date?, lastFailure: String?
    ) {
        self.provider = provider
        self.keys = keys
        self.fetchedAt = fetchedAt
        self.expiresAt = expiresAt
        self.lastFailureAt = lastFailureAt
        self.lastFailure = lastFailure
    }
}

/// What a verified ID token says about its person.
public struct VerifiedIdentity: Sendable, Hashable {
    /// The provider's id of the person (`sub`).
    public var subject: String
    /// The email, when the token has one.
    public var email: String?
    /// Whether the provider verified ``email`` (`email_verified`).
    public var emailVerified: Bool
    /// The person's name (`name`), when the token has one.
    public var name: String?

    /// Creates a verified identity.
    public init(subject: String, email: String?, emailVerified: Bool, name: String?) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
    }
}

extension ServiceError {
    /// A refused ID token: `invalid_id_token`, 401, with `reason` as the `idToken` field's
    /// issue (`expired`, `not_yet_valid`, `issuer`, `audience`, `signature`, `algorithm`,
    /// `unknown_key`, `nonce`, `malformed`).
    public static func invalidIDToken(_ reason: String, _ message: String) -> ServiceError {
        ServiceError(
            .unauthenticated, "invalid_id_token", "the ID token is refused: \(message)",
            fields: [.init(field: "idToken", issue: reason)])
    }

    /// A provider whose keys cannot be fetched now: `identity_provider_unavailable`, 503.
    public static func identityProviderUnavailable(_ provider: String) -> ServiceError {
        ServiceError(
            .unavailable(retryAfterSeconds: 30), "identity_provider_unavailable",
            "the keys of identity provider '\(provider)' cannot be fetched now; try again later")
    }
}
