import Foundation

/// Parses and formats RFC 3339 timestamps (`2026-03-14T08:30:00-04:00`, `…T12:30:00.250Z`).
///
/// JSONDecoder's ISO 8601 strategy rejects fractional seconds and is slow, and events are
/// read in bulk, so Momentum parses timestamps itself.
public enum RFC3339 {
    /// Parses a timestamp with a `Z` or `±HH:MM` offset and optional fractional seconds.
    ///
    /// - Parameter text: The timestamp.
    /// - Returns: The instant, or `nil` if `text` is not a valid RFC 3339 timestamp.
    public static func parse(_ text: some StringProtocol) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for i in start..<start + count {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == 45, let month = digits(5, 2), b[7] == 45, let day = digits(8, 2),
            b[10] == 84 || b[10] == 116 || b[10] == 32,
            let hour = digits(11, 2), b[13] == 58, let minute = digits(14, 2), b[16] == 58, let second = digits(17, 2),
            let date = LocalDay(year: year, month: month, day: day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45 {
            guard let oh = digits(i + 1, 2), b.count > i + 3, b[i + 3] == 58, let om = digits(i + 4, 2), oh < 24,
                om < 60
            else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == 45 ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let seconds = date.number * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The instant ``parse(_:)`` reads back from ``format(_:)``'s text (millisecond
    /// precision, the form Momentum stores), computed without the text: the same `Date`,
    /// bit for bit, for every instant of years 0000–9999; outside them, where the text has
    /// no four-digit year, the instant itself, as the round trip (which fails) leaves it
    /// (and, unlike ``format(_:)``, a non-finite or enormous instant does not trap).
    ///
    /// - Parameter date: The instant.
    /// - Returns: The instant as stored.
    public static func stored(_ date: Date) -> Date {
        let total = date.timeIntervalSince1970
        // 0000-01-01T00:00:00Z up to 10000-01-01T00:00:00Z; the text of any other instant
        // has no four-digit year, and `parse` refuses it.
        let end = 253_402_300_800
        guard total.isFinite, total >= -62_167_219_200, total < Double(end) else { return date }
        let seconds = Int(total.rounded(.down))
        let millis = Int(((total - Double(seconds)) * 1000).rounded())
        if millis == 0 { return Date(timeIntervalSince1970: Double(seconds)) }
        if millis == 1000 { return seconds + 1 < end ? Date(timeIntervalSince1970: Double(seconds + 1)) : date }
        // The fraction as `parse` adds up its three digits.
        let scale1 = 0.1
        let scale2 = scale1 / 10
        let scale3 = scale2 / 10
        var fraction = 0.0
        fraction += Double(millis / 100) * scale1
        fraction += Double(millis / 10 % 10) * scale2
        fraction += Double(millis % 10) * scale3
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Formats an instant in UTC (`2026-03-14T12:30:00Z`), with milliseconds when it has any.
    ///
    /// - Parameter date: The instant.
    /// - Returns: The RFC 3339 text.
    public static func format(_ date: Date) -> String {
        let total = date.timeIntervalSince1970
        let seconds = Int(total.rounded(.down))
        let millis = Int(((total - Double(seconds)) * 1000).rounded())
        let carry = millis == 1000 ? 1 : 0
        let s = seconds + carry
        let day = LocalDay(number: s >= 0 ? s / 86_400 : (s - 86_399) / 86_400)
        let secondOfDay = s - day.number * 86_400
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = "\(day)T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        if millis > 0, carry == 0 {
            let m = String(millis)
            text += "." + String(repeating: "0", count: 3 - m.count) + m
        }
        return text + "Z"
    }
}
