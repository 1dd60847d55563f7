import Foundation

/// The JSON spelling of scalars, as Foundation's encoder writes them.
enum JSONBytes {
    static func null(into out: inout [UInt8]) {
        out.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    static func bool(_ value: Bool, into out: inout [UInt8]) {
        out.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    static func integer(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            unsigned(value.magnitude, into: &out)
        } else {
            unsigned(UInt64(value), into: &out)
        }
    }

    static func unsigned(_ value: UInt64, into out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes, enough for 20 digits
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[31 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            out.append(contentsOf: buffer[(32 - count)...])
        }
    }

    /// An instant as ``RFC3339/format(_:)`` writes it.
    static func instant(_ date: Date, into out: inout [UInt8]) {
        let total = date.timeIntervalSince1970
        guard total.isFinite, abs(total) < 2.5e11 else {
            string(RFC3339.format(date), into: &out)
            return
        }
        // The millisecond the instant lies in, truncated, as `format` writes it.
        let (s, millis) = RFC3339.parts(total)
        let dayNumber = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        let secondOfDay = s - dayNumber * 86_400
        let (year, month, day) = LocalDay.civil(fromDayNumber: dayNumber)
        guard (0...9999).contains(year) else {
            string(RFC3339.format(date), into: &out)
            return
        }
        out.append(UInt8(ascii: "\""))
        civil(year, month, day, into: &out)
        out.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2, into: &out)
        if millis > 0 {
            out.append(UInt8(ascii: "."))
            digits(millis, 3, into: &out)
        }
        out.append(UInt8(ascii: "Z"))
        out.append(UInt8(ascii: "\""))
    }

    /// A local day as its `description` writes it.
    static func day(_ day: LocalDay, into out: inout [UInt8]) {
        let (year, month, dayOfMonth) = day.civil
        guard (0...9999).contains(year) else {
            string(day.description, into: &out)
            return
        }
        out.append(UInt8(ascii: "\""))
        civil(year, month, dayOfMonth, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    private static func civil(_ year: Int, _ month: Int, _ day: Int, into out: inout [UInt8]) {
        digits(year, 4, into: &out)
        out.append(UInt8(ascii: "-"))
        digits(month, 2, into: &out)
        out.append(UInt8(ascii: "-"))
        digits(day, 2, into: &out)
    }

    /// `value` (0 ≤ value < 10^width) in exactly `width` digits.
    private static func digits(_ value: Int, _ width: Int, into out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    static func double(_ value: Double, path: @autoclosure () -> JSONPath, into out: inout [UInt8]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path().codingPath,
                    debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        number(value.description, into: &out)
    }

    static func float(_ value: Float, path: @autoclosure () -> JSONPath, into out: inout [UInt8]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path().codingPath,
                    debugDescription: "Unable to encode Float.\(value) directly in JSON."))
        }
        number(value.description, into: &out)
    }

    private static func number(_ text: String, into out: inout [UInt8]) {
        var utf8 = Substring(text).utf8
        if utf8.count >= 2, utf8.last == UInt8(ascii: "0"),
            utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".")
        {
            utf8 = utf8.dropLast(2)
        }
        out.append(contentsOf: utf8)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func string(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                start = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                        hex[Int(byte & 0xF)],
                    ])
                }
            }
            if start < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
