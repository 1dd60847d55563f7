/// The category a celebration is themed by: seed 002's `GoalCategory`, open to rule packs.
///
/// A string rather than a closed enum so that a pack can theme its own categories
/// (`potty_outdoor`, `training`) without a code change; the seed's categories are static
/// members. Encoded as the bare string.
public struct CelebrationCategory: RawRepresentable, Hashable, Sendable, Codable, CodingKeyRepresentable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The category's name as rule packs write it (`vacation`).
    public var rawValue: String

    /// Creates a category from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a category from its name.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Creates a category from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The category's name.
    public var description: String { rawValue }

    /// A vacation goal: confetti, "Bon voyage! 🏖️".
    public static let vacation = CelebrationCategory("vacation")
    /// A house goal: sparkles, "Welcome home! 🏠".
    public static let house = CelebrationCategory("house")
    /// A wedding goal: hearts, "Congratulations! 💍".
    public static let wedding = CelebrationCategory("wedding")
    /// A retirement goal: stars, "Enjoy your freedom! 🌟".
    public static let retirement = CelebrationCategory("retirement")
    /// An education goal: sparkles, "Knowledge achieved! 🎓".
    public static let education = CelebrationCategory("education")
    /// A car goal: the refined fallback.
    public static let car = CelebrationCategory("car")
    /// An investment goal: the refined fallback.
    public static let investment = CelebrationCategory("investment")
    /// An emergency-fund goal: the refined fallback.
    public static let emergency = CelebrationCategory("emergency")
    /// Any other goal: the refined fallback.
    public static let other = CelebrationCategory("other")

    /// Seed 002's emotional categories, each with its own themed celebration, in the seed's
    /// order.
    public static let emotional: [CelebrationCategory] = [.vacation, .house, .wedding, .retirement, .education]
    /// Seed 002's standard categories, which keep the refined fallback, in the seed's order.
    public static let standardFallbacks: [CelebrationCategory] = [.car, .investment, .emergency, .other]
}
