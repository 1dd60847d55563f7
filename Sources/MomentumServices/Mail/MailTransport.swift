import MomentumStore

/// Hands a mail to a mail server (the HTTP layer's SMTP client).
public protocol MailTransport: Sendable {
    /// Sends one mail.
    ///
    /// - Throws: ``MailSendError``: permanent when the server refused it for good (a 5xx
    ///   reply), transient otherwise (a 4xx reply, a connection refused or cut, a timeout).
    ///   Any other error counts as transient.
    func send(_ mail: OutgoingMail) async throws
}

/// Why a mail could not be sent, and whether trying again may help.
public struct MailSendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Whether the failure is final (the server refused the mail with a 5xx reply).
    public var permanent: Bool
    /// What happened, for the log and the outbox (never the mail's content).
    public var message: String

    /// Creates an error.
    public init(permanent: Bool, _ message: String) {
        self.permanent = permanent
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
