import CoreMetrics
import Foundation
import Logging
import MomentumStore

/// Sends the mail outbox through the SMTP server: the mail counterpart of ``Deliveries``.
///
/// A pass claims what is due (on PostgreSQL, instances share the outbox with
/// `FOR UPDATE SKIP LOCKED`, so a mail is sent by one of them) and sends each mail. A
/// transient failure (the server down, a timeout, a 4xx reply) is tried again with
/// exponential backoff; a 5xx reply, or the last attempt, gives the mail up with a log
/// line. Every outcome is counted: `momentum_mail_total{outcome="sent|retried|failed"}`.
public struct MailSender: Sendable {
    let store: any MailOutbox
    let transport: (any MailTransport)?
    let settings: MailSettings
    let now: @Sendable () -> Date
    let logger: Logger
    let work: BackgroundWork
    let sentCount: CoreMetrics.Counter
    let retriedCount: CoreMetrics.Counter
    let failedCount: CoreMetrics.Counter

    init(
        store: any MailOutbox, transport: (any MailTransport)?, settings: MailSettings,
        now: @escaping @Sendable () -> Date,
        logger: Logger, work: BackgroundWork, factory: any MetricsFactory
    ) {
        self.store = store
        self.transport = transport
        self.settings = settings
        self.now = now
        self.logger = logger
        self.work = work
        sentCount = Counter(label: "momentum_mail_total", dimensions: [("outcome", "sent")], factory: factory)
        retriedCount = Counter(label: "momentum_mail_total", dimensions: [("outcome", "retried")], factory: factory)
        failedCount = Counter(label: "momentum_mail_total", dimensions: [("outcome", "failed")], factory: factory)
    }

    /// What one pass did.
    public struct PassReport: Equatable, Sendable {
        /// Mails the server accepted.
        public var sent = 0
        /// Failed attempts that will be tried again.
        public var retried = 0
        /// Mails given up.
        public var failed = 0
    }

    /// Sends every mail due, batch after batch, until nothing is left; mails asked for
    /// before the pass began are in the outbox first.
    @discardableResult
    public func runDue() async throws -> PassReport {
        await work.drain()
        var report = PassReport()
        guard let transport else { return report }
        while true {
            let claimed = try await store.claimMail(now: now(), lease: settings.lease, limit: 50)
            if claimed.isEmpty { break }
            for mail in claimed {
                let outcome = await attempt(mail, through: transport)
                try await store.finishMail(mail.id, outcome, at: now())
                switch outcome {
                case .sent:
                    report.sent += 1
                    sentCount.increment()
                case .retry:
                    report.retried += 1
                    retriedCount.increment()
                case .failed:
                    report.failed += 1
                    failedCount.increment()
                }
            }
        }
        _ = try? await store.pruneMail(finishedBefore: now().addingTimeInterval(-14 * 86_400))
        return report
    }

    /// One attempt at a mail, and what it means for the mail.
    func attempt(_ mail: OutgoingMail, through transport: any MailTransport) async -> MailOutcome {
        do {
            try await transport.send(mail)
            return .sent
        } catch {
            let failure = error as? MailSendError ?? MailSendError(permanent: false, String(describing: error))
            let metadata: Logger.Metadata = [
                "mail": .string(mail.id), "attempt": .stringConvertible(mail.attempts + 1),
                "error": .string(failure.message),
            ]
            if failure.permanent || mail.attempts + 1 >= max(1, settings.attempts) {
                logger.error("mail given up", metadata: metadata)
                return .failed(error: failure.message)
            }
            logger.warning("mail not sent; it will be tried again", metadata: metadata)
            let wait = min(3_600, max(0, settings.retrySeconds) * pow(2, Double(mail.attempts)))
            return .retry(next: now().addingTimeInterval(wait), error: failure.message)
        }
    }
}
