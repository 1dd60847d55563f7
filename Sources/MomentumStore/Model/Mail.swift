import Foundation

/// A mail in the outbox: written once, sent by whichever server instance claims it.
public struct OutgoingMail: Hashable, Sendable {
    /// The mail's id, made by the server (its `Message-ID` derives from it).
    public var id: String
    /// The address it goes to.
    public var recipient: String
    /// The subject line, as people read it (encoded when sent).
    public var subject: String
    /// The plain-text body.
    public var body: String
    /// When it was written.
    public var createdAt: Date
    /// Failed attempts so far.
    public var attempts: Int

    /// Creates a mail.
    public init(id: String, recipient: String, subject: String, body: String, createdAt: Date, attempts: Int = 0) {
        self.id = id
        self.recipient = recipient
        self.subject = subject
        self.body = body
        self.createdAt = createdAt
        self.attempts = attempts
    }
}

/// What became of an attempt to send a claimed mail.
public enum MailOutcome: Hashable, Sendable {
    /// The mail server accepted it.
    case sent
    /// A transient failure; it is tried again at `next`.
    case retry(next: Date, error: String)
    /// A permanent failure, or the last attempt failed: given up.
    case failed(error: String)
}

/// Where one mail of the outbox stands.
public struct MailStatus: Hashable, Sendable {
    /// `pending`, `sent` or `failed`.
    public var state: String
    /// Attempts made.
    public var attempts: Int
    /// The last failure, if any.
    public var lastError: String?

    /// Creates a status.
    public init(state: String, attempts: Int, lastError: String?) {
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
    }
}

/// A single-use link a mail carries (reset a password, verify an address), stored by the
/// hash of its token: the token itself is only in the mail.
public struct AccountLink: Hashable, Sendable {
    /// What a link is for.
    public enum Purpose: String, Hashable, Sendable, CaseIterable {
        /// Choose a new password.
        case passwordReset = "password_reset"
        /// Verify the account's email address.
        case emailVerification = "email_verification"
    }

    /// The SHA-256 of the token, hex.
    public var tokenHash: String
    /// The account.
    public var user: String
    /// What it is for.
    public var purpose: Purpose
    /// The address it was sent to.
    public var email: String
    /// When it was made.
    public var createdAt: Date
    /// When it stops working.
    public var expiresAt: Date

    /// Creates a link.
    public init(tokenHash: String, user: String, purpose: Purpose, email: String, createdAt: Date, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.user = user
        self.purpose = purpose
        self.email = email
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// What using a link's token found.
public enum LinkUse: Hashable, Sendable {
    /// The link was live and is now used: its account and address.
    case used(user: String, email: String)
    /// It was used before.
    case alreadyUsed
    /// It expired.
    case expired
    /// No such link (never made, superseded by a newer one, or its account is gone).
    case unknown
}
