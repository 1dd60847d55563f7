import Foundation
import MomentumStore

extension Deliveries {
    /// Sends the event messages due, batch after batch, as ``runDue()`` sends notifications:
    /// the same retries, backoff and failure limit. A message has no expiry and no user
    /// preference: it goes to the app's backend, not to a person.
    func runDueWebhookMessages(into report: inout PassReport) async throws {
        guard let transport = transports[.webhook] as? any WebhookMessageTransport else { return }
        while true {
            let now = now()
            let claimed = try await store.claimWebhookMessages(
                now: now, lease: settings.lease, limit: settings.batch)
            if claimed.isEmpty { break }
            var reports: [WebhookMessageReport] = []
            var sending: [PendingWebhookMessage] = []
            for message in claimed {
                if message.webhook == nil {
                    reports.append(WebhookMessageReport(message, .dropped("the webhook was removed")))
                } else if message.webhook?.disabledAt != nil {
                    reports.append(WebhookMessageReport(message, .dropped("the webhook is disabled")))
                } else {
                    sending.append(message)
                }
            }
            reports += await withTaskGroup(of: WebhookMessageReport.self) { group in
                var done: [WebhookMessageReport] = []
                var pending = sending[...]
                func start() {
                    guard let message = pending.popFirst() else { return }
                    group.addTask {
                        let started = ContinuousClock.now
                        let result = await transport.send(message, now: now)
                        return WebhookMessageReport(
                            message, outcome(of: result, attempts: message.attempts, now: now),
                            latencyMilliseconds: Self.milliseconds(since: started))
                    }
                }
                for _ in 0..<min(settings.concurrency, sending.count) { start() }
                while let finished = await group.next() {
                    done.append(finished)
                    start()
                }
                return done
            }
            try await store.finishWebhookMessages(
                reports, at: now, webhookFailureLimit: settings.webhookFailureLimit)
            for finished in reports {
                switch finished.outcome {
                case .sent: report.sent += 1
                case .retry: report.retried += 1
                case .failed: report.failed += 1
                case .deferred: report.deferred += 1
                case .dropped: report.dropped += 1
                }
            }
            if claimed.count < settings.batch { break }
        }
    }

    /// The queue outcome of a transport's answer to an event message: a failure is tried
    /// again after a wait that doubles, unless it was the last attempt.
    func outcome(of result: TransportResult, attempts: Int, now: Date) -> DeliveryOutcome {
        switch result {
        case .delivered:
            return .sent
        case .gone(let reason), .rejected(let reason):
            return .failed(reason)
        case .retry(let reason, let asked):
            let attempt = attempts + 1
            guard attempt < settings.attempts else { return .failed("\(reason) (after \(attempt) attempts)") }
            let backoff = min(settings.retryCap, settings.retryBase * pow(2, Double(min(attempt - 1, 30))))
            return .retry(at: now.addingTimeInterval(max(backoff, asked ?? 0)), error: reason)
        }
    }
}
