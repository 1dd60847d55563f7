import Foundation
import Logging
import MomentumCore
import MomentumStore

/// Sends the notifications in users' inboxes to their devices and to webhooks: the sender
/// of the durable delivery queue.
///
/// Every notification stored in an inbox was queued in the same transaction for each of the
/// user's devices and every active webhook. A pass claims what is due (on PostgreSQL,
/// instances share the queue with `FOR UPDATE SKIP LOCKED`), reads the user's preferences
/// as they are now (a change applies to what is already queued), and for each delivery
/// decides: drop (the user turned the kind or channel off, the device is gone, the
/// notification expired, the daily cap is reached), wait (quiet hours), or send. A failed
/// send is tried again with exponential backoff; the last failure is final. A device its
/// push service says is gone is removed; a webhook that fails too often in a row is
/// disabled, visibly, until the admin enables it again.
public struct Deliveries: Sendable {
    let store: any DeliveryQueue & EventStore & WebhookEventQueue & ConsoleReads
    /// The now.
    public let now: @Sendable () -> Date
    let metrics: NotificationMetrics
    let logger: Logger
    let settings: Settings
    let transports: [NotificationChannel: any DeliveryTransport]

    /// The sender's settings (from ``ServerConfiguration``).
    public struct Settings: Sendable {
        /// How long a claimed delivery may take before another sender may take it.
        public var lease: TimeInterval = 60
        /// How many deliveries one claim takes.
        public var batch: Int = 500
        /// Attempts before a failure is final.
        public var attempts: Int = 8
        /// The wait after the first failure; it doubles after each, up to ``retryCap``.
        public var retryBase: TimeInterval = 30
        /// The longest wait between attempts.
        public var retryCap: TimeInterval = 3600
        /// Failures in a row that disable a webhook.
        public var webhookFailureLimit: Int = 20
        /// How long ended deliveries are kept (what happened, for the operator).
        public var keepEnded: TimeInterval = 14 * 86_400
        /// Sends made at once.
        public var concurrency: Int = 32
    }

    /// What one pass did.
    public struct PassReport: Equatable, Sendable {
        /// Deliveries a device's service or a webhook accepted.
        public var sent = 0
        /// Failed attempts that will be tried again.
        public var retried = 0
        /// Deliveries given up after failures.
        public var failed = 0
        /// Deliveries held by quiet hours.
        public var deferred = 0
        /// Deliveries not sent: preferences, the daily cap, a device gone, an expiry.
        public var dropped = 0
    }

    /// How long the counts of what was sent and dropped are kept (the console shows up to
    /// a week).
    public static let keepCounts: TimeInterval = 8 * 86_400

    /// Sends everything due, batch after batch, until nothing is left.
    @discardableResult
    public func runDue() async throws -> PassReport {
        var report = PassReport()
        while true {
            let now = now()
            let claimed = try await store.claimDeliveries(now: now, lease: settings.lease, limit: settings.batch)
            if claimed.isEmpty { break }
            var reports: [DeliveryReport] = []
            var sending: [PendingDelivery] = []
            for (user, deliveries) in Dictionary(grouping: claimed, by: \.user) {
                do {
                    let decided = try await decide(deliveries, of: user, now: now)
                    reports += decided.reports
                    sending += decided.sending
                } catch {
                    // Their leases run out and they are tried again then.
                    logger.error(
                        "delivery decisions failed",
                        metadata: ["user": .string(user), "error": .string(String(describing: error))])
                }
            }
            // Every user's sends at once, a bounded number in flight.
            reports += await send(sending, now: now)
            try await store.finishDeliveries(reports, at: now, webhookFailureLimit: settings.webhookFailureLimit)
            for finished in reports { count(finished, into: &report) }
            for gone in reports where gone.delivery.pushTarget != nil {
                if case .dropped(let reason) = gone.outcome, reason.hasPrefix("gone: ") {
                    try await store.removePushTarget(gone.delivery.targetID, of: gone.delivery.user)
                    logger.info(
                        "push target removed: its service says it is gone",
                        metadata: [
                            "user": .string(gone.delivery.user), "channel": .string(gone.delivery.channel.rawValue),
                        ])
                }
            }
            if claimed.count < settings.batch { break }
        }
        try await runDueWebhookMessages(into: &report)
        try await store.pruneDeliveries(finishedBefore: now().addingTimeInterval(-settings.keepEnded))
        try await store.pruneWebhookMessages(finishedBefore: now().addingTimeInterval(-settings.keepEnded))
        try await metrics.tally.flush(to: store)
        try await store.pruneNotificationCounts(before: now().addingTimeInterval(-Self.keepCounts))
        return report
    }

