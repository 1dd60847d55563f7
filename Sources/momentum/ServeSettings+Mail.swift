extension ServeSettings {
    /// Mail: the SMTP server, the sender, where the links in mails point, and the outbox's
    /// retries and limits.
    static let mail: [Setting] = [
        .optionalText(
            "smtpUrl", \.server.mail.smtpURL,
            help:
                "The SMTP server for password-reset and verification mails: smtp://user:password@host:587 (STARTTLS), smtps://user:password@host:465 (TLS) or smtp://host:25 (a local relay); no mail when unset.",
            secret: true),
        .text(
            "mailFrom", \.server.mail.from,
            help: "The From of every mail: an address, or Name <address>.",
            check: { from in
                from.contains(where: { $0 == "\r" || $0 == "\n" })
                    ? "must be one line: an address, or Name <address>" : nil
            }),
        .optionalText(
            "publicUrl", \.server.publicURL,
            help:
                "Where people reach this server's web app (https://momentum.example.com); links in mails point there. Unset: http://host:port."
        ),
        .seconds(
            "mailInterval", 0...86_400, \.server.mail.interval,
            help: "Seconds between the passes that send the mail outbox; 0: this instance sends none."),
        .integer(
            "mailAttempts", 1...100, \.server.mail.attempts,
            help: "Attempts before a mail the SMTP server keeps refusing for now (4xx, down) is given up."),
        .integer(
            "mailRetrySeconds", 0...86_400,
            help: "Seconds before a failed mail is tried again; the wait doubles after each failure, up to an hour.",
            get: { Int($0.server.mail.retrySeconds) }, set: { $0.server.mail.retrySeconds = Double($1) }),
        .integer(
            "mailRequestsPerMinute", 0...1_000, \.server.mail.requestsPerMinute,
            help:
                "Password-reset and verification mails one email, client address or account may ask for per minute; 0: no limit."
        ),
    ]
}
