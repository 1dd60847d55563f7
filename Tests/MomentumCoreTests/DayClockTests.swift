import Foundation
import MomentumCore
import MomentumTestSupport
import PropertyBased
import Testing

/// `DayClock` must agree with Foundation's `Calendar` on every instant.
struct DayClockTests {
    /// Zones chosen for their edges: DST in both hemispheres, 30- and 45-minute offsets,
    /// a 30-minute DST shift (Lord Howe), zones that skipped a date (Apia, Kwajalein) or
    /// changed their standard offset (Moscow, Pyongyang, Caracas), and no DST at all.
    static let zones = [
        "UTC", "America/New_York", "America/Los_Angeles", "America/Sao_Paulo", "America/St_Johns", "America/Caracas",
        "Europe/London", "Europe/Lisbon", "Europe/Moscow", "Africa/Casablanca", "Asia/Kolkata", "Asia/Kathmandu",
        "Asia/Tehran", "Asia/Pyongyang", "Asia/Tokyo", "Australia/Adelaide", "Australia/Lord_Howe", "Australia/Eucla",
        "Pacific/Chatham", "Pacific/Apia", "Pacific/Kwajalein", "Pacific/Kiritimati", "Pacific/Pago_Pago",
        "Antarctica/Troll",
    ]

    @Test func agreesWithCalendarOnRandomInstantsFrom1970To2100() async {
        let instants = Gen.int(in: 0...4_102_444_799)
        let zones = Gen.int(in: 0...(Self.zones.count - 1))
        let hours = Gen.int(in: 0...23)
        await propertyCheck(count: 20_000, input: instants, zones, hours) { seconds, zoneIndex, hour in
            let name = Self.zones[zoneIndex]
            let table = ZoneOffsetTable.named(name)!
            let reference = CalendarDayReference(zone: TimeZone(identifier: name)!, dayStartHour: hour)
            let instant = Date(timeIntervalSince1970: Double(seconds))
            #expect(
                DayClock(dayStartHour: hour).localDay(of: instant, in: table) == reference.localDay(of: instant),
                "\(name) \(seconds) h\(hour)")
        }
    }

    @Test func agreesWithCalendarAroundEveryTransitionFrom1970To2100() {
        var checked = 0
        var mismatches: [String] = []
        for name in Self.zones {
            let zone = TimeZone(identifier: name)!
            let table = ZoneOffsetTable.named(name)!
            var cursor = Date(timeIntervalSince1970: 0)
            let end = Date(timeIntervalSince1970: 4_102_444_800)
            while let transition = zone.nextDaylightSavingTimeTransition(after: cursor), transition < end {
                let t = transition.timeIntervalSince1970.rounded(.down)
                for hour in [0, 1, 2, 3, 4, 23] {
                    let clock = DayClock(dayStartHour: hour)
                    let reference = CalendarDayReference(zone: zone, dayStartHour: hour)
                    for delta in [-3601.0, -1, 0, 1, 1799, 3599, 3600] {
                        let instant = Date(timeIntervalSince1970: t + delta)
                        checked += 1
                        if clock.localDay(of: instant, in: table) != reference.localDay(of: instant) {
                            mismatches.append("\(name) \(t + delta) h\(hour)")
                        }
                    }
                }
                cursor = transition
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(checked > 50_000)
    }

    @Test func samoaSkippedDecember30th2011() {
        let table = ZoneOffsetTable.named("Pacific/Apia")!
        let clock = DayClock()
        // 2011-12-29T23:59:59-10:00 is followed one second later by 2011-12-31T00:00:00+14:00.
        let before = Date(timeIntervalSince1970: 1_325_239_199)
        let after = Date(timeIntervalSince1970: 1_325_239_200)
        #expect(clock.localDay(of: before, in: table).description == "2011-12-29")
        #expect(clock.localDay(of: after, in: table).description == "2011-12-31")
    }

    @Test func dayStartHourKeepsNightOwlsOnThePreviousDay() {
        let table = ZoneOffsetTable.named("Europe/Paris")!
        let clock = DayClock(dayStartHour: 3)
        // 2026-03-15 01:30 in Paris is still the 14th for a day that starts at 03:00…
        #expect(clock.localDay(of: RFC3339.parse("2026-03-15T01:30:00+01:00")!, in: table).description == "2026-03-14")
        #expect(clock.localDay(of: RFC3339.parse("2026-03-15T03:00:00+01:00")!, in: table).description == "2026-03-15")
        // …and on the spring-forward night 02:00–03:00 does not exist: 03:00 CEST starts the 29th.
        #expect(clock.localDay(of: RFC3339.parse("2026-03-29T01:59:59+01:00")!, in: table).description == "2026-03-28")
        #expect(clock.localDay(of: RFC3339.parse("2026-03-29T03:00:00+02:00")!, in: table).description == "2026-03-29")
    }

    @Test func startOfDayIsTheFirstInstantOfTheDay() {
        for name in ["America/Sao_Paulo", "Pacific/Apia", "Asia/Kathmandu", "Europe/London"] {
            let table = ZoneOffsetTable.named(name)!
            for hour in [0, 4] {
                let clock = DayClock(dayStartHour: hour)
                var day = LocalDay(year: 2011, month: 10, day: 1)!
                while day < LocalDay(year: 2012, month: 4, day: 1)! {
                    let start = clock.start(of: day, in: table)
                    if clock.localDay(ofSecond: start, in: table) == day {
                        #expect(clock.localDay(ofSecond: start - 1, in: table) < day, "\(name) \(day)")
                    } else {
                        // A skipped date (Apia, 2011-12-30): its start is the next day's.
                        #expect(clock.localDay(ofSecond: start, in: table) > day)
                    }
                    day = day.advanced(by: 1)
                }
            }
        }
    }

    /// A day start strictly inside a fall-back of more than an hour is read twice; the day
    /// begins at the first reading (issue 45, item 6).
    @Test(arguments: [
        // Casey went from +11 to +08 at 2021-03-13T13:00Z: 21:00–24:00 on the 13th twice.
        ("Antarctica/Casey", 22, LocalDay(year: 2021, month: 3, day: 13)!, "2021-03-13T22:00:00+11:00"),
        // Vostok went from +07 to +05 at 2023-12-17T19:00Z: 00:00–02:00 on the 18th twice.
        ("Antarctica/Vostok", 1, LocalDay(year: 2023, month: 12, day: 18)!, "2023-12-18T01:00:00+07:00"),
    ])
    func aDayStartReadTwiceInALongFallBackIsItsFirstReading(
        zone: String, hour: Int, day: LocalDay, first: String
    ) throws {
        let table = try #require(ZoneOffsetTable.named(zone))
        let clock = DayClock(dayStartHour: hour)
        let start = Int64(try #require(RFC3339.parse(first)).timeIntervalSince1970)
        #expect(clock.start(of: day, in: table) == start)
        #expect(clock.localDay(ofSecond: start, in: table) == day)
        #expect(clock.localDay(ofSecond: start - 1, in: table) == day.advanced(by: -1))
        // The day before ends there, and so lasts 24 hours rather than 27 or 26.
        #expect(start - clock.start(of: day.advanced(by: -1), in: table) == 86_400)
    }

    /// Before 1900 and after 2100 the table defers to Foundation, and so does the start of a
    /// day: still its first instant.
    @Test func startOfDayOutsideTheTableIsStillTheFirstInstantOfTheDay() {
        let ranges = [
            LocalDay(year: 1880, month: 1, day: 1)!...LocalDay(year: 1880, month: 1, day: 10)!,
            LocalDay(year: 2101, month: 3, day: 1)!...LocalDay(year: 2101, month: 4, day: 15)!,
            LocalDay(year: 2150, month: 9, day: 20)!...LocalDay(year: 2150, month: 11, day: 10)!,
        ]
        var checked = 0
        for name in ["America/New_York", "Europe/London", "Australia/Sydney", "Australia/Lord_Howe", "Asia/Kolkata"] {
            let table = ZoneOffsetTable.named(name)!
            for hour in [0, 1, 2, 3, 23] {
                let clock = DayClock(dayStartHour: hour)
                for range in ranges {
                    for number in range.lowerBound.number...range.upperBound.number {
                        let day = LocalDay(number: number)
                        let start = clock.start(of: day, in: table)
                        checked += 1
                        #expect(clock.localDay(ofSecond: start, in: table) == day, "\(name) h\(hour) \(day)")
                        #expect(clock.localDay(ofSecond: start - 1, in: table) < day, "\(name) h\(hour) \(day)")
                    }
                }
            }
        }
        #expect(checked > 2_000)
    }

    @Test func namesTheTZDatabaseDoesNotDefineAreRefused() {
        #expect(ZoneOffsetTable.named("Mars/Olympus_Mons") == nil)
        // Not a tz name (the database spells five hours ahead `Etc/GMT-5`); `GMT+0` is one.
        #expect(ZoneOffsetTable.named("GMT+5") == nil)
        #expect(ZoneOffsetTable.named("GMT+0") != nil)
        #expect(ZoneOffsetTable.named("") == nil)
        #expect(ZoneOffsetTable.named("europe/paris") == nil)
        #expect(ZoneOffsetTable.named("Europe/Paris") != nil)
        #expect(ZoneOffsetTable.named("UTC") != nil)
    }
}
