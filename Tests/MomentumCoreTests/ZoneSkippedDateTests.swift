import Foundation
import MomentumCore
import Testing

/// A zone that jumps over a date while the user stays put (Samoa, Kiritimati, Kwajalein):
/// the date was never lived, so it is skipped, never missed, graced or frozen.
struct ZoneSkippedDateTests {
    /// The zones that crossed the date line eastward, with the date each skipped.
    static let jumps: [(zone: String, skipped: LocalDay)] = [
        ("Pacific/Apia", LocalDay(year: 2011, month: 12, day: 30)!),
        ("Pacific/Kiritimati", LocalDay(year: 1994, month: 12, day: 31)!),
        ("Pacific/Kwajalein", LocalDay(year: 1993, month: 8, day: 21)!),
    ]

    /// A user in `zone` with a strict and a forgiving daily habit from ten days before the
    /// skipped date, completing both at `hour` on every civil date the zone has, through
    /// eleven days after it.
    private static func log(zone: String, skipped: LocalDay, hour: Double = 9) -> (Log, LocalDay) {
        var log = Log(zone: zone)
        let first = skipped.advanced(by: -10)
        let last = skipped.advanced(by: 11)
        log.habit("strict", policy: .strict, on: first)
        log.habit("forgiving", policy: .forgiving, on: first)
        var date = first
        while date <= last {
            if date != skipped {
                log.complete("strict", on: date, hour: hour)
                log.complete("forgiving", on: date, hour: hour)
            }
            date = date.advanced(by: 1)
        }
        return (log, last)
    }

