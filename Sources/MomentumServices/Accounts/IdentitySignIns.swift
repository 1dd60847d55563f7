import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

/// A client's sign-in with an identity provider's ID token: `POST /v1/sessions/id-token`.
public typealias IDTokenSignInRequest = Components.Schemas.IdTokenSignInRequest

/// An identity to link to the signed-in account: `POST /v1/me/identities`.
public typealias IdentityLinkRequest = Components.Schemas.IdentityLinkRequest

/// An identity that signs in to an account, as its owner sees it.
public typealias LinkedIdentityView = Components.Schemas.LinkedIdentity

/// Signing in with the app's identity provider (OpenID Connect ID tokens), and the
/// identities linked to an account.
///
/// The first sign-in of an identity creates its account (no password, the email the
/// provider verified); later ones find it by provider and subject. An identity is never
/// linked to an existing account by its email, which anyone can claim at some provider: a
/// verified email that already belongs to an account is refused with `link_required`, and
/// its owner links the identity after signing in. Sign-ins share the password sign-ins'
/// throttle of the client's address: refused tokens count as failures.
public struct IdentitySignIns: Sendable {
    let store: any AccountStore & IdentityLinks
    let accounts: Accounts
    let verifier: (any IdentityTokenVerifying)?
    let providers: [String: IdentityProvider]

