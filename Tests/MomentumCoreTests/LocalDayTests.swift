import Foundation
import MomentumCore
import PropertyBased
import Testing

struct LocalDayTests {
    @Test func epochIsDayZeroAndAThursday() {
        let epoch = LocalDay(year: 1970, month: 1, day: 1)!
        #expect(epoch.number == 0)
        #expect(epoch.weekday == .thursday)
        #expect(LocalDay(number: -1).description == "1969-12-31")
    }

    @Test func civilDatesRoundTripFrom1900To2200() {
        var day = LocalDay(year: 1900, month: 1, day: 1)!
        let end = LocalDay(year: 2200, month: 12, day: 31)!
        var expectedWeekday = day.weekday.rawValue
        while day <= end {
            let (y, m, d) = day.civil
            #expect(LocalDay(year: y, month: m, day: d) == day)
            #expect(day.weekday.rawValue == expectedWeekday)
            expectedWeekday = expectedWeekday % 7 + 1
            day = day.advanced(by: 1)
        }
    }

    @Test func impossibleDatesAreRefused() {
        #expect(LocalDay(year: 2026, month: 2, day: 29) == nil)
        #expect(LocalDay(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDay(year: 1900, month: 2, day: 29) == nil)
        #expect(LocalDay(year: 2000, month: 2, day: 29) != nil)
        #expect(LocalDay(year: 2026, month: 13, day: 1) == nil)
        #expect(LocalDay(iso8601: "2026-04-31") == nil)
        #expect(LocalDay(iso8601: "2026-4-30") == nil)
        #expect(LocalDay(iso8601: "2026-04-30")?.description == "2026-04-30")
    }

    @Test func encodesAsISODateString() throws {
        let data = try JSONEncoder().encode([LocalDay(year: 2026, month: 3, day: 14)!])
        #expect(String(decoding: data, as: UTF8.self) == #"["2026-03-14"]"#)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocalDay].self, from: Data(#"["2026-02-30"]"#.utf8))
        }
    }

    @Test func rfc3339ParsesOffsetsAndFractions() {
        #expect(RFC3339.parse("2026-03-14T08:30:00-04:00")?.timeIntervalSince1970 == 1_773_491_400)
        #expect(RFC3339.parse("2026-03-14T12:30:00Z")?.timeIntervalSince1970 == 1_773_491_400)
        #expect(RFC3339.parse("2026-03-14T12:30:00.250Z")?.timeIntervalSince1970 == 1_773_491_400.25)
        #expect(RFC3339.parse("2026-03-14T18:15:00+05:45")?.timeIntervalSince1970 == 1_773_491_400)
        for bad in [
            "2026-03-14", "2026-03-14T12:30:00", "2026-03-14T25:00:00Z", "2026-02-30T00:00:00Z",
            "2026-03-14T12:30:00+5:00", "x",
        ] {
            #expect(RFC3339.parse(bad) == nil, "\(bad)")
        }
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_773_491_400.25)) == "2026-03-14T12:30:00.250Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }
}
