import Foundation
import Logging
import MomentumAPI
import MomentumStore

/// `POST /v1/password-reset`'s body: the email an account may have.
public typealias PasswordResetRequest = Components.Schemas.PasswordResetRequest
/// `POST /v1/password-reset/confirm`'s body: a reset link's token and the new password.
public typealias PasswordResetConfirmation = Components.Schemas.PasswordResetConfirmation
/// `POST /v1/email-verification/confirm`'s body: a verification link's token.
public typealias EmailVerificationConfirmation = Components.Schemas.EmailVerificationConfirmation

/// Email accounts that can recover: password resets and email verification, by mails
/// with single-use links.
///
/// A link's token is 256 random bits; only its SHA-256 is stored. It works once, expires
/// (``MailSettings/resetLinkLifetime``, ``MailSettings/verificationLinkLifetime``), and a
/// newer mail of the same purpose supersedes it. A mail is written to the durable outbox
/// (``MailSender`` sends it) in the background, after the request is answered: asking for
/// a reset answers the same, as fast, whether or not the address has an account, and a
/// mail server that is down delays the mail, not the answer.
public struct AccountRecovery: Sendable {
    let store: any AccountStore & MailOutbox
    let configuration: ServerConfiguration
    let passwords: any PasswordHashing
    let sessions: SessionCache
    let changes: ChangePublisher
    let limit: (any RequestLimit)?
    let work: BackgroundWork
    let logger: Logger

    var settings: MailSettings { configuration.mail }

    /// Asks for a password-reset mail for `email`: when it has an account with a mail
    /// server configured, a mail with a link is queued, superseding older reset links.
    ///
    /// Limited per email and per client address (``MailSettings/requestsPerMinute``); the
    /// answer is otherwise the same whether or not the email has an account.
    ///
    /// - Throws: `.tooMany` when limited, `.invalid` for an address too long to be one.
    public func requestPasswordReset(_ body: PasswordResetRequest, address: String) throws {
        let email = Account.normalize(email: body.email)
        guard email.utf8.count <= 320 else {
            throw ServiceError.invalid("email is too long to be an address", field: "email")
        }
        try limit?.check("address:" + address, scope: "from this address")
        try limit?.check("email:" + email, scope: "for this email")
        // The same work for every address, after the answer: nothing a client can time.
        work.start { [self] in
            await queue(.passwordReset, lookingUp: email)
        }
    }

    /// Sends the caller's account a new verification mail (superseding older links); an
    /// account already verified, or without an email address, gets no mail.
    ///
    /// - Throws: `.tooMany` when limited.
    public func resendVerification(caller: Caller) throws {
        try limit?.check("user:" + caller.user, scope: "for this account")
        let user = caller.user
        work.start { [self] in
            await queueVerification(of: user, force: false)
        }
    }

    /// Queues the verification mail of a new account (registration calls it).
    public func welcome(_ user: String) {
        work.start { [self] in
            await queueVerification(of: user, force: true)
        }
    }

    /// Sets a new password with a reset link's token: the password follows registration's
    /// rules; every device session of the account ends, and its email counts as verified
    /// (the mail reached its owner).
    ///
    /// - Returns: How many devices were signed out.
    /// - Throws: `.invalid` naming the password; `.gone` `reset_link_used` or
    ///   `reset_link_expired`; `.invalid` `invalid_reset_link` for a token that never was
    ///   or was superseded.
    public func confirmPasswordReset(_ body: PasswordResetConfirmation) async throws -> Int {
        guard body.password.count >= 8, body.password.utf8.count <= 72 else {
            let issue = "must be 8 to 72 characters long (accents and emoji count as more than one)"
            throw ServiceError(
                .invalid, "invalid_input", "password \(issue)", fields: [.init(field: "password", issue: issue)])
        }
        let (user, email) = try await use(body.token, .passwordReset)
        let hash = try await passwords.hash(body.password, cost: configuration.bcryptCost)
        guard let ended = try await store.changePassword(to: hash, of: user, keeping: "") else {
            throw Self.linkError(.unknown, .passwordReset)
        }
        for tokenHash in ended {
            sessions.forget(tokenHash: tokenHash)
            await changes.relayRevocation(of: user, tokenHash: tokenHash)
        }
        try await store.markEmailVerified(email, of: user, at: configuration.clock())
        logger.info("password reset", metadata: ["user": .string(user), "signedOut": .stringConvertible(ended.count)])
        return ended.count
    }

