import MomentumServices

extension IntegrationGuideTests {
    /// "Email accounts that can recover": a real SMTP server (aiosmtpd) whose maildir the
    /// examples read (`MAILDIR`), and a mail sender that looks every second.
    static func prepareMail(_ run: inout GuideRun) async throws {
        let receiver = try await SMTPReceiver()
        run.environment["MAILDIR"] = receiver.maildir.path
        run.configuration.mail.smtpURL = "smtp://127.0.0.1:\(receiver.port)"
        run.configuration.mail.interval = .seconds(1)
        run.configuration.mail.requestsPerMinute = 0
        run.configuration.publicURL = "https://momentum.example.com"
        run.cleanups.append { receiver.stop() }
    }
}
