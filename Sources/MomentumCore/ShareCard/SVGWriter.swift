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
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let whole = magnitude / 100
        let fraction = magnitude % 100
        if fraction == 0 { return sign + String(whole) }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(escaped($0.1))\"" }.joined()
    }
}
