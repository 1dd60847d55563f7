/// A named colour of a celebration, with its high-contrast variant.
///
/// Seed 002 names colours only ("blue, cyan, yellow"); the hex values are Momentum's. The
/// system colours (blue, cyan, yellow, green, pink, purple) use Apple's light-mode system
/// colours and their Increase Contrast variants, which is what the seed's SwiftUI `Color`
/// names render as; gold, rose, bronze and amber are not system colours and were chosen to
/// sit beside them, with darker variants for high contrast.
public struct CelebrationColor: Hashable, Sendable, Codable {
    /// The colour's name as the seed gives it (`gold`).
    public var name: String
    /// The colour as `#RRGGBB`.
    public var hex: String
    /// The colour as `#RRGGBB` when Increase Contrast is on.
    public var highContrastHex: String

    /// Creates a colour.
    public init(name: String, hex: String, highContrastHex: String) {
        self.name = name
        self.hex = hex
        self.highContrastHex = highContrastHex
    }

    /// The hex string to draw with.
    ///
    /// - Parameter highContrast: Whether Increase Contrast is on.
    /// - Returns: ``highContrastHex`` or ``hex``.
    public func hex(highContrast: Bool) -> String { highContrast ? highContrastHex : hex }

    /// System blue: `#007AFF`, high contrast `#0040DD`.
    public static let blue = CelebrationColor(name: "blue", hex: "#007AFF", highContrastHex: "#0040DD")
    /// System cyan: `#32ADE6`, high contrast `#0071A4`.
    public static let cyan = CelebrationColor(name: "cyan", hex: "#32ADE6", highContrastHex: "#0071A4")
    /// System yellow: `#FFCC00`, high contrast `#A05A00`.
    public static let yellow = CelebrationColor(name: "yellow", hex: "#FFCC00", highContrastHex: "#A05A00")
    /// System green: `#34C759`, high contrast `#248A3D`.
    public static let green = CelebrationColor(name: "green", hex: "#34C759", highContrastHex: "#248A3D")
    /// System pink: `#FF2D55`, high contrast `#D30F45`.
    public static let pink = CelebrationColor(name: "pink", hex: "#FF2D55", highContrastHex: "#D30F45")
    /// System purple: `#AF52DE`, high contrast `#8944AB`.
    public static let purple = CelebrationColor(name: "purple", hex: "#AF52DE", highContrastHex: "#8944AB")
    /// Metallic gold: `#D4AF37`, high contrast `#7A5C00` (Momentum's choice).
    public static let gold = CelebrationColor(name: "gold", hex: "#D4AF37", highContrastHex: "#7A5C00")
    /// Rose: `#FF6F91`, high contrast `#B0234A` (Momentum's choice).
    public static let rose = CelebrationColor(name: "rose", hex: "#FF6F91", highContrastHex: "#B0234A")
    /// Bronze: `#CD7F32`, high contrast `#7F4A14` (Momentum's choice).
    public static let bronze = CelebrationColor(name: "bronze", hex: "#CD7F32", highContrastHex: "#7F4A14")
    /// Amber: `#FFBF00`, high contrast `#8A5300` (Momentum's choice).
    public static let amber = CelebrationColor(name: "amber", hex: "#FFBF00", highContrastHex: "#8A5300")
}
