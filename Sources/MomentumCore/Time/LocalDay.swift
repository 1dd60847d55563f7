/// A civil date in the user's own calendar, stored as a day number.
///
/// The day number counts days since 1970-01-01 in the proleptic Gregorian calendar, so
/// arithmetic on days is integer arithmetic and comparison is integer comparison. A
/// `LocalDay` knows nothing about time zones: ``DayClock`` decides which local day an
/// instant falls on.
///
/// `LocalDay` encodes to and decodes from JSON as an ISO 8601 date string (`"2026-03-14"`).
public struct LocalDay: Hashable, Comparable, Sendable, Strideable, CustomStringConvertible {
    /// Days since 1970-01-01 (which is day 0).
    public var number: Int

    /// Creates a local day from its day number.
    ///
    /// - Parameter number: Days since 1970-01-01.
    public init(number: Int) {
        self.number = number
    }

    /// Creates a local day from a civil date, or returns `nil` if the date does not exist.
    ///
    /// - Parameters:
    ///   - year: The Gregorian year, for example 2026.
    ///   - month: The month, 1 through 12.
    ///   - day: The day of the month, 1 through the length of that month.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDay.daysIn(month: month, year: year) else {
            return nil
        }
        self.number = LocalDay.dayNumber(year: year, month: month, day: day)
    }

    /// The Gregorian year, month and day of this local day.
    public var civil: (year: Int, month: Int, day: Int) {
        LocalDay.civil(fromDayNumber: number)
    }

    /// The day of the week.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday; `Weekday` counts Monday as 1.
        Weekday(rawValue: ((number + 3) % 7 + 7) % 7 + 1)!
    }

    /// The date in ISO 8601 form, for example `2026-03-14`.
    public var description: String {
        let (y, m, d) = civil
        return "\(Self.pad(y, 4))-\(Self.pad(m, 2))-\(Self.pad(d, 2))"
    }

    /// Parses an ISO 8601 calendar date (`YYYY-MM-DD`), returning `nil` for anything else.
    ///
    /// - Parameter text: The date, exactly ten characters.
    public init?(iso8601 text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.number < rhs.number }

    /// The number of days from this day to `other` (negative if `other` is earlier).
    public func distance(to other: LocalDay) -> Int { other.number - number }

    /// The day `n` days later (earlier for negative `n`).
    public func advanced(by n: Int) -> LocalDay { LocalDay(number: number + n) }

    /// The number of days in a month of a year.
    ///
    /// - Parameters:
    ///   - month: 1 through 12.
    ///   - year: The Gregorian year.
    /// - Returns: 28 to 31.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whether a Gregorian year has 366 days.
    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The day number of a civil date (Howard Hinnant's `days_from_civil`).
    @inlinable
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The civil date of a day number (Howard Hinnant's `civil_from_days`).
    static func civil(fromDayNumber n: Int) -> (year: Int, month: Int, day: Int) {
        let z = n + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}

extension LocalDay: Codable {
    /// Decodes the value from its JSON form, described in the type's documentation.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = LocalDay(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a date of the form YYYY-MM-DD")
        }
        self = day
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension LocalDay {
    /// The day as people read it in English: `Fri 27 Nov 2026`.
    public var readable: String { readable(translation: .english) }

    /// The day as people read it in a language (`date.readable`): `Fri 27 Nov 2026` in
    /// English, `sex, 27 de nov de 2026` in Brazilian Portuguese.
    ///
    /// - Parameter translation: The language.
    /// - Returns: The day.
    public func readable(translation: Translation) -> String { translation.readable(self) }
}
