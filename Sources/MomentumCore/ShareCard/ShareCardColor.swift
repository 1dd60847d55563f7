import Foundation

/// An opaque sRGB colour, written as `#RRGGBB`.
///
/// Share cards derive every colour they use (background tints, title ink, badge fill) from
/// the achievement category's colour, so the arithmetic for mixing and for measuring
/// contrast lives here. Encodes to and decodes from JSON as its `#RRGGBB` string.
public struct ShareCardColor: Hashable, Sendable, CustomStringConvertible {
    /// The red component, 0 through 255.
    public let red: Int
    /// The green component, 0 through 255.
    public let green: Int
    /// The blue component, 0 through 255.
    public let blue: Int

    /// Creates a colour from its components; values outside 0...255 are clamped.
    ///
    /// - Parameters:
    ///   - red: The red component, 0 through 255.
    ///   - green: The green component, 0 through 255.
    ///   - blue: The blue component, 0 through 255.
    public init(red: Int, green: Int, blue: Int) {
        self.red = min(255, max(0, red))
        self.green = min(255, max(0, green))
        self.blue = min(255, max(0, blue))
    }

    /// Parses `#RRGGBB` (or the short `#RGB`), in either case; returns `nil` for anything else.
    ///
    /// - Parameter hex: The colour, with its leading `#`.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#") else { return nil }
        var values: [Int] = []
        for byte in digits.dropFirst() {
            guard let value = Self.hexValue(byte) else { return nil }
            values.append(value)
        }
        switch values.count {
        case 6:
            self.init(
                red: values[0] * 16 + values[1], green: values[2] * 16 + values[3], blue: values[4] * 16 + values[5])
        case 3: self.init(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17)
        default: return nil
        }
    }

    /// White, `#FFFFFF`.
    public static let white = ShareCardColor(red: 255, green: 255, blue: 255)
    /// Black, `#000000`.
    public static let black = ShareCardColor(red: 0, green: 0, blue: 0)

    /// The colour as `#RRGGBB` with uppercase digits.
    public var hex: String {
        "#" + [red, green, blue].map { Self.hexPair($0) }.joined()
    }

    /// The colour as `#RRGGBB`.
    public var description: String { hex }

    /// A blend of this colour and another.
    ///
    /// - Parameters:
    ///   - other: The colour to blend in.
    ///   - fraction: How much of `other` to take, 0 (none) through 1 (all of it).
    /// - Returns: The blended colour, each component rounded to the nearest integer.
    public func mixed(with other: ShareCardColor, fraction: Double) -> ShareCardColor {
        let t = min(1, max(0, fraction))
        func blend(_ a: Int, _ b: Int) -> Int { Int((Double(a) + (Double(b) - Double(a)) * t).rounded()) }
        return ShareCardColor(
            red: blend(red, other.red), green: blend(green, other.green), blue: blend(blue, other.blue))
    }

    /// The WCAG 2 relative luminance, 0 (black) through 1 (white).
    public var relativeLuminance: Double {
        func linear(_ component: Int) -> Double {
            let c = Double(component) / 255
            return c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The WCAG 2 contrast ratio between this colour and another, 1 through 21.
    ///
    /// - Parameter other: The other colour.
    /// - Returns: The ratio of the lighter luminance to the darker, each plus 0.05.
    public func contrastRatio(with other: ShareCardColor) -> Double {
        let a = relativeLuminance + 0.05
        let b = other.relativeLuminance + 0.05
        return max(a, b) / min(a, b)
    }

    /// This colour darkened step by step, toward black, until it reaches a contrast ratio against a background.
    ///
    /// - Parameters:
    ///   - background: The colour the result is drawn on.
    ///   - ratio: The contrast ratio to reach, for example 4.5 for body text.
    /// - Returns: The lightest darkened colour that reaches `ratio`, or black.
    func darkened(toContrast ratio: Double, against background: ShareCardColor) -> ShareCardColor {
        for step in 0...20 {
            let candidate = mixed(with: .black, fraction: Double(step) * 0.05)
            if candidate.contrastRatio(with: background) >= ratio { return candidate }
        }
        return .black
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    private static func hexPair(_ value: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[value / 16], digits[value % 16]])
    }
}

extension ShareCardColor: Codable {
    /// Decodes the colour from its `#RRGGBB` string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = ShareCardColor(hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a colour of the form #RRGGBB")
        }
        self = color
    }

    /// Encodes the colour as its `#RRGGBB` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
