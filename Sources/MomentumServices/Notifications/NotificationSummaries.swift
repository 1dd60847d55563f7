import Foundation
import MomentumStore

/// What the notifications did over the last hours, on every instance: scheduled, sent,
/// retried, deferred, failed and dropped (with why), per hour, kind and channel. The
/// counts are the ones every scheduler and sender adds to the store at the end of each
/// pass (``NotificationTally``).
public struct NotificationSummaries: Sendable {
    let store: any ConsoleReads
    /// The now.
    public let now: @Sendable () -> Date

    /// The outcomes counted, in the order the console stacks them.
    public static let outcomes = ["scheduled", "sent", "retried", "deferred", "failed", "dropped"]

    /// What the notifications did over some hours.
    public struct Summary: Sendable, Hashable {
        /// The first instant of the first hour.
        public var from: Date
        /// How many hours, the current one last.
        public var hours: Int
        /// Every count in those hours, oldest first.
        public var counts: [NotificationCount]

        /// The first instant of each hour, oldest first.
        public var hourStarts: [Date] { (0..<hours).map { from.addingTimeInterval(TimeInterval($0) * 3600) } }

        /// The counts of one outcome summed by a key of a count (its channel, its kind…).
        public func totals(_ outcome: String, by key: (NotificationCount) -> String) -> [String: Int] {
            counts.filter { $0.outcome == outcome }.reduce(into: [:]) { $0[key($1), default: 0] += $1.count }
        }

        /// The counts summed per hour and outcome for the counts `include` keeps.
        public func perHour(where include: (NotificationCount) -> Bool) -> [Date: [String: Int]] {
            counts.filter(include).reduce(into: [:]) { $0[$1.hour, default: [:]][$1.outcome, default: 0] += $1.count }
        }

        /// Every outcome's total.
        public var outcomeTotals: [String: Int] {
            counts.reduce(into: [:]) { $0[$1.outcome, default: 0] += $1.count }
        }

        /// The drops summed by reason, channel and kind, the largest first.
        public var drops: [NotificationCount] {
            var sums: [String: NotificationCount] = [:]
            for count in counts where count.outcome == "dropped" {
                let key = "\(count.reason) \(count.channel) \(count.kind)"
                var sum =
                    sums[key]
                    ?? NotificationCount(
                        hour: from, kind: count.kind, channel: count.channel, outcome: "dropped",
                        reason: count.reason, count: 0)
                sum.count += count.count
                sums[key] = sum
            }
            return sums.values.sorted {
                ($0.count, $1.reason, $1.channel, $1.kind) > ($1.count, $0.reason, $0.channel, $0.kind)
            }
        }
    }

    /// What the notifications did in the last `hours` hours (the current one included).
    ///
    /// - Parameter hours: 1 to 168 (a week).
    /// - Throws: ``ServiceError`` `invalid_input` naming `hours` out of bounds.
    public func summary(hours: Int = 24) async throws -> Summary {
        guard (1...168).contains(hours) else { throw ServiceError.invalid("must be 1 to 168", field: "hours") }
        let from = NotificationCount.hour(of: now()).addingTimeInterval(-TimeInterval(hours - 1) * 3600)
        return Summary(from: from, hours: hours, counts: try await store.notificationCounts(since: from))
    }
}
