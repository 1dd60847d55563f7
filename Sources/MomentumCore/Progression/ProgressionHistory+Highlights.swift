import Foundation

extension ProgressionHistory {
    /// The latest advances across methods, newest first, for the dashboard (AC7).
    ///
    /// Only moves to a later stage are highlights; starts and regressions are not. The
    /// window is counted in the user's local days, today included: with `days` 7 and today
    /// a Sunday, advances from Monday on are shown. Advances after `now` are ignored.
    /// Advances at the same instant are ordered latest-recorded first.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - days: The window's length in local days, today included; 0 or less shows nothing.
    ///   - limit: The most highlights to return.
    ///   - zone: The user's current time zone, which decides every local day.
    ///   - clock: The user's day clock (day-start hour).
    ///   - translation: The language of the highlights' sentences; English by default.
    /// - Returns: At most `limit` highlights, newest first.
    public func recentHighlights(
        at now: Date, withinDays days: Int = 7, limit: Int = 3, zone: ZoneOffsetTable, clock: DayClock = DayClock(),
        translation: Translation = .english
    ) -> [ProgressionHighlight] {
        guard days > 0, limit > 0 else { return [] }
        let today = clock.localDay(of: now, in: zone)
        let firstDay = today.advanced(by: -(days - 1))
        var candidates: [(index: Int, item: ProgressionTimelineItem, day: LocalDay)] = []
        for (index, item) in allItems.enumerated() where item.kind == .advance && item.date <= now {
            let day = clock.localDay(of: item.date, in: zone)
            if day >= firstDay { candidates.append((index, item, day)) }
        }
        candidates.sort { ($0.item.date, $0.index) > ($1.item.date, $1.index) }
        return candidates.prefix(limit).map {
            ProgressionHighlight(
                item: $0.item, day: $0.day, daysAgo: $0.day.distance(to: today), translation: translation)
        }
    }
}
