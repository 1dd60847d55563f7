import Foundation
import MomentumCore
import MomentumStore
import Synchronization

/// Spots activity that looks like gaming the rules (seed 004, requirement 12), for a
/// person to review. It never changes or refuses what the user sent.
///
/// - A time-zone hop that gains a day: an event whose zone differs from the previous
///   event's and whose local date there is later than in the previous zone.
/// - Bulk backdating: `backfillLimit` or more events within 24 hours that count for an
///   earlier day: logged with a `day` before their own (completions, skips, activities,
///   contributions), or sent more than ``lateArrival`` after their instant (an offline
///   device's week, or a client inventing instants). The events are kept (seed 004 R12.5).
/// - A burst: `burstLimit` or more events within one minute.
public final class SuspicionDetector: Sendable {
    static let backfillLimit = 10
    static let burstLimit = 300
    /// How long after its instant an event may arrive before it counts as backdated.
    public static let lateArrival: TimeInterval = 86_400

    /// Whether an event counts for a day earlier than the one it arrived on.
    public static func isBackdated(_ event: Event, clock: DayClock, now: Date) -> Bool {
        if now.timeIntervalSince(event.at) > lateArrival { return true }
        let day: LocalDay?
        switch event.payload {
        case .completion(_, let logged, _, _), .skip(_, let logged, _), .contribution(_, _, let logged, _):
            day = logged
        case .activity(let activity):
            day = activity.day
        default:
            day = nil
        }
        guard let day, let table = ZoneOffsetTable.named(event.timeZone) else { return false }
        return day < clock.localDay(of: event.at, in: table)
    }

    private struct Window {
        var arrivals: [Double] = []
        var backfills: [(at: Double, event: String)] = []
    }

    private let windows = Mutex([String: Window]())
    private let zones = Mutex([String: String?]())

    /// The zone of the user's latest event, as last seen here; `load` reads it the first time.
    public func zone(of user: String, load: () async throws -> String?) async throws -> String? {
        if let known = zones.withLock({ $0[user] }) { return known }
        let zone = try await load()
        zones.withLock { zones in
            if zones.count > 200_000 { zones.removeAll() }
            zones[user] = zone
        }
        return zone
    }

    /// The flags raised by events just stored for `user`.
    ///
    /// - Parameters:
    ///   - events: The events the store applied, in the order sent.
    ///   - clock: The day clock the user's days are counted in.
    ///   - now: The current instant.
    ///   - user: The user's id.
    ///   - previousZone: The zone of the user's latest event before these.
    public func inspect(
        _ events: [Event], user: String, previousZone: String?, clock: DayClock, now: Date
    ) -> [ReviewFlag] {
        guard let last = events.last else { return [] }
        zones.withLock { $0[user] = .some(last.timeZone) }
        var flags: [ReviewFlag] = []
        var zone = previousZone
        for event in events {
            defer { zone = event.timeZone }
            guard let previous = zone, previous != event.timeZone, let old = ZoneOffsetTable.named(previous),
                let new = ZoneOffsetTable.named(event.timeZone)
            else { continue }
            let gained = clock.localDay(of: event.at, in: new).number - clock.localDay(of: event.at, in: old).number
            if gained > 0 {
                flags.append(
                    ReviewFlag(
                        user: user, id: "zone-\(event.id)", kind: .timeZoneHop,
                        detail:
                            "time zone changed from \(previous) to \(event.timeZone), moving the local date forward by \(gained) day\(gained == 1 ? "" : "s")",
                        events: [event.id], createdAt: now))
            }
        }

        let seconds = now.timeIntervalSince1970
        let backfilled = events.compactMap { event -> String? in
            Self.isBackdated(event, clock: clock, now: now) ? event.id : nil
        }
        let minute = Int(seconds / 60)
        let (arrivals, backfills) = windows.withLock { windows in
            if windows.count > 50_000 { windows = windows.filter { seconds - ($0.value.arrivals.last ?? 0) < 86_400 } }
            var window = windows[user] ?? Window()
            window.arrivals.removeAll { seconds - $0 >= 60 }
            window.arrivals += Array(repeating: seconds, count: events.count)
            window.backfills.removeAll { seconds - $0.at >= 86_400 }
            window.backfills += backfilled.map { (seconds, $0) }
            windows[user] = window
            return (window.arrivals.count, window.backfills.map(\.event))
        }
        if arrivals >= Self.burstLimit {
            flags.append(
                ReviewFlag(
                    user: user, id: "burst-\(minute)", kind: .burst,
                    detail: "\(arrivals) events within one minute", events: events.prefix(20).map(\.id), createdAt: now)
            )
        }
        if !backfilled.isEmpty, backfills.count >= Self.backfillLimit {
            flags.append(
                ReviewFlag(
                    user: user, id: "backfills-\(Int(seconds / 86_400))", kind: .backfills,
                    detail: "\(backfills.count) events for earlier days within 24 hours",
                    events: Array(backfills.suffix(20)), createdAt: now))
        }
        return flags
    }
}
