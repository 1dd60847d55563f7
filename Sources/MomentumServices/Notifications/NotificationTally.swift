import Foundation
import MomentumStore
import Synchronization

/// The counts of what this instance's scheduler and senders did since they were last
/// written to the store: kept in memory as they happen (a count costs no write) and added
/// to the shared `notification_counts` at the end of each scheduler and sender pass, so
/// every instance's work shows in every instance's console.
public final class NotificationTally: Sendable {
    private struct Key: Hashable {
        var hour: Date
        var kind: String
        var channel: String
        var outcome: String
        var reason: String
    }

    private let counts = Mutex<[Key: Int]>([:])
    private let now: @Sendable () -> Date

    /// Creates an empty tally on a clock.
    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// Counts `amount` notifications of a kind that had an outcome on a channel now.
    public func add(kind: String, channel: String, outcome: String, reason: String = "", amount: Int = 1) {
        guard amount > 0 else { return }
        let key = Key(
            hour: NotificationCount.hour(of: now()), kind: kind, channel: channel, outcome: outcome, reason: reason)
        counts.withLock { $0[key, default: 0] += amount }
    }

    /// Adds what was counted to the store and forgets it; on a failure the counts are kept
    /// for the next pass.
    public func flush(to store: any ConsoleReads) async throws {
        let taken = counts.withLock { counts in
            defer { counts = [:] }
            return counts
        }
        guard !taken.isEmpty else { return }
        let rows = taken.map { key, count in
            NotificationCount(
                hour: key.hour, kind: key.kind, channel: key.channel, outcome: key.outcome, reason: key.reason,
                count: count)
        }
        do {
            try await store.addNotificationCounts(rows)
        } catch {
            counts.withLock { counts in
                for (key, count) in taken { counts[key, default: 0] += count }
            }
            throw error
        }
    }
}
