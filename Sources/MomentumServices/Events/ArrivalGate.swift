import Foundation
import MomentumCore
import MomentumStore
import Synchronization

/// The trust boundary for the instants clients send: an event may not be dated before its
/// account existed, nor further back than the pack's offline window
/// (`RulePack/offlineDays`, at least the week of offline use the sync promises); nor may
/// a habit it creates start (`start`) before the day of the earliest such instant.
///
/// Without it, one push of backdated completions could mint a streak's rewards (100 daily
/// completions dated before sign-up earned 300 💎 and 3 ❄️), and habits created today that
/// start in 1970 made every later read of the account walk half a century of days. A
/// habit's history from before the account comes only from an import. A retry of an event already
/// stored is still answered `duplicate`, however old it has become. Trusted paths (the demo
/// account, an archive import) store through `MomentumStore` directly and are not checked.
public final class ArrivalGate: Sendable {
    /// How long before its account an event may be dated: the clock skew between a
    /// device and the server that `RulePack/futureToleranceSeconds` allows the other way.
    public static let accountSkew: TimeInterval = 300

    private let createdAt = Mutex([String: Date]())

    /// When the user's account was created; `load` reads it the first time.
    public func accountCreatedAt(of user: String, load: () async throws -> Date?) async throws -> Date? {
        if let known = createdAt.withLock({ $0[user] }) { return known }
        guard let loaded = try await load() else { return nil }
        createdAt.withLock { cache in
            if cache.count > 200_000 { cache.removeAll() }
            cache[user] = loaded
        }
        return loaded
    }

    /// The earliest instant an arriving event may carry.
    ///
    /// - Parameters:
    ///   - now: When the events arrived.
    ///   - accountCreatedAt: When the account was created.
    ///   - offlineDays: The pack's offline window.
    public static func earliest(now: Date, accountCreatedAt: Date, offlineDays: Int) -> Date {
        max(accountCreatedAt.addingTimeInterval(-accountSkew), now.addingTimeInterval(-Double(offlineDays) * 86_400))
    }

    /// The day a habit an event creates starts on, when the event gives one.
    public static func habitStart(of event: Event) -> LocalDay? {
        guard case .habitCreated(let definition) = event.payload else { return nil }
        return definition.startDay
    }

    /// The error for a habit whose `start` is before `earliestDay`, the local day of the
    /// earliest instant an arriving event may carry.
    public static func startRefusal(
        _ start: LocalDay, earliestDay: LocalDay, beforeAccount: Bool, offlineDays: Int
    ) -> MomentumError {
        let reason =
            beforeAccount
            ? "is before this account was created (\(earliestDay) is its first day)"
            : "is more than \(offlineDays) days ago (\(earliestDay) is the earliest start a device may send)"
        return MomentumError(
            .pastTimestamp,
            "start \(start) \(reason); a habit's history from before the account comes in by an import",
            field: "start")
    }

    /// The error for an event dated before `earliest`.
    public static func refusal(
        _ event: Event, earliest: Date, accountCreatedAt: Date, offlineDays: Int
    ) -> MomentumError {
        let beforeAccount = event.at < accountCreatedAt.addingTimeInterval(-accountSkew)
        let reason =
            beforeAccount
            ? "is before this account was created (\(RFC3339.format(accountCreatedAt)))"
            : "is more than \(offlineDays) days ago; a device may stay offline that long and still sync (use `day` to log an earlier day within the pack's backfill window)"
        return MomentumError(.pastTimestamp, "\(RFC3339.format(event.at)) \(reason)", field: "at")
    }
}
