/// How heavy a share card's text is drawn, with its CSS numeric weight as raw value.
public enum ShareCardFontWeight: Int, CaseIterable, Codable, Hashable, Sendable {
    /// Body text, weight 400.
    case regular = 400
    /// Labels, weight 600.
    case semibold = 600
    /// Headlines, weight 700.
    case bold = 700
}
