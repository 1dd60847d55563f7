/// The size of a savings milestone, from the balance crossed (seed 002).
///
/// Milestone celebrations all use coins; intensity, duration and message scale with the
/// tier (see ``CelebrationCatalog/standard``).
public enum MilestoneTier: String, Hashable, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    /// $1k.
    case small
    /// $5k–$10k.
    case medium
    /// $25k.
    case large
    /// $50k–$100k.
    case epic

    /// The tier of a balance, with seed 002's boundaries: below 5,000 small, below 25,000
    /// medium, below 50,000 large, otherwise epic.
    ///
    /// As in the seed, amounts below the first $1k threshold are also `.small`: whether a
    /// milestone was crossed at all is the caller's decision. The seed is silent on NaN;
    /// Momentum treats it as `.small` rather than `.epic`.
    ///
    /// - Parameter amount: The balance, in the goal's currency units.
    /// - Returns: The milestone tier.
    public static func tier(for amount: Double) -> MilestoneTier {
        guard !amount.isNaN else { return .small }
        switch amount {
        case ..<5000: return .small
        case ..<25000: return .medium
        case ..<50000: return .large
        default: return .epic
        }
    }
}
