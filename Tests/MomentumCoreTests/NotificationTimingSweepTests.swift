import Foundation
import MomentumCore
import Testing

/// A zone's wall clock for a few days, from Foundation's `TimeZone` alone: the model the
/// sweep checks Core's arithmetic against.
private struct WallClockModel {
    /// The periods of one offset each, in time order: the first instant and the offset.
    let periods: [(start: Int64, offset: Int64)]

    init(zone: TimeZone, from: Int64, to: Int64) {
        var periods = [
            (start: from, offset: Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(from)))))
        ]
        var cursor = Date(timeIntervalSince1970: Double(from))
        let end = Date(timeIntervalSince1970: Double(to))
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < end {
            let offset = Int64(zone.secondsFromGMT(for: next))
            if offset != periods[periods.count - 1].offset {
                periods.append((Int64(next.timeIntervalSince1970.rounded(.down)), offset))
            }
            cursor = next
        }
        self.periods = periods
    }

    /// The offset in force at an instant within the model's span.
    func offset(_ instant: Int64) -> Int64 {
        periods.last { $0.start <= instant }?.offset ?? periods[0].offset
    }

    /// What the wall clock reads at an instant, in local seconds since 1970.
    func reading(_ instant: Int64) -> Int64 { instant + offset(instant) }

    /// The first instant whose reading is `local` or later. It either reads `local` exactly
    /// (within a period the clock runs with time) or is a jump past it (a period's start),
    /// so the earliest of those candidates that qualifies is the answer.
    func firstInstant(reading local: Int64) -> Int64 {
        let candidates = periods.map(\.start) + periods.map { local - $0.offset }
        return candidates.filter { $0 >= periods[0].start && reading($0) >= local }.min() ?? .max
    }
}

/// Every offset change of every zone Foundation knows, 2020 through 2030, with every
/// day-start hour: the days around each change begin at the first instant of the day, and
/// every reminder and weekly progress of those days goes within its day (issue 45).
struct NotificationTimingSweepTests {
    /// Each zone's offset changes from 2020 to 2030, zones with the same changes (links,
    /// and zones that share their rules over the decade) once: they give the same answers.
    static func changes() -> [(zone: String, at: [Int64])] {
        var seen = Set<[Int64]>()
        var result: [(zone: String, at: [Int64])] = []
        for name in TimeZone.knownTimeZoneIdentifiers.sorted() {
            guard let zone = TimeZone(identifier: name), ZoneOffsetTable.named(name) != nil else { continue }
            var cursor = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
            let end = Date(timeIntervalSince1970: 1_924_992_000)  // 2031-01-01
            var signature = [Int64(zone.secondsFromGMT(for: cursor))]
            var changes: [Int64] = []
            while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < end {
                let after = zone.secondsFromGMT(for: next)
                if after != zone.secondsFromGMT(for: next.addingTimeInterval(-1)) {
                    let at = Int64(next.timeIntervalSince1970.rounded(.down))
                    changes.append(at)
                    signature += [at, Int64(after)]
                }
                cursor = next
            }
            if !changes.isEmpty, seen.insert(signature).inserted { result.append((name, changes)) }
        }
        return result
    }

