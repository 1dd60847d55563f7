import Foundation

/// Parses and formats RFC 3339 timestamps (`2026-03-14T08:30:00-04:00`, `…T12:30:00.250Z`).
///
/// JSONDecoder's ISO 8601 strategy rejects fractional seconds and is slow, and events are
/// read in bulk, so Momentum parses timestamps itself.
///
/// ## Precision
///
/// Momentum keeps instants to the **millisecond, truncated**: a fraction's digits after the
/// third are dropped, never rounded, so `23:59:59.9999999` is `23:59:59.999` and stays on its
/// second and on its day. ``format(_:)`` writes the millisecond an instant lies in (never a
/// later one, never the next second), ``parse(_:)`` reads that text back to the same `Date`,
/// bit for bit, and ``stored(_:)`` gives that `Date` without the text. A `Date` is a `Double`
/// of seconds since 2001, which cannot hold every decimal fraction exactly; what is kept is
/// the `Double` ``parse(_:)`` computes for the text, and its whole second is always the
/// text's second.
public enum RFC3339 {
    /// The number of fraction digits an instant keeps: milliseconds.
    public static let fractionDigits = 3

    /// Parses a timestamp with a `Z` or `±HH:MM` offset and optional fractional seconds.
    ///
    /// Fraction digits beyond the millisecond are read and dropped (the instant is truncated
    /// toward the past, never rounded into the next second).
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
        var millis = 0
        if i < b.count, b[i] == 46 {
            i += 1
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if i - start < fractionDigits { millis = millis * 10 + Int(b[i] - 48) }
                i += 1
            }
            guard i > start else { return nil }
            for _ in min(i - start, fractionDigits)..<fractionDigits { millis *= 10 }
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
        return Date(timeIntervalSince1970: instant(second: seconds, millis: millis))
    }

    /// The instant ``parse(_:)`` reads back from ``format(_:)``'s text (millisecond
    /// precision, truncated: the form Momentum stores), computed without the text: the same
    /// `Date`, bit for bit, for every instant of years 0000–9999; outside them, where the
    /// text has no four-digit year, the instant itself, as the round trip (which fails)
    /// leaves it.
    ///
    /// - Parameter date: The instant.
    /// - Returns: The instant as stored: never in a later second than `date`.
    public static func stored(_ date: Date) -> Date {
        let total = date.timeIntervalSince1970
        // 0000-01-01T00:00:00Z up to 10000-01-01T00:00:00Z; the text of any other instant
        // has no four-digit year, and `parse` refuses it.
        guard total.isFinite, total >= -62_167_219_200, total < 253_402_300_800 else { return date }
        let (second, millis) = parts(total)
        return Date(timeIntervalSince1970: instant(second: second, millis: millis))
    }

    /// Formats an instant in UTC (`2026-03-14T12:30:00Z`), with milliseconds when it has any.
    ///
    /// The millisecond written is the one the instant lies in, truncated: the text never
    /// names a later second than the instant (`23:59:59.9999` is written `23:59:59.999Z`).
    ///
    /// - Parameter date: The instant.
    /// - Returns: The RFC 3339 text; for an instant no text can name (not finite, or
    ///   beyond ±10¹⁵ seconds), its number of seconds since 1970.
    public static func format(_ date: Date) -> String {
        let total = date.timeIntervalSince1970
        guard total.isFinite, abs(total) < 1e15 else { return "\(total)" }
        let (s, millis) = parts(total)
        let day = LocalDay(number: s >= 0 ? s / 86_400 : (s - 86_399) / 86_400)
        let secondOfDay = s - day.number * 86_400
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = "\(day)T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        if millis > 0 {
            let m = String(millis)
            text += "." + String(repeating: "0", count: 3 - m.count) + m
        }
        return text + "Z"
    }

    /// The whole second and the millisecond within it that ``format(_:)`` writes for an
    /// instant: the latest millisecond whose ``instant(second:millis:)`` is not later than
    /// `total`, within `total`'s own precision (a `Double` a hair below a millisecond mark,
    /// say 0.29 computed as 0.28999…, is on that mark); never the next second.
    ///
    /// - Parameter total: Seconds since 1970, finite, below ±10¹⁵ in magnitude.
    /// - Returns: The second (rounded down) and the millisecond, 0–999.
    static func parts(_ total: Double) -> (second: Int, millis: Int) {
        let whole = total.rounded(.down)
        // Exact: `total` and `whole` are within one second of each other.
        let fraction = total - whole
        // A `Date` holds seconds since 2001, so an instant read back as seconds since 1970
        // has been rounded twice: allow for both.
        let tolerance = (total.ulp + (total - Date.timeIntervalBetween1970AndReferenceDate).ulp) * 1000
        let millis = min(Int((fraction * 1000 + tolerance).rounded(.down)), 999)
        return (Int(whole), millis)
    }

    /// The instant of a whole second and a millisecond within it, computed as ``parse(_:)``
    /// adds up the fraction's digits, so that stored instants and parsed ones agree bit for bit.
    static func instant(second: Int, millis: Int) -> Double {
        guard millis > 0 else { return Double(second) }
        let scale1 = 0.1
        let scale2 = scale1 / 10
        let scale3 = scale2 / 10
        var fraction = 0.0
        fraction += Double(millis / 100) * scale1
        fraction += Double(millis / 10 % 10) * scale2
        fraction += Double(millis % 10) * scale3
        return Double(second) + fraction
    }
}