    /// Verifies the account's email with a verification link's token.
    ///
    /// - Throws: `.gone` `verification_link_used` or `verification_link_expired`;
    ///   `.invalid` `invalid_verification_link`.
    public func confirmEmailVerification(_ body: EmailVerificationConfirmation) async throws {
        let (user, email) = try await use(body.token, .emailVerification)
        try await store.markEmailVerified(email, of: user, at: configuration.clock())
    }

    /// Whether the user's email address is verified; `nil` when the account has none.
    public func emailVerified(_ user: String) async throws -> Bool? {
        guard let account = try await store.account(id: user) else { return nil }
        let email: String? = account.email
        guard let email, !email.isEmpty else { return nil }
        return try await store.verifiedEmail(of: user) == email
    }

    // MARK: Links

    /// Uses a token: its account and address, or the refusal.
    private func use(_ token: String, _ purpose: AccountLink.Purpose) async throws -> (String, String) {
        // A token is 43 base64url characters; anything else is no link, without a lookup.
        guard token.utf8.count == 43, token.utf8.allSatisfy(Self.isTokenByte) else {
            throw Self.linkError(.unknown, purpose)
        }
        let use = try await store.useLink(tokenHash: Tokens.hash(token), purpose: purpose, now: configuration.clock())
        guard case .used(let user, let email) = use else { throw Self.linkError(use, purpose) }
        return (user, email)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// The refusal of a link that cannot be used.
    static func linkError(_ use: LinkUse, _ purpose: AccountLink.Purpose) -> ServiceError {
        let name = purpose == .passwordReset ? "reset_link" : "verification_link"
        let words = purpose == .passwordReset ? "password-reset link" : "verification link"
        switch use {
        case .alreadyUsed:
            return ServiceError(.gone, "\(name)_used", "this \(words) was used already; ask for a new one")
        case .expired:
            return ServiceError(.gone, "\(name)_expired", "this \(words) expired; ask for a new one")
        case .unknown, .used:
            return ServiceError(
                .invalid, "invalid_\(name)", "this \(words) is not valid (a newer one replaces it); ask for a new one",
                fields: [.init(field: "token", issue: "is not a live link")])
        }
    }

    // MARK: Writing mails

    /// Looks the email up and queues a link for its account, if it has one.
    private func queue(_ purpose: AccountLink.Purpose, lookingUp email: String) async {
        do {
            guard settings.smtpURL != nil, let account = try await store.account(email: email) else { return }
            try await queueLink(purpose, for: account.id, email: email)
        } catch {
            logger.error("a mail could not be queued", metadata: ["error": .string(String(describing: error))])
        }
    }

    /// Queues the verification mail of an account with an email address (`force`: even
    /// when it is verified, which a new account is not).
    private func queueVerification(of user: String, force: Bool) async {
        do {
            guard settings.smtpURL != nil, let account = try await store.account(id: user) else { return }
            let email: String? = account.email
            guard let email, !email.isEmpty else { return }
            if !force, try await store.verifiedEmail(of: user) == email { return }
            try await queueLink(.emailVerification, for: user, email: email)
        } catch {
            logger.error("a mail could not be queued", metadata: ["error": .string(String(describing: error))])
        }
    }

    /// Makes a link, writes its mail in the account's language, and queues both.
    private func queueLink(_ purpose: AccountLink.Purpose, for user: String, email: String) async throws {
        let now = configuration.clock()
        var generator = SystemRandomNumberGenerator()
        let token = Tokens.base64URL((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let lifetime = purpose == .passwordReset ? settings.resetLinkLifetime : settings.verificationLinkLifetime
        let language = try await store.profile(of: user)?.language
        let letter = MailLetter(
            purpose: purpose, link: link(purpose, token: token), hours: Int((lifetime / 3_600).rounded(.up)),
            wording: Wording.negotiate(profile: language, acceptLanguage: nil))
        let link = AccountLink(
            tokenHash: Tokens.hash(token), user: user, purpose: purpose, email: email, createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime))
        let mail = OutgoingMail(
            id: Tokens.id("m_"), recipient: email, subject: letter.subject, body: letter.body, createdAt: now)
        try await store.enqueueMail(mail, link: link)
    }

    /// The web app's page for a link.
    func link(_ purpose: AccountLink.Purpose, token: String) -> String {
        var base = configuration.publicURL ?? "http://\(configuration.host):\(configuration.port)"
        while base.hasSuffix("/") { base.removeLast() }
        let page = purpose == .passwordReset ? "reset-password" : "verify-email"
        return "\(base)/\(page)?token=\(token)"
    }
}
