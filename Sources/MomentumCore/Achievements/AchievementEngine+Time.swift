import Foundation

extension AchievementEngine {
    // MARK: - Time

    mutating func advance(toDay day: Int, detectedAt: Date) {
        guard day > clockDay else { return }
        clockDay = day
        guard !timeRules.isEmpty, !subjects.isEmpty else { return }
        for r in timeRules where states[r].nextDueDay <= day { fireAges(r, upTo: day, detectedAt: detectedAt) }
    }

    mutating func fireAges(_ r: Int, upTo today: Int, detectedAt: Date) {
        let rule = rules[r]
        guard let unit = rule.unit, let dateName = rule.date else { return }
        for id in rule.subject.map({ [$0] }) ?? subjectOrder.prefix(1).map({ $0 }) {
            guard let subject = subjects[id], let origin = subject.dates[dateName] else { continue }
            let added = subjectAdded[id] ?? origin.number
            var n = states[r].nextAge[id] ?? 1
            let limit = rule.maximum.map { Int($0) } ?? (rule.every == nil ? Int(rule.at?.max() ?? 0) : 1200)
            while n <= limit {
                let reached = Self.add(n, unit, to: origin).number
                guard reached <= today else { break }
                defer { n += 1 }
                let wanted: Bool
                if let at = rule.at {
                    wanted = at.contains(Double(n))
                } else if let every = rule.every {
                    wanted =
                        Double(n) >= (rule.minimum ?? every) && Double(n).truncatingRemainder(dividingBy: every) == 0
                } else {
                    wanted = false
                }
                guard wanted, reached >= added || (rule.includePast ?? false) else { continue }
                if rule.kind == .combination {
                    guard let coverage = rule.coverage, coverageHolds(coverage, through: reached) else { continue }
                }
                let achievedAt = Date(
                    timeIntervalSince1970: Double(clock.start(of: LocalDay(number: reached), in: table)))
                grant(
                    r, id: "\(rule.id)#\(id)#\(n)", achievedAt: achievedAt, day: reached, detectedAt: detectedAt,
                    event: nil,
                    type: rule.kind == .combination ? "combination" : dateName == "born" ? "age" : "anniversary",
                    value: Double(n), subject: id,
                    context: ["name": subject.name, "age": Self.ageText(n, unit)])
            }
            states[r].nextAge[id] = n
        }
        // Nothing can fire before the earliest next age of any subject.
        var earliest = Int.max
        for id in rule.subject.map({ [$0] }) ?? subjectOrder.prefix(1).map({ $0 }) {
            guard let origin = subjects[id]?.dates[dateName] else { continue }
            let n = states[r].nextAge[id] ?? 1
            let limit = rule.maximum.map { Int($0) } ?? (rule.every == nil ? Int(rule.at?.max() ?? 0) : 1200)
            if n <= limit { earliest = min(earliest, Self.add(n, unit, to: origin).number) }
        }
        states[r].nextDueDay = earliest
    }

    var table: ZoneOffsetTable {
        if let zoneCache, zoneCache.identifier == zone { return zoneCache }
        return ZoneOffsetTable.named(zone) ?? ZoneOffsetTable.named("UTC")!
    }

    /// The zone table, remembered for the next event (most users stay in one zone).
    mutating func cachedTable(_ identifier: String) -> ZoneOffsetTable? {
        if let zoneCache, zoneCache.identifier == identifier { return zoneCache }
        zoneCache = ZoneOffsetTable.named(identifier)
        return zoneCache
    }

    private func coverageHolds(_ coverage: AchievementRule.Coverage, through day: Int) -> Bool {
        var seen: Set<String> = []
        for keyed in events where keyed.day <= day {
            guard case .activity(let activity) = keyed.event.payload, coverage.match.matches(activity),
                let value = coverage.field == "group" ? activity.group : activity.item
            else { continue }
            seen.insert(value)
        }
        let share: Double
        if let items = coverage.items {
            share = items.isEmpty ? 0 : Double(items.filter(seen.contains).count) / Double(items.count)
        } else {
            share = Double(seen.count) / Double(max(1, coverage.total ?? 1))
        }
        return share >= coverage.atLeast
    }

    /// The day `n` units after `origin` (months and years keep the day of the month, or the
    /// month's last day when it is shorter).
    static func add(_ n: Int, _ unit: AchievementRule.Unit, to origin: LocalDay) -> LocalDay {
        switch unit {
        case .days: return origin.advanced(by: n)
        case .weeks: return origin.advanced(by: 7 * n)
        case .months, .years:
            let months = unit == .months ? n : 12 * n
            let (y, m, d) = origin.civil
            let total = y * 12 + (m - 1) + months
            let year = total / 12
            let month = total % 12 + 1
            return LocalDay(year: year, month: month, day: min(d, LocalDay.daysIn(month: month, year: year)))!
        }
    }
}