    /// What to do with one user's claimed deliveries: the outcomes decided without sending,
    /// and those to send now.
    private func decide(
        _ deliveries: [PendingDelivery], of user: String, now: Date
    ) async throws -> (reports: [DeliveryReport], sending: [PendingDelivery]) {
        let (preferences, zone, dayStart) = try await store.evaluate(user) { engine, profile in
            let zoneName = engine.streaks.latestZone ?? profile.timeZone
            return (
                profile.notifications, ZoneOffsetTable.named(zoneName) ?? ZoneOffsetTable.named("UTC")!,
                profile.dayStartHour
            )
        }
        var reports: [DeliveryReport] = []
        var sending: [PendingDelivery] = []
        let quietEnd = preferences.quietHours?.end(after: now, in: zone)
        var sentToday: Set<String>?
        if preferences.dailyCap != nil {
            let clock = DayClock(dayStartHour: dayStart)
            let today = clock.localDay(of: now, in: zone)
            let start = Date(timeIntervalSince1970: TimeInterval(clock.start(of: today, in: zone)))
            sentToday = try await store.sentNotificationKeys(of: user, since: start)
        }
        // Oldest first, so that under the cap what was meant first goes first.
        for delivery in deliveries.sorted(by: {
            ($0.notification.at, $0.notification.key) < ($1.notification.at, $1.notification.key)
        }) {
            let n = delivery.notification
            if let reason = unsendable(delivery, preferences: preferences) {
                reports.append(DeliveryReport(delivery, .dropped(reason)))
            } else if n.expires <= now {
                reports.append(DeliveryReport(delivery, .dropped("expired before it could be sent")))
            } else if let quietEnd {
                reports.append(
                    DeliveryReport(
                        delivery,
                        quietEnd < n.expires ? .deferred(until: quietEnd) : .dropped("expired during quiet hours")))
            } else if let cap = preferences.dailyCap, let sent = sentToday, !sent.contains(n.key), sent.count >= cap {
                reports.append(DeliveryReport(delivery, .dropped("the daily cap of \(cap) was reached")))
            } else {
                sentToday?.insert(n.key)
                sending.append(delivery)
            }
        }
        return (reports, sending)
    }

    /// Why a delivery will not be sent, whatever the time; `nil` when it may be.
    private func unsendable(_ delivery: PendingDelivery, preferences: NotificationPreferences) -> String? {
        let kind = delivery.notification.kind
        switch delivery.channel {
        case .webhook:
            guard let webhook = delivery.webhook else { return "the webhook was removed" }
            if webhook.disabledAt != nil { return "the webhook is disabled" }
            if let kinds = webhook.kinds, !kinds.contains(kind) { return "the webhook does not take \(kind.rawValue)" }
        case .webPush, .apns, .fcm:
            if delivery.pushTarget == nil { return "the device was removed" }
        case .inApp:
            return "the inbox is not a delivery channel"
        }
        if transports[delivery.channel] == nil { return "this server does not send \(delivery.channel.rawValue)" }
        if !preferences.wants(kind, on: delivery.channel) { return "turned off in the user's preferences" }
        return nil
    }

    /// Sends deliveries, a bounded number at once, and turns each answer into an outcome.
    private func send(_ deliveries: [PendingDelivery], now: Date) async -> [DeliveryReport] {
        await withTaskGroup(of: DeliveryReport.self) { group in
            var reports: [DeliveryReport] = []
            var pending = deliveries[...]
            func start() {
                guard let delivery = pending.popFirst(), let transport = transports[delivery.channel] else { return }
                group.addTask {
                    let started = ContinuousClock.now
                    let result = await transport.send(delivery, now: now)
                    return DeliveryReport(
                        delivery, outcome(of: result, delivery, now: now),
                        latencyMilliseconds: Self.milliseconds(since: started))
                }
            }
            for _ in 0..<min(settings.concurrency, deliveries.count) { start() }
            while let report = await group.next() {
                reports.append(report)
                start()
            }
            return reports
        }
    }

    /// The queue outcome of a transport's answer: a failure is tried again after a wait
    /// that doubles, unless it was the last attempt or the notification will have expired.
    public func outcome(of result: TransportResult, _ delivery: PendingDelivery, now: Date) -> DeliveryOutcome {
        switch result {
        case .delivered:
            return .sent
        case .gone(let reason):
            return .dropped("gone: \(reason)")
        case .rejected(let reason):
            return .failed(reason)
        case .retry(let reason, let asked):
            let attempt = delivery.attempts + 1
            guard attempt < settings.attempts else { return .failed("\(reason) (after \(attempt) attempts)") }
            let backoff = min(settings.retryCap, settings.retryBase * pow(2, Double(min(attempt - 1, 30))))
            let next = now.addingTimeInterval(max(backoff, asked ?? 0))
            guard next < delivery.notification.expires else { return .failed("\(reason) (expired before a retry)") }
            return .retry(at: next, error: reason)
        }
    }

    private func count(_ finished: DeliveryReport, into report: inout PassReport) {
        let kind = finished.delivery.notification.kind
        let channel = finished.delivery.channel
        switch finished.outcome {
        case .sent:
            report.sent += 1
            metrics.count(kind, channel: channel, outcome: "sent")
        case .retry:
            report.retried += 1
            metrics.count(kind, channel: channel, outcome: "retried")
        case .failed:
            report.failed += 1
            metrics.count(kind, channel: channel, outcome: "failed")
        case .deferred:
            report.deferred += 1
            metrics.count(kind, channel: channel, outcome: "deferred")
        case .dropped(let reason):
            report.dropped += 1
            metrics.count(
                kind, channel: channel, outcome: "dropped", reason: NotificationDropReason(recorded: reason).rawValue)
        }
    }

    /// The milliseconds since an instant of the monotonic clock.
    static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = start.duration(to: .now).components
        return max(0, Int(elapsed.seconds) * 1000 + Int(elapsed.attoseconds / 1_000_000_000_000_000))
    }
}
