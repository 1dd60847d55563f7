/// The role a shape of an illustration plays, which decides its colour in each scheme.
///
/// The backdrop's roles take the category's colour, lightened for light backgrounds and
/// darkened for dark ones; the characters and props keep their own colours in both, so
/// that a puppy is the same puppy on any page.
enum IllustrationInk: String, Hashable, Sendable, CaseIterable {
    case sky, halo, ground, groundShade, grass, grassShade, sparkle, sun, cloud, mountain, snow, nightSky
    case nightStar, shadow
    case outline, white, cheek, tongue, fur, furShade, furLight
    case flame, flameMid, flameInner, piggy, piggyShade, pot, potShade, leaf, leafLight
    case accent, accentDark, accentLight, gold, goldShade, goldLight, metal, metalDark, paper, paperShade
    case capDark, heart, confettiPink, confettiBlue, confettiGreen

    /// The colour of this role in an illustration of `color`.
    ///
    /// - Parameters:
    ///   - color: The illustration's category colour.
    ///   - dark: Whether the scheme is dark.
    /// - Returns: The colour.
    func color(for color: ShareCardColor, dark: Bool) -> ShareCardColor {
        let page = dark ? Self.darkPage : ShareCardColor.white
        switch self {
        case .sky: return color.mixed(with: page, fraction: dark ? 0.84 : 0.9)
        case .halo: return color.mixed(with: page, fraction: dark ? 0.64 : 0.72)
        case .ground: return color.mixed(with: page, fraction: dark ? 0.5 : 0.55)
        case .groundShade: return color.mixed(with: page, fraction: dark ? 0.36 : 0.38)
        case .mountain: return color.mixed(with: page, fraction: dark ? 0.56 : 0.46)
        case .accent: return color
        case .accentDark: return color.mixed(with: .black, fraction: 0.3)
        case .accentLight: return color.mixed(with: .white, fraction: 0.45)
        default: return Self.fixed(self, dark: dark)
        }
    }

    /// The dark page the dark scheme is drawn for (the web app's card colour).
    static let darkPage = ShareCardColor(red: 0x1D, green: 0x1D, blue: 0x21)

    private static func fixed(_ ink: IllustrationInk, dark: Bool) -> ShareCardColor {
        let hex: String
        switch ink {
        case .grass: hex = dark ? "#2F5C2B" : "#9ED47A"
        case .grassShade: hex = dark ? "#244A21" : "#77BE58"
        case .sparkle: hex = dark ? "#FFD96B" : "#FFC12E"
        case .sun: hex = "#FFC93C"
        case .cloud: hex = dark ? "#4A4D5C" : "#FFFFFF"
        case .snow: hex = dark ? "#E4E7EF" : "#FFFFFF"
        case .nightSky: hex = dark ? "#161B36" : "#2E3A6E"
        case .nightStar: hex = "#FFF3C4"
        case .shadow: hex = "#000000"
        case .outline: hex = "#3B2A22"
        case .white: hex = "#FFFFFF"
        case .cheek: hex = "#F79494"
        case .tongue: hex = "#EE6B7F"
        case .fur: hex = "#E6A864"
        case .furShade: hex = "#A8693A"
        case .furLight: hex = "#FCE6C8"
        case .flame: hex = "#F2542D"
        case .flameMid: hex = "#FF8A2B"
        case .flameInner: hex = "#FFD23F"
        case .piggy: hex = "#F7A8BC"
        case .piggyShade: hex = "#E27D98"
        case .pot: hex = "#D9774B"
        case .potShade: hex = "#B65C35"
        case .leaf: hex = "#3FA34D"
        case .leafLight: hex = "#7CC95A"
        case .gold: hex = "#F9C22E"
        case .goldShade: hex = "#D8951B"
        case .goldLight: hex = "#FFE38C"
        case .metal: hex = "#A3ACBA"
        case .metalDark: hex = "#5E6777"
        case .paper: hex = "#FFFFFF"
        case .paperShade: hex = "#DDE1E8"
        case .capDark: hex = "#2C2F3A"
        case .heart: hex = "#EF4F6B"
        case .confettiPink: hex = "#F2668B"
        case .confettiBlue: hex = "#4C8DF6"
        case .confettiGreen: hex = "#3CC27A"
        default: hex = "#000000"
        }
        return ShareCardColor(hex: hex) ?? .black
    }
}
