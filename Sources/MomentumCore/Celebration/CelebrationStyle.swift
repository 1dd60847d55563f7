/// The user's "Celebration style" setting (seed 000, "User Preferences").
///
/// The style changes how an unlock is *presented*, never whether it is recorded: with
/// ``off`` achievements are still tracked in Memories.
public enum CelebrationStyle: String, Hashable, Sendable, Codable, CaseIterable {
    /// Full celebrations, the default: every tier as designed.
    case full
    /// Subtle only: tier 2 is presented as tier 1 and tier 3 as tier 2.
    case subtle
    /// Minimal: every celebration is presented as tier 1, themed particles are ignored and the
    /// refined visual style is used (seed 002, "Minimal mode").
    case minimal
    /// Off: no celebration is shown.
    case off

    /// The tier a celebration of `tier` is shown as under this style.
    ///
    /// - Parameter tier: The tier the unlock earned.
    /// - Returns: The tier to present, or `nil` when the style shows no celebration at all.
    public func presentedTier(for tier: CelebrationTier) -> CelebrationTier? {
        switch self {
        case .full: tier
        case .subtle:
            switch tier {
            case .acknowledgment, .notable: .acknowledgment
            case .major: .notable
            }
        case .minimal: .acknowledgment
        case .off: nil
        }
    }

    /// Whether a theme's particles are dropped whatever the tier (seed 002: in minimal mode
    /// "`particleConfig` ignored").
    public var ignoresParticles: Bool { self == .minimal }
}
