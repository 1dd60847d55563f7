import Foundation

/// Dates the user never lived through (DESIGN §2): they are *skipped*, never *missed*.
///
/// Two ways lose a date:
/// - **Travel across the date line.** Between two consecutive events (by instant) logged in
///   different zones, the dates gained by the zone change are those the new zone's calendar
///   shows beyond what the old zone's calendar reached in the same elapsed time:
///   `gain = day(t₂, z₂) − day(t₂, z₁)`. A positive gain means the user moved forward
///   (flying west across the date line, say Los Angeles → Sydney) and that many dates went
///   by unlived; they are taken as the dates right after the earlier event's day (the user
///   left soon after logging), and never include the later event's own day. Moving west
///   repeats dates instead, which needs no special handling: a day completed twice is still
///   one completed day.
/// - **A zone that crosses the date line** while the user stays put (Samoa skipped
///   2011-12-30, Kiritimati 1994-12-31, Kwajalein 1993-08-21). The user is taken to be in the
///   zone of their latest event (before the first event, the first event's zone), and the
///   dates that zone skipped meanwhile (``DayClock/daysSkipped(by:after:through:)``) are
///   skipped for them. Only dates from the earliest habit start on are kept: earlier ones
///   judge nothing.
extension UserEngine {
    /// Updates the skipped dates for a new event; returns the earliest newly skipped (or no
    /// longer skipped) day.
    mutating func noteTravel(of event: Event) -> Int? {
        let seconds = event.at.timeIntervalSince1970
        guard let last = latest, seconds >= last.seconds, !lowersSkipFloor(event) else {
            // The first event, one out of instant order, or an earlier habit start: count
            // again from the start.
            return recomputeTravelChanges()
        }
        latest = (seconds, event.timeZone)
        guard last.zone != event.timeZone else { return nil }
        let floor = skipFloor
        if !zoneSkippedDates(last.zone, after: seconds, through: nil, from: floor).isEmpty {
            // The user left a zone before it skipped a date: that date no longer counts.
            return recomputeTravelChanges()
        }
        let gained =
            (skippedDates(from: last, to: (seconds, event.timeZone))
            + zoneSkippedDates(event.timeZone, after: seconds, through: nil, from: floor))
            .filter { !travelSkipped.contains($0) }
        travelSkipped.formUnion(gained)
        return gained.min()
    }

    /// Recomputes the skipped dates; returns the earliest day that changed.
    private mutating func recomputeTravelChanges() -> Int? {
        let before = travelSkipped
        recomputeTravel()
        return before.symmetricDifference(travelSkipped).min()
    }

    /// Recomputes the skipped dates from every event received, in instant order.
    ///
    /// An event of a type the engine does not know (``Event/Payload/unknown(type:)``) is
    /// left out: it changes nothing, not even where the user is taken to have been.
    mutating func recomputeTravel() {
        travelSkipped = []
        latest = nil
        let received = log.indices.filter { !log[$0].payload.isUnknown }
        guard let firstIndex = received.first else { return }
        let first = log[firstIndex]
        let floor = skipFloor
        var inOrder = true
        var oneZone = true
        for position in received.indices.dropFirst() {
            let i = received[position]
            if oneZone, log[i].timeZone != first.timeZone { oneZone = false }
            if inOrder, log[i].at < log[received[position - 1]].at { inOrder = false }
            if !oneZone, !inOrder { break }
        }
        if oneZone {
            // No zone change, no travel: only the latest instant matters, and the dates the
            // one zone ever skipped.
            let lastIndex =
                inOrder ? received[received.count - 1] : received.max { log[$0].at < log[$1].at } ?? firstIndex
            latest = (log[lastIndex].at.timeIntervalSince1970, log[lastIndex].timeZone)
            travelSkipped.formUnion(zoneSkippedDates(first.timeZone, after: nil, through: nil, from: floor))
            return
        }
        let order = inOrder ? received : received.sorted { (log[$0].at, log[$0].id) < (log[$1].at, log[$1].id) }
        // When the user arrived in the zone of the latest event (nil: before the first event).
        var arrived: Double?
        for i in order {
            let seconds = log[i].at.timeIntervalSince1970
            if let last = latest, last.zone != log[i].timeZone {
                travelSkipped.formUnion(zoneSkippedDates(last.zone, after: arrived, through: seconds, from: floor))
                travelSkipped.formUnion(skippedDates(from: last, to: (seconds, log[i].timeZone)))
                arrived = seconds
            }
            latest = (seconds, log[i].timeZone)
        }
        if let last = latest {
            travelSkipped.formUnion(zoneSkippedDates(last.zone, after: arrived, through: nil, from: floor))
        }
    }

    private func skippedDates(
        from earlier: (seconds: Double, zone: String), to later: (seconds: Double, zone: String)
    ) -> [Int] {
        guard let first = table(for: earlier.zone), let second = table(for: later.zone) else { return [] }
        let t1 = Int64(earlier.seconds.rounded(.down))
        let t2 = Int64(later.seconds.rounded(.down))
        let day1 = clock.localDay(ofSecond: t1, in: first).number
        let day2 = clock.localDay(ofSecond: t2, in: second).number
        let gain = day2 - clock.localDay(ofSecond: t2, in: first).number
        guard gain > 0 else { return [] }
        return (1...gain).map { day1 + $0 }.filter { $0 < day2 }
    }

    /// The dates a zone skipped between two instants (after `after`, through `through`; nil
    /// for no bound), from day `floor` on.
    private func zoneSkippedDates(_ zone: String, after: Double?, through: Double?, from floor: Int) -> [Int] {
        guard let table = table(for: zone), !table.dateLineJumps.isEmpty else { return [] }
        return clock.daysSkipped(
            by: table, after: after.map { Int64($0.rounded(.down)) } ?? .min,
            through: through.map { Int64($0.rounded(.down)) } ?? .max
        ).map(\.number).filter { $0 >= floor }
    }

    /// The earliest habit start: dates a zone skipped before it judge nothing.
    private var skipFloor: Int {
        habitMeta.values.lazy.map(\.startDay).min() ?? .max
    }

    /// Whether an event creates the habit that now starts earliest (the dates a zone
    /// skipped before the previous earliest start may now count).
    private func lowersSkipFloor(_ event: Event) -> Bool {
        guard case .habitCreated(let definition) = event.payload, let meta = habitMeta[definition.id],
            meta.createdKey.id == event.id
        else { return false }
        return !habitMeta.contains { $0.key != definition.id && $0.value.startDay <= meta.startDay }
    }
}