    /// Builds the use case.
    ///
    /// - Parameters:
    ///   - store: The accounts and their identities.
    ///   - accounts: The accounts' use cases, whose throttle and sessions sign-ins share.
    ///   - verifier: Checks ID tokens; `nil` when none is configured (every provider unknown).
    ///   - providers: The configured providers.
    public init(
        store: any AccountStore & IdentityLinks, accounts: Accounts, verifier: (any IdentityTokenVerifying)?,
        providers: [IdentityProvider]
    ) {
        self.store = store
        self.accounts = accounts
        self.verifier = verifier
        self.providers = Dictionary(providers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The configured providers, by name, each with what this instance holds of its keys
    /// (read-only: providers are settings).
    public func configuredProviders() async -> [(provider: IdentityProvider, keys: IdentityKeySetStatus?)] {
        let status = await verifier?.keySetStatus() ?? []
        return providers.values.sorted { $0.name < $1.name }.map { provider in
            (provider, status.first { $0.provider == provider.name })
        }
    }

    /// Signs a device in with an ID token, creating the account at the identity's first
    /// sign-in.
    ///
    /// - Parameters:
    ///   - body: The provider, the token, the nonce, and what a new account starts with.
    ///   - address: The client's address, for the sign-in throttle.
    /// - Throws: `unknown_provider` (`.invalid`), `invalid_id_token` (`.unauthenticated`),
    ///   `identity_provider_unavailable` (`.unavailable`), `link_required` (`.conflict`) when
    ///   the token's verified email belongs to an account, `.tooMany` when throttled. A
    ///   refused sign-in creates nothing.
    public func signIn(_ body: IDTokenSignInRequest, address: String) async throws -> SessionResponse {
        let provider = try provider(named: body.provider)
        let identity = try await verified(body.idToken, provider: provider, nonce: body.nonce, address: address)
        if let linked = try await store.linkedIdentity(provider: provider.name, subject: identity.subject) {
            return try await startSession(user: linked.userID, deviceName: body.deviceName)
        }
        let email = Self.usableEmail(identity)
        if let email, try await store.account(email: email) != nil { throw Self.linkRequired }
        let now = accounts.now()
        let timeZone = body.timeZone ?? "UTC"
        var profile = Profile(
            displayName: Self.displayName(body.displayName ?? identity.name), timeZone: timeZone,
            pack: Profile.canonicalPack(accounts.configuration.pack), updatedAt: now)
        do {
            try Accounts.validate(profile, packs: store.packLibrary)
        } catch let error as ServiceError
            where body.displayName == nil
            && error.fields.contains(where: {
                $0.field == "displayName"
            })
        {
            // A name from the token that a profile cannot hold is dropped, not refused.
            profile.displayName = Self.defaultName
            try Accounts.validate(profile, packs: store.packLibrary)
        }
        let account = Account(id: Tokens.id("u_"), email: email, passwordHash: nil, createdAt: now)
        let created = await Self.result { () async throws(StoreError) -> String in
            try await store.createAccount(
                account, profile: profile,
                identity: LinkedIdentity(
                    provider: provider.name, subject: identity.subject, userID: account.id, email: email,
                    linkedAt: now))
        }
        // An account that took the email between the check and the creation: the same refusal.
        if case .failure(let error) = created, error.code == .emailTaken { throw Self.linkRequired }
        let owner = try created.get()
        if owner == account.id { try await accounts.notifications.touch(account.id) }
        return try await startSession(user: owner, deviceName: body.deviceName)
    }

    /// Links the identity of a verified token to the caller's account.
    ///
    /// - Throws: `identity_taken` (`.conflict`) when it signs in to another account,
    ///   `provider_linked` (`.conflict`) when the account has another identity of the
    ///   provider, and the refusals of ``signIn(_:address:)``.
    public func link(_ body: IdentityLinkRequest, caller: Caller, address: String) async throws -> LinkedIdentityView {
        let provider = try provider(named: body.provider)
        let identity = try await verified(body.idToken, provider: provider, nonce: body.nonce, address: address)
        let linked = LinkedIdentity(
            provider: provider.name, subject: identity.subject, userID: caller.user,
            email: Self.usableEmail(identity), linkedAt: accounts.now())
        let result = await Self.result { () async throws(StoreError) -> String in try await store.link(linked) }
        if case .failure(let error) = result, error.code == .userExists {
            throw ServiceError(
                .conflict, "provider_linked",
                "the account already has an identity of '\(provider.name)'; unlink it first")
        }
        let owner = try result.get()
        guard owner == caller.user else {
            throw ServiceError(
                .conflict, "identity_taken", "this identity signs in to another account")
        }
        let stored = try await store.linkedIdentity(provider: provider.name, subject: identity.subject) ?? linked
        return Self.view(stored)
    }

    /// The identities that sign in to the caller's account.
    public func identities(of caller: Caller) async throws -> [LinkedIdentityView] {
        try await store.linkedIdentities(of: caller.user).map(Self.view)
    }

    /// Unlinks the caller's identity of a provider while another way to sign in remains.
    ///
    /// - Throws: `.notFound` when the account has no identity of the provider,
    ///   `last_sign_in_method` (`.conflict`) when it is the account's last way to sign in.
    public func unlink(provider: String, caller: Caller) async throws {
        // A name no provider can have (too long, a NUL PostgreSQL cannot hold) is linked to no one.
        guard provider.utf8.count <= 64, !Accounts.hasControlCharacters(provider) else {
            throw ServiceError.notFound("identity")
        }
        switch try await store.unlink(provider: provider, of: caller.user) {
        case .unlinked: return
        case .notLinked: throw ServiceError.notFound("identity")
        case .lastSignInMethod:
            throw ServiceError(
                .conflict, "last_sign_in_method",
                "this identity is the account's last way to sign in; set a password or link another identity first")
        }
    }

    // MARK: -

    static let defaultName = "Me"

    static let linkRequired = ServiceError(
        .conflict, "link_required",
        "an account already uses this email: sign in to it, then link this identity (POST /v1/me/identities)")

    private func provider(named name: String) throws -> IdentityProvider {
        guard let provider = providers[name], verifier != nil else {
            throw ServiceError(
                .invalid, "unknown_provider", "no identity provider is configured with this name",
                fields: [.init(field: "provider", issue: "is not a configured identity provider")])
        }
        return provider
    }

    /// Verifies a token under the sign-in throttle of the client's address: a refused
    /// token counts as a failed sign-in, a provider that cannot be reached does not.
    private func verified(
        _ token: String, provider: IdentityProvider, nonce: String?, address: String
    ) async throws -> VerifiedIdentity {
        guard let verifier else { throw ServiceError.notFound("identity provider") }
        let configuration = accounts.configuration
        let key = SignInThrottle.Key(
            "address:" + address,
            .init(
                free: configuration.signInFreeFailuresPerAddress,
                concurrent: max(1, configuration.passwordChecksPerAddress)))
        let attempt = try await accounts.throttle.begin([key], now: configuration.signInClock())
        var succeeded: Bool?
        defer { accounts.throttle.end(attempt, succeeded: succeeded, now: configuration.signInClock()) }
        do {
            let identity = try await verifier.verify(token, provider: provider, nonce: nonce)
            succeeded = true
            return identity
        } catch let error as ServiceError where error.kind == .unauthenticated {
            succeeded = false
            throw error
        }
    }

    private func startSession(user: String, deviceName: String?) async throws -> SessionResponse {
        // Two statements rather than one `guard let … = try await …, let … = try await …`:
        // Swift 6.3's optimizer crashed splitting that coroutine in release builds.
        let account = try await store.account(id: user)
        let profile = try await store.profile(of: user)
        guard let account, let profile else {
            throw ServiceError(.unauthenticated, "invalid_id_token", "the identity's account no longer exists")
        }
        return try await accounts.startSession(account, profile: profile, deviceName: deviceName)
    }

    /// The token's email when the provider verified it and it looks like one; `nil` otherwise
    /// (an unverified email is no one's to claim).
    static func usableEmail(_ identity: VerifiedIdentity) -> String? {
        guard identity.emailVerified, let email = identity.email.map(Account.normalize(email:)) else { return nil }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), email.utf8.count <= 254,
            !email.contains(where: \.isWhitespace), !Accounts.hasControlCharacters(email)
        else { return nil }
        return email
    }

    /// A store call's answer or refusal, as a value.
    private static func result(
        _ call: () async throws(StoreError) -> String
    ) async -> Result<String, StoreError> {
        do { return .success(try await call()) } catch { return .failure(error) }
    }

    static func displayName(_ name: String?) -> String {
        let trimmed = (name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? defaultName : String(trimmed.prefix(100))
    }

    static func view(_ identity: LinkedIdentity) -> LinkedIdentityView {
        LinkedIdentityView(
            email: identity.email, linkedAt: identity.linkedAt, provider: identity.provider, subject: identity.subject)
    }
}