    @Test func everyDayStartsAtItsFirstInstantAndKeepsEveryReminderAroundEveryChange() throws {
        var checkedStarts = 0
        var checkedReminders = 0
        var checkedWeekly = 0
        var failures: [String] = []
        let changes = Self.changes()
        for (name, instants) in changes {
            let zone = try #require(TimeZone(identifier: name))
            let table = try #require(ZoneOffsetTable.named(name))
            for change in instants {
                let model = WallClockModel(zone: zone, from: change - 3 * 86_400, to: change + 3 * 86_400)
                let before = model.reading(change - 1) + 1
                let after = model.reading(change)
                // The readings around the change: every quarter hour from an hour before the
                // lower of the two to an hour after the higher, and the minutes at its edges.
                var readings = Set([before - 60, before, after - 60, after].map { $0 - $0 % 60 })
                var quarter = (min(before, after) - 3600) / 900 * 900
                while quarter <= max(before, after) + 3600 {
                    readings.insert(quarter)
                    quarter += 900
                }
                for hour in 0..<24 {
                    let clock = DayClock(dayStartHour: hour)
                    // Each reading is a minute of one user day: before the day-start hour, of
                    // the day before its date.
                    var minutes: [LocalDay: [Int]] = [:]
                    for local in readings {
                        let date = Int(local.floorDivided(by: 86_400))
                        let minute = Int(local - Int64(date) * 86_400) / 60
                        let day = LocalDay(number: minute < hour * 60 ? date - 1 : date)
                        minutes[day, default: []].append(minute)
                    }
                    func start(_ day: LocalDay) -> Int64 {
                        model.firstInstant(reading: Int64(day.number) * 86_400 + Int64(hour) * 3600)
                    }
                    let lastDay = LocalDay(
                        number: Int((model.reading(change) - Int64(hour) * 3600).floorDivided(by: 86_400)))
                    for day in Set(minutes.keys).union([lastDay.advanced(by: -1), lastDay, lastDay.advanced(by: 1)]) {
                        checkedStarts += 1
                        if clock.start(of: day, in: table) != start(day) {
                            failures.append(
                                "\(name) h\(hour) start of \(day): \(clock.start(of: day, in: table)) ≠ \(start(day))")
                        }
                    }
                    for (day, dayMinutes) in minutes {
                        let dayStart = start(day)
                        let dayEnd = start(day.advanced(by: 1))
                        guard dayStart < dayEnd else { continue }  // a date the zone skipped
                        checkedReminders += dayMinutes.count
                        checkedWeekly += check(
                            name, table, model, hour: hour, day: day, minutes: dayMinutes, dayStart: dayStart,
                            dayEnd: dayEnd, failures: &failures)
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(10))")
        // 49 sets of changes, 789 changes, on Linux's tz data in 2025.
        #expect(changes.count > 40)
        #expect(checkedStarts > 50_000 && checkedReminders > 250_000 && checkedWeekly > 5_000)
    }

    /// Plans one day with a reminder at each minute and checks each is delivered within the
    /// day, at the wall-clock time where it exists (the first time it is read) and by the
    /// rule of docs/notifications.md where the clocks skip it; so too the weekly progress at each skipped
    /// whole hour. Returns the number of weekly progresses checked.
    private func check(
        _ name: String, _ table: ZoneOffsetTable, _ model: WallClockModel, hour: Int, day: LocalDay,
        minutes: [Int], dayStart: Int64, dayEnd: Int64, failures: inout [String]
    ) -> Int {
        func expected(_ minute: Int) -> Int64 {
            let local = Int64(minute < hour * 60 ? day.number + 1 : day.number) * 86_400 + Int64(minute) * 60
            let first = model.firstInstant(reading: local)
            if model.reading(first) == local { return first }
            let forward = local - model.offset(first - 1)
            return forward < dayEnd ? forward : max(local - model.offset(first), dayStart)
        }
        var times: [String: Int] = [:]
        for minute in minutes { times["m\(minute)"] = minute }
        let preferences = NotificationPreferences(
            reminderTimes: times, streakAtRisk: false, streakBroken: false, freezes: false)
        let planner = NotificationPlanner(preferences: preferences, zone: table, dayStartHour: hour)
        let habits = times.keys.sorted().map {
            NotificationPlanner.Habit(id: $0, name: $0, current: 3, best: 3, open: true, atRisk: true)
        }
        let run = planner.run(
            .init(today: day, habits: habits), after: Date(timeIntervalSince1970: Double(dayStart - 1)),
            now: Date(timeIntervalSince1970: Double(dayEnd - 1)))
        let due = Dictionary(run.due.map { ($0.key, $0.at) }, uniquingKeysWith: { first, _ in first })
        for (id, minute) in times {
            let at = due["reminder:\(day):\(id)"].map { Int64($0.timeIntervalSince1970) }
            if at == nil || at! < dayStart || at! >= dayEnd || at != expected(minute) {
                failures.append(
                    "\(name) h\(hour) \(day) reminder \(minute): \(at.map(String.init) ?? "lost") in [\(dayStart), \(dayEnd)), expected \(expected(minute))"
                )
            }
        }
        if !run.dropped.isEmpty { failures.append("\(name) h\(hour) \(day): dropped \(run.dropped.map(\.key))") }
        var weekly = 0
        for minute in minutes where minute % 60 == 0 {
            let local = Int64(minute < hour * 60 ? day.number + 1 : day.number) * 86_400 + Int64(minute) * 60
            guard model.reading(model.firstInstant(reading: local)) != local else { continue }
            weekly += 1
            let preferences = NotificationPreferences(
                reminders: false, streakAtRisk: false, streakBroken: false, weeklySummary: true,
                weeklyDay: day.weekday, weeklyHour: minute / 60, freezes: false)
            let habit = NotificationPlanner.Habit(id: "h", name: "h", current: 7, best: 7, open: false, atRisk: false)
            let run = NotificationPlanner(preferences: preferences, zone: table, dayStartHour: hour).run(
                .init(today: day, habits: [habit]), after: Date(timeIntervalSince1970: Double(dayStart - 1)),
                now: Date(timeIntervalSince1970: Double(dayEnd - 1)))
            let at = run.due.first(where: { $0.key == "weekly-progress:\(day)" }).map {
                Int64($0.at.timeIntervalSince1970)
            }
            if at != expected(minute) {
                failures.append("\(name) h\(hour) \(day) weekly \(minute / 60): \(at.map(String.init) ?? "lost")")
            }
        }
        return weekly
    }
}

extension Int64 {
    /// Division rounded toward negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        self >= 0 ? self / divisor : (self - divisor + 1) / divisor
    }
}
