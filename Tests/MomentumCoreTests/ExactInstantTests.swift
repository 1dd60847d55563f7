import Foundation
import MomentumCore
import PropertyBased
import Testing

/// Instants are kept to the millisecond, truncated: a fraction never rounds an instant into
/// the next second, so an instant stays on its day.
struct ExactInstantTests {
    /// The whole second of an instant, as the day clock reads it.
    private static func second(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// A timestamp at second `seconds` since 1970 (UTC) with the given fraction digits.
    private static func text(_ seconds: Int, fraction: String, offsetMinutes: Int = 0) -> String {
        let local = seconds + offsetMinutes * 60
        let day = LocalDay(number: local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
        let s = local - day.number * 86_400
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let zone =
            offsetMinutes == 0
            ? "Z" : (offsetMinutes < 0 ? "-" : "+") + two(abs(offsetMinutes) / 60) + ":" + two(abs(offsetMinutes) % 60)
        return "\(day)T\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
            + (fraction.isEmpty ? "" : "." + fraction) + zone
    }

    @Test func anInstantAHairBeforeMidnightInSaoPauloStaysOnItsDay() throws {
        let text = "2018-11-03T23:59:59.9999999-03:00"
        let instant = try #require(RFC3339.parse(text))
        let table = try #require(ZoneOffsetTable.named("America/Sao_Paulo"))
        // Midnight of the 4th never happened there (daylight saving began at 00:00).
        #expect(DayClock().localDay(of: instant, in: table).description == "2018-11-03")
        #expect(Self.second(instant) == 1_541_300_399)
        #expect(RFC3339.format(instant) == "2018-11-04T02:59:59.999Z")

        // An event at that instant is a completion for the 3rd.
        var log = Log(zone: "America/Sao_Paulo")
        log.habit("read", policy: .strict, on: LocalDay(year: 2018, month: 11, day: 1)!)
        let json = #"{"id":"late","type":"completion","at":"\#(text)","tz":"America/Sao_Paulo","habit":"read"}"#
        let event = try MomentumJSON.decoder().decode(Event.self, from: Data(json.utf8))
        let state = try UserEngine.evaluate(
            log.events + [event], now: try #require(RFC3339.parse("2018-11-05T12:00:00-02:00")))
        let read = state[habit: "read"]
        #expect(read[LocalDay(year: 2018, month: 11, day: 3)!].state == .completed)
        #expect(read[LocalDay(year: 2018, month: 11, day: 4)!].state == .missed)
    }

    @Test func fractionDigitsAfterTheMillisecondAreDropped() {
        #expect(RFC3339.parse("2026-03-14T12:30:00.2509Z") == RFC3339.parse("2026-03-14T12:30:00.250Z"))
        #expect(RFC3339.parse("2026-03-14T12:30:00.999999999Z") == RFC3339.parse("2026-03-14T12:30:00.999Z"))
        #expect(RFC3339.parse("2026-03-14T12:30:00.0009Z") == RFC3339.parse("2026-03-14T12:30:00Z"))
        #expect(RFC3339.parse("2026-03-14T12:30:00.5Z") == RFC3339.parse("2026-03-14T12:30:00.500Z"))
        #expect(RFC3339.format(RFC3339.parse("2026-03-14T12:30:00.12345Z")!) == "2026-03-14T12:30:00.123Z")
        #expect(RFC3339.format(RFC3339.parse("1969-12-31T23:59:59.9999Z")!) == "1969-12-31T23:59:59.999Z")
    }

    @Test func formattingNeverNamesALaterSecond() {
        // Instants a hair before a second, by less than a millisecond: the old formatter
        // rounded them up to the next second (and so, at midnight, to the next day).
        for base in [1_541_300_399.0, 0, -1, -86_401, 1_800_000_000, 253_402_300_798] {
            for hair in [1e-4, 4e-4, 4.999e-4, 5e-4, 1e-5, 1e-7] {
                let instant = Date(timeIntervalSince1970: base + 1 - hair)
                guard Self.second(instant) == Int64(base) else { continue }  // not representable
                let text = RFC3339.format(instant)
                #expect(text.hasSuffix(".999Z"), "\(base) \(hair): \(text)")
                #expect(Self.second(RFC3339.parse(text)!) == Int64(base), "\(base) \(hair): \(text)")
            }
        }
    }

    @Test func randomFractionsOfOneToNineDigitsTruncateToTheMillisecond() async {
        let seconds = Gen.int(in: -2_208_988_800...4_102_444_799)
        let digits = Gen.int(in: 1...9)
        let fraction = Gen.int(in: 0...999_999_999)
        let offsets = Gen.int(in: -(23 * 60 + 59)...(23 * 60 + 59))
        await propertyCheck(count: 20_000, input: seconds, digits, fraction, offsets) { seconds, digits, raw, offset in
            var fraction = String(raw)
            fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
            fraction = String(fraction.prefix(digits))
            let text = Self.text(seconds, fraction: fraction, offsetMinutes: offset)
            guard let instant = RFC3339.parse(text) else {
                Issue.record("\(text) did not parse")
                return
            }
            // The text's second, whatever the fraction.
            #expect(Self.second(instant) == Int64(seconds), "\(text)")
            // The millisecond, truncated.
            let millis = Int((fraction + "000").prefix(3))!
            let written = RFC3339.format(instant)
            let expected = Self.text(seconds, fraction: millis == 0 ? "" : String((fraction + "000").prefix(3)))
            #expect(written == expected, "\(text): \(written)")
            // Parsing the written text gives back the same Date, bit for bit, and so does
            // what the store keeps.
            let again = RFC3339.parse(written)
            #expect(again?.timeIntervalSince1970.bitPattern == instant.timeIntervalSince1970.bitPattern, "\(text)")
            #expect(RFC3339.stored(instant) == instant, "\(text)")
            // The JSON writers agree with `format`.
            var bytes: [UInt8] = []
            MomentumJSON.appendInstant(instant, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "\"\(written)\"", "\(text)")
        }
    }

    @Test func randomInstantsAreWrittenNoLaterThanTheyAreAndReadBackStable() async {
        // Any Double instant, not only parsed ones: the text is never a later second, its
        // instant is never later than the Date's own precision allows, and it is stable.
        let instants = Gen.double(in: -2_208_988_800...4_102_444_800)
        await propertyCheck(count: 20_000, input: instants) { value in
            let date = Date(timeIntervalSince1970: value)
            let written = RFC3339.format(date)
            guard let back = RFC3339.parse(written) else {
                Issue.record("\(written) did not parse")
                return
            }
            #expect(Self.second(back) == Self.second(date), "\(value): \(written)")
            // A Date's own precision: it holds seconds since 2001, read here since 1970.
            let precision = (date.timeIntervalSinceReferenceDate.ulp + date.timeIntervalSince1970.ulp) * 4
            #expect(back.timeIntervalSince1970 <= date.timeIntervalSince1970 + precision, "\(value): \(written)")
            #expect(date.timeIntervalSince1970 - back.timeIntervalSince1970 < 0.001 + precision, "\(value): \(written)")
            #expect(RFC3339.format(back) == written, "\(value): \(written)")
            #expect(RFC3339.stored(date).timeIntervalSince1970.bitPattern == back.timeIntervalSince1970.bitPattern)
        }
    }

    @Test func anEventsAtIsWrittenAsItsMillisecond() throws {
        let at = Date(timeIntervalSince1970: 1_541_300_399.99995)
        let event = Event(id: "e", at: at, timeZone: "UTC", payload: .skip(habit: nil, day: nil, note: nil))
        let json = String(decoding: try MomentumJSON.encode(event), as: UTF8.self)
        #expect(json.contains(#""at":"2018-11-04T02:59:59.999Z""#), "\(json)")
        let foundation = String(decoding: try MomentumJSON.encoder().encode(event), as: UTF8.self)
        #expect(foundation == json)
    }
}
