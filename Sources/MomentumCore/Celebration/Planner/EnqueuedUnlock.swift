/// What ``CelebrationPlanner/enqueue(_:messages:at:)`` decided for one unlock.
///
/// The style decides only whether and how the unlock is *shown*: ``createsMemory`` depends on
/// the tier the unlock earned, so with the style off the caller still creates the Memories of
/// tier-2 and tier-3 unlocks.
public struct EnqueuedUnlock: Hashable, Sendable, Codable {
    /// What happened to the unlock.
    public enum Disposition: String, Hashable, Sendable, Codable {
        /// It was added to the queue.
        case queued
        /// The style is off: it is not queued and will not be shown.
        case notShown
        /// It is already queued or in the history (a retried request): nothing changed.
        case duplicate
    }

    /// The unlock's id.
    public var unlockID: String
    /// The tier the unlock earned.
    public var originalTier: CelebrationTier
    /// The tier it is presented as under the current style, or `nil` when the style is off.
    public var presentedTier: CelebrationTier?
    /// Whether the unlock creates a Memory: its earned tier is 2 or 3, whatever the style.
    public var createsMemory: Bool
    /// What happened to it.
    public var disposition: Disposition

    /// Creates a decision.
    public init(
        unlockID: String, originalTier: CelebrationTier, presentedTier: CelebrationTier?, createsMemory: Bool,
        disposition: Disposition
    ) {
        self.unlockID = unlockID
        self.originalTier = originalTier
        self.presentedTier = presentedTier
        self.createsMemory = createsMemory
        self.disposition = disposition
    }
}
