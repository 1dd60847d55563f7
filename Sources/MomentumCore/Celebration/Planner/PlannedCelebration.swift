/// The celebration a ``CelebrationPlanner`` says to show now.
public struct PlannedCelebration: Hashable, Sendable, Codable {
    /// The unlock's id; pass it to ``CelebrationPlanner/markShown(id:at:catalog:)`` once shown.
    public var id: String
    /// The unlock being celebrated.
    public var unlock: Unlock
    /// The tier the unlock earned.
    public var originalTier: CelebrationTier
    /// The tier it is presented as under the user's style.
    public var presentedTier: CelebrationTier
    /// Everything needed to render it, built for the unlock's category, its tier, the user's
    /// style and accessibility settings, and the caller's message.
    public var config: CelebrationConfig
    /// Whether the milestone was reached in the past (a backfill or an import), so the message
    /// should say so ("Looks like Ollie hit a 7-day streak last week!").
    public var retroactive: Bool
    /// The lesser unlocks of the same moment, most significant first, shown as lines inside
    /// this celebration; they leave the queue with it (``CelebrationPlanner/markShown(id:at:catalog:)``).
    /// Empty for an inline acknowledgment, which the rest of its moment follows instead.
    public var folded: [FoldedCelebration]

    /// Creates a planned celebration.
    public init(
        id: String, unlock: Unlock, originalTier: CelebrationTier, presentedTier: CelebrationTier,
        config: CelebrationConfig, retroactive: Bool, folded: [FoldedCelebration] = []
    ) {
        self.id = id
        self.unlock = unlock
        self.originalTier = originalTier
        self.presentedTier = presentedTier
        self.config = config
        self.retroactive = retroactive
        self.folded = folded
    }

    private enum CodingKeys: String, CodingKey {
        case id, unlock, originalTier, presentedTier, config, retroactive, folded
    }

    /// Decodes a planned celebration; one written before moments were folded has no lines.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            unlock: try container.decode(Unlock.self, forKey: .unlock),
            originalTier: try container.decode(CelebrationTier.self, forKey: .originalTier),
            presentedTier: try container.decode(CelebrationTier.self, forKey: .presentedTier),
            config: try container.decode(CelebrationConfig.self, forKey: .config),
            retroactive: try container.decode(Bool.self, forKey: .retroactive),
            folded: try container.decodeIfPresent([FoldedCelebration].self, forKey: .folded) ?? [])
    }

    /// Whether it interrupts the user: a card or a full-screen celebration, not an inline
    /// acknowledgment.
    public var interrupts: Bool { presentedTier > .acknowledgment }
}
