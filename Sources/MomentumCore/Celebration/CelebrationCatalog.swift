/// Every theme and tier presentation a celebration is built from: data, not code branches
/// (seed 002's "Celebrations are driven by data").
///
/// ``standard`` holds seed 002's tables and seed 000's tiers as literal values. A rule pack
/// may replace it with its own catalog decoded from JSON; categories are objects keyed by
/// name, milestones by tier name and tiers by number (`"1"`, `"2"`, `"3"`). Build configs
/// with ``config(category:tier:style:accessibility:message:)-swift.method`` and
/// ``config(milestone:tier:style:accessibility:message:)-swift.method``.
public struct CelebrationCatalog: Hashable, Sendable, Codable {
    /// The theme of each category that has its own.
    public var categories: [CelebrationCategory: CelebrationTheme]
    /// The theme of a category the catalog does not list.
    public var fallback: CelebrationTheme
    /// The theme of each milestone tier.
    public var milestones: [MilestoneTier: CelebrationTheme]
    /// The presentation of each celebration tier; a tier not listed uses
    /// ``CelebrationTierPresentation/standard(for:)``.
    public var tiers: [CelebrationTier: CelebrationTierPresentation]
    /// What assistive technologies announce when a celebration has no message of its own.
    public var defaultAnnouncement: String

    /// Creates a catalog.
    public init(
        categories: [CelebrationCategory: CelebrationTheme], fallback: CelebrationTheme,
        milestones: [MilestoneTier: CelebrationTheme],
        tiers: [CelebrationTier: CelebrationTierPresentation] = CelebrationCatalog.standardTiers,
        defaultAnnouncement: String
    ) {
        self.categories = categories
        self.fallback = fallback
        self.milestones = milestones
        self.tiers = tiers
        self.defaultAnnouncement = defaultAnnouncement
    }

    /// The theme of a category: its own, or ``fallback``.
    ///
    /// - Parameter category: The category.
    /// - Returns: The theme.
    public func theme(for category: CelebrationCategory) -> CelebrationTheme {
        categories[category] ?? fallback
    }

    /// The theme of a milestone tier: its own, or ``fallback``.
    ///
    /// - Parameter milestone: The milestone tier.
    /// - Returns: The theme.
    public func theme(for milestone: MilestoneTier) -> CelebrationTheme {
        milestones[milestone] ?? fallback
    }

    /// The presentation of a celebration tier: the catalog's, or seed 000's.
    ///
    /// - Parameter tier: The presented tier.
    /// - Returns: The presentation.
    public func presentation(for tier: CelebrationTier) -> CelebrationTierPresentation {
        tiers[tier] ?? .standard(for: tier)
    }

    /// Seed 000's presentation of every tier.
    public static let standardTiers: [CelebrationTier: CelebrationTierPresentation] = Dictionary(
        uniqueKeysWithValues: CelebrationTier.allCases.map { ($0, .standard(for: $0)) })
}