    private static func expectSkippedNotMissed(
        _ state: UserState, skipped: LocalDay, completedDays: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(state.skippedDays == [skipped], sourceLocation: sourceLocation)
        for id in ["strict", "forgiving"] {
            let habit = state[habit: id]
            #expect(habit[skipped].state == .skipped, "\(id)", sourceLocation: sourceLocation)
            #expect(habit.current == completedDays, "\(id)", sourceLocation: sourceLocation)
            let states = Set(habit.calendar.map(\.state))
            #expect(
                states.isDisjoint(with: [.missed, .grace, .frozen]), "\(id): \(states)", sourceLocation: sourceLocation)
        }
        #expect(!state.ledger.contains { $0.source == .freezeUsed }, sourceLocation: sourceLocation)
    }

    @Test(arguments: jumps.map(\.zone))
    func aDateTheZoneSkippedIsSkippedAndStreaksKeepGrowing(zone: String) throws {
        let skipped = Self.jumps.first { $0.zone == zone }!.skipped
        let (log, last) = Self.log(zone: zone, skipped: skipped)
        // Evaluated the next evening, and at every day of the run (the skipped date is judged
        // when the day after it closes, whether the log is loaded at once or day by day).
        let state = try log.state(on: last.advanced(by: 1), hour: 20)
        Self.expectSkippedNotMissed(state, skipped: skipped, completedDays: 21)
        #expect(state[habit: "strict"][skipped.advanced(by: 1)].streak == 11)
    }

    @Test(arguments: jumps.map(\.zone))
    func appendingEventByEventGivesTheSameSkippedDate(zone: String) throws {
        let skipped = Self.jumps.first { $0.zone == zone }!.skipped
        let (log, last) = Self.log(zone: zone, skipped: skipped)
        var engine = UserEngine()
        for event in log.events {
            _ = try engine.append(event)
            // Close the days as they pass, as a server does when it reads the state.
            _ = engine.state(at: event.at)
        }
        let state = engine.state(at: log.instant(last.advanced(by: 1), hour: 20))
        Self.expectSkippedNotMissed(state, skipped: skipped, completedDays: 21)
    }

    @Test(arguments: [1, 3, 8, 12, 20])
    func withALaterDayStartTheDayThatLostMostOfItsHoursIsSkipped(dayStartHour: Int) throws {
        // Samoa's wall clock went from 2011-12-29 23:59:59 to 2011-12-31 00:00:00. With a
        // day that starts at 03:00, the user's 29th runs 21 hours (03:00–24:00) and their
        // 30th only three (00:00–03:00 on the 31st): the 30th is the date never lived. With
        // a day that starts at 20:00, the user's 29th had only four hours (20:00–24:00).
        let civilSkipped = LocalDay(year: 2011, month: 12, day: 30)!
        let skipped = dayStartHour <= 12 ? civilSkipped : civilSkipped.advanced(by: -1)
        var log = Log(zone: "Pacific/Apia")
        let first = civilSkipped.advanced(by: -10)
        let last = civilSkipped.advanced(by: 11)
        // The user acts at noon every civil date: with a day start after noon, noon belongs
        // to the user's previous day.
        for id in ["strict", "forgiving"] {
            log.add(
                .habitCreated(HabitDefinition(id: id, name: id, schedule: .daily, policy: StreakPolicy.presets[id])),
                on: first, hour: 12)
        }
        var date = first
        while date <= last {
            if date != civilSkipped {
                log.complete("strict", on: date, hour: 12)
                log.complete("forgiving", on: date, hour: 12)
            }
            date = date.advanced(by: 1)
        }
        let state = try log.state(on: last.advanced(by: 1), hour: 12, dayStartHour: dayStartHour)
        Self.expectSkippedNotMissed(state, skipped: skipped, completedDays: 21)
    }

    @Test func aCompletionInTheShortRemainderOfTheSkippedDateCounts() throws {
        // With a 03:00 day start, 01:00 on Samoa's 31st belongs to the user's 30th: logging
        // then completes that day instead of leaving it skipped.
        let skipped = LocalDay(year: 2011, month: 12, day: 30)!
        var log = Log(zone: "Pacific/Apia")
        log.habit("strict", policy: .strict, on: skipped.advanced(by: -2))
        log.complete("strict", on: skipped.advanced(by: -2), hour: 12)
        log.complete("strict", on: skipped.advanced(by: -1), hour: 12)
        log.complete("strict", on: skipped.advanced(by: 1), hour: 1)
        log.complete("strict", on: skipped.advanced(by: 1), hour: 12)
        let state = try log.state(on: skipped.advanced(by: 2), hour: 20, dayStartHour: 3)
        let strict = state[habit: "strict"]
        #expect(
            strict.states(from: skipped.advanced(by: -2), through: skipped.advanced(by: 1)) == [
                .completed, .completed, .completed, .completed,
            ])
        #expect(strict.current == 4)
    }

    @Test func aUserWhoLeftBeforeTheJumpDoesNotSkipTheDate() throws {
        // Ten days in Samoa, then home to Los Angeles before Samoa crossed the date line: the
        // 30th happened in Los Angeles, and a day without a check-in there is missed.
        let skipped = LocalDay(year: 2011, month: 12, day: 30)!
        var log = Log(zone: "America/Los_Angeles")
        log.habit("strict", policy: .strict, on: skipped.advanced(by: -10))
        var date = skipped.advanced(by: -10)
        while date <= skipped.advanced(by: -4) {
            log.add(.completion(habit: "strict", day: nil, value: 1, note: nil), on: date, zone: "Pacific/Apia")
            date = date.advanced(by: 1)
        }
        log.complete("strict", on: skipped.advanced(by: -3))
        log.complete("strict", on: skipped.advanced(by: 2))
        let state = try log.state(on: skipped.advanced(by: 3))
        #expect(state.skippedDays.isEmpty)
        #expect(state[habit: "strict"][skipped].state == .missed)
    }

    @Test func datesAZoneSkippedBeforeTheFirstHabitAreNotListed() throws {
        // Someone in Samoa today: 2011-12-30 judges none of their habits.
        var log = Log(zone: "Pacific/Apia")
        log.habit("read", on: LocalDay(year: 2026, month: 1, day: 1)!)
        log.complete("read", on: LocalDay(year: 2026, month: 1, day: 1)!)
        let state = try log.state(on: LocalDay(year: 2026, month: 1, day: 2)!)
        #expect(state.skippedDays.isEmpty)
    }

    @Test func theSkippedDayIsTheOneThatLostMostOfItsHours() {
        let apia = ZoneOffsetTable.named("Pacific/Apia")!
        func skipped(_ hour: Int) -> [String] { DayClock(dayStartHour: hour).daysSkipped(by: apia).map(\.description) }
        #expect(skipped(0) == ["2011-12-30"])
        #expect(skipped(3) == ["2011-12-30"])
        // From 12:00 each of the user's 29th and 30th lost half: the later is skipped.
        #expect(skipped(12) == ["2011-12-30"])
        // From 13:00 the user's 29th lost 13 hours (00:00–13:00 on the 30th), the 30th 11.
        #expect(skipped(13) == ["2011-12-29"])
        #expect(skipped(23) == ["2011-12-29"])
        for (zone, day) in Self.jumps {
            #expect(DayClock().daysSkipped(by: ZoneOffsetTable.named(zone)!) == [day], "\(zone)")
        }
    }

    @Test func withAMidnightDayStartTheSkippedDaysAreExactlyThoseNoInstantBelongsTo() {
        // Every zone of the tz database: the days listed are the ones no second maps to
        // across a jump (Antarctica/McMurdo's 12-hour jump of 1956 skipped none).
        for name in ZoneOffsetTable.tzDatabaseNames {
            let table = ZoneOffsetTable.named(name)!
            let clock = DayClock()
            let skipped = Set(clock.daysSkipped(by: table))
            var unmapped: Set<LocalDay> = []
            for jump in table.dateLineJumps {
                let before = clock.localDay(ofSecond: jump.at - 1, in: table)
                let after = clock.localDay(ofSecond: jump.at, in: table)
                var day = before.advanced(by: 1)
                while day < after {
                    unmapped.insert(day)
                    day = day.advanced(by: 1)
                }
                #expect(!skipped.contains(before) && !skipped.contains(after), "\(name)")
            }
            #expect(skipped == unmapped, "\(name)")
        }
    }

    @Test func daylightSavingGapsNeverSkipADay() {
        for name in ["Europe/Paris", "America/Sao_Paulo", "Australia/Lord_Howe", "America/New_York", "Asia/Tehran"] {
            let table = ZoneOffsetTable.named(name)!
            #expect(table.dateLineJumps.isEmpty, "\(name)")
            for hour in 0...23 {
                #expect(DayClock(dayStartHour: hour).daysSkipped(by: table).isEmpty, "\(name) \(hour)")
            }
        }
    }
}
