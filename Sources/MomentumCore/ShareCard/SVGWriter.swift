/// Builds an SVG document line by line, escaping every attribute value and text.
struct SVGWriter {
    private(set) var output = ""
    private var depth = 0

    mutating func line(_ text: String) {
        output += String(repeating: "  ", count: depth) + text + "\n"
    }

    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        line("<\(name)\(Self.attributes(attributes))>")
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        line("</\(name)>")
    }

    mutating func empty(_ name: String, _ attributes: [(String, String)] = []) {
        line("<\(name)\(Self.attributes(attributes))/>")
    }

    mutating func element(_ name: String, _ attributes: [(String, String)] = [], text: String) {
        line("<\(name)\(Self.attributes(attributes))>\(Self.escaped(text))</\(name)>")
    }

    /// A `text` element on one line whose runs are plain text or, where a run has
    /// attributes of its own, a `tspan` with them.
    mutating func mixedText(_ attributes: [(String, String)], runs: [(String, [(String, String)])]) {
        let content = runs.map { text, own in
            own.isEmpty ? Self.escaped(text) : "<tspan\(Self.attributes(own))>\(Self.escaped(text))</tspan>"
        }
        line("<text\(Self.attributes(attributes))>\(content.joined())</text>")
    }

    /// Text safe in XML content and in double- or single-quoted attributes.
    ///
    /// The five special characters become entities; characters XML 1.0 cannot carry
    /// (C0 and C1 controls other than tab, line feed and carriage return, U+FFFE, U+FFFF) are
    /// dropped, and tab, line feed and carriage return become spaces.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result += " "
            default:
                switch scalar.value {
                case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF: continue
                default: result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A number with at most two decimals and no trailing zeros, independent of any locale.
    static func number(_ value: Double) -> String { number(value, decimals: 2) }

    /// A number with at most `decimals` decimals (0 through 6) and no trailing zeros,
    /// independent of any locale; `0` for a value that is not finite or not below 10¹².
    static func number(_ value: Double, decimals: Int) -> String {
        let places = min(6, max(0, decimals))
        var unit = 1
        for _ in 0..<places { unit *= 10 }
        guard value.isFinite, abs(value) < 1e12 else { return "0" }
        let scaled = Int((value * Double(unit)).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = abs(scaled)
        let whole = magnitude / unit
        var fraction = magnitude % unit
        if fraction == 0 { return sign + String(whole) }
        var digits = places
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let text = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: digits - text.count) + text
    }

    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(escaped($0.1))\"" }.joined()
    }
}
