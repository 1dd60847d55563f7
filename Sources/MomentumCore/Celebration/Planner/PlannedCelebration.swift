/// The celebration a ``CelebrationPlanner`` says to show now.
public struct PlannedCelebration: Hashable, Sendable, Codable {
    /// The unlock's id; pass it to ``CelebrationPlanner/markShown(id:at:)`` once shown.
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

    /// Creates a planned celebration.
    public init(
        id: String, unlock: Unlock, originalTier: CelebrationTier, presentedTier: CelebrationTier,
        config: CelebrationConfig, retroactive: Bool
    ) {
        self.id = id
        self.unlock = unlock
        self.originalTier = originalTier
        self.presentedTier = presentedTier
        self.config = config
        self.retroactive = retroactive
    }

    /// Whether it interrupts the user: a card or a full-screen celebration, not an inline
    /// acknowledgment.
    public var interrupts: Bool { presentedTier > .acknowledgment }
}
