import CoreMetrics
import Foundation
import MomentumCore
import MomentumStore

/// The notification counters: `momentum_notifications_total{kind, channel, outcome}` (sent
/// to a channel, or dropped because it was found after it stopped making sense) and
/// `momentum_notification_runs_total`; each count also goes to the ``tally`` that every
/// instance adds to the store (what the console's charts show).
public final class NotificationMetrics: Sendable {
    private let counters: [String: CoreMetrics.Counter]
    let runs: CoreMetrics.Counter
    /// The counts not yet written to the store.
    public let tally: NotificationTally

    init(factory: any MetricsFactory, now: @escaping @Sendable () -> Date) {
        tally = NotificationTally(now: now)
        var counters: [String: CoreMetrics.Counter] = [:]
        for kind in NotificationKind.allCases {
            var pairs = [("inbox", "sent"), ("inbox", "dropped")]
            for channel in NotificationChannel.allCases where channel != .inApp {
                for outcome in ["scheduled", "sent", "retried", "failed", "deferred", "dropped"] {
                    pairs.append((channel.rawValue, outcome))
                }
            }
            for (channel, outcome) in pairs {
                counters["\(kind.rawValue) \(channel) \(outcome)"] = Counter(
                    label: "momentum_notifications_total",
                    dimensions: [("kind", kind.rawValue), ("channel", channel), ("outcome", outcome)], factory: factory)
            }
        }
        self.counters = counters
        runs = Counter(label: "momentum_notification_runs_total", factory: factory)
    }

    /// Counts notifications of a kind that reached a channel or were dropped (and why:
    /// a ``NotificationDropReason``'s code).
    public func count(
        _ kind: NotificationKind, channel: String = "inbox", outcome: String, reason: String = "", by amount: Int = 1
    ) {
        guard amount > 0 else { return }
        counters["\(kind.rawValue) \(channel) \(outcome)"]?.increment(by: Int64(amount))
        tally.add(kind: kind.rawValue, channel: channel, outcome: outcome, reason: reason, amount: amount)
    }

    /// Counts the deliveries a notification was queued for, by channel (`scheduled`).
    public func scheduled(_ notification: InboxNotification) {
        for channel in notification.queued {
            count(notification.notification.kind, channel: channel, outcome: "scheduled")
        }
    }

    /// Counts a delivery to a device or webhook: sent, retried, failed, deferred (quiet
    /// hours) or dropped.
    public func count(_ kind: NotificationKind, channel: NotificationChannel, outcome: String, reason: String = "") {
        count(kind, channel: channel.rawValue, outcome: outcome, reason: reason)
    }
}
