import Foundation

/// How the server sends mail (``ServerConfiguration/mail``): the SMTP server, the sender,
/// and the outbox's retries.
public struct MailSettings: Sendable {
    /// The SMTP server: `smtp://user:password@host:587` (STARTTLS when the server offers
    /// it, and required when a password is given), `smtps://user:password@host:465`
    /// (implicit TLS) or `smtp://host:25` (a local relay). `nil`: no mail is sent (password
    /// resets and verifications answer as usual, and nothing is queued).
    public var smtpURL: String?
    /// The `From` of every mail: an address, or `Name <address>`.
    public var from: String = "Momentum <no-reply@momentum.invalid>"
    /// How often the sender looks for mail due; zero turns it off (another instance, or a
    /// test, sends).
    public var interval: Duration = .seconds(5)
    /// Attempts before a mail that keeps failing is given up (a 5xx answer gives up at once).
    public var attempts: Int = 10
    /// The wait after a mail's first failure, in seconds; it doubles after each, up to an hour.
    public var retrySeconds: TimeInterval = 30
    /// How long a claimed mail may take before another instance may take it.
    public var lease: TimeInterval = 120
    /// The longest wait for the connection and for each of the SMTP server's replies.
    public var timeout: Duration = .seconds(30)
    /// How long a password-reset link works.
    public var resetLinkLifetime: TimeInterval = 3_600
    /// How long an email-verification link works.
    public var verificationLinkLifetime: TimeInterval = 86_400
    /// Mails one email address, or one client address, may ask for per minute (password
    /// resets, verification mails again); 0: no limit.
    public var requestsPerMinute: Int = 3
    /// Certificates (PEM) the SMTP client trusts beside the system's: a private CA, or a
    /// relay's own certificate.
    public var trustRootsPEM: String?

    /// The standard settings: no SMTP server.
    public init() {}
}
