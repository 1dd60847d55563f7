import Foundation

/// Travel across the date line (DESIGN §2): a civil date the user never lived through is
/// *skipped*, never *missed*.
///
/// Between two consecutive events (by instant) logged in different zones, the dates gained
/// by the zone change are those the new zone's calendar shows beyond what the old zone's
/// calendar reached in the same elapsed time: `gain = day(t₂, z₂) − day(t₂, z₁)`. A positive
/// gain means the user moved forward (flying west across the date line, say Los Angeles → Sydney) and that many dates went by unlived; they are taken as the
/// dates right after the earlier event's day (the user left soon after logging), and never
/// include the later event's own day. Moving west repeats dates instead, which needs no
/// special handling: a day completed twice is still one completed day.
extension UserEngine {
    /// Updates the skipped dates for a new event; returns the earliest newly skipped day.
    mutating func noteTravel(of event: Event) -> Int? {
        let seconds = event.at.timeIntervalSince1970
        guard let last = latest else {
            latest = (seconds, event.timeZone)
            return nil
        }
        if seconds >= last.seconds {
            latest = (seconds, event.timeZone)
            guard last.zone != event.timeZone else { return nil }
            let gained = skippedDates(from: last, to: (seconds, event.timeZone)).filter { !travelSkipped.contains($0) }
            travelSkipped.formUnion(gained)
            return gained.min()
        }
        let before = travelSkipped
        recomputeTravel()
        return before.symmetricDifference(travelSkipped).min()
    }

    /// Recomputes the skipped dates from every event received, in instant order.
    mutating func recomputeTravel() {
        travelSkipped = []
        latest = nil
        guard let first = log.first else { return }
        var inOrder = true
        var oneZone = true
        for i in log.indices.dropFirst() {
            if oneZone, log[i].timeZone != first.timeZone { oneZone = false }
            if inOrder, log[i].at < log[i - 1].at { inOrder = false }
            if !oneZone, !inOrder { break }
        }
        if oneZone {
            // No zone change, no travel: only the latest instant matters.
            let last = inOrder ? log[log.count - 1] : log.max { $0.at < $1.at }!
            latest = (last.at.timeIntervalSince1970, last.timeZone)
            return
        }
        let order =
            inOrder ? Array(log.indices) : log.indices.sorted { (log[$0].at, log[$0].id) < (log[$1].at, log[$1].id) }
        for i in order {
            let seconds = log[i].at.timeIntervalSince1970
            if let last = latest, last.zone != log[i].timeZone {
                travelSkipped.formUnion(skippedDates(from: last, to: (seconds, log[i].timeZone)))
            }
            latest = (seconds, log[i].timeZone)
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
}
