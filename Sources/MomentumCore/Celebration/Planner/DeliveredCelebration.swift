import Foundation

/// One entry of a ``CelebrationPlanner``'s history: an unlock that left the queue, shown or
/// dismissed unseen.
public struct DeliveredCelebration: Hashable, Sendable, Codable {
    /// The unlock's id.
    public var unlockID: String
    /// The tier the unlock earned.
    public var originalTier: CelebrationTier
    /// The tier it was presented as under the style of the moment, or `nil` if the style was
    /// off.
    public var presentedTier: CelebrationTier?
    /// Whether the unlock was retroactive.
    public var retroactive: Bool
    /// The app session it left the queue in, if a session had been started.
    public var sessionID: String?
    /// When it was shown; `nil` if it was dismissed without being shown.
    public var shownAt: Date?
    /// The user's local day when it was shown.
    public var shownDay: LocalDay?
    /// When it was dismissed, if it was.
    public var dismissedAt: Date?
    /// The unlock whose celebration it was shown in, as a line, when it was folded into
    /// another of its moment; such an entry counts against no limit.
    public var foldedInto: String?

    /// Creates a history entry.
    public init(
        unlockID: String, originalTier: CelebrationTier, presentedTier: CelebrationTier?, retroactive: Bool,
        sessionID: String?, shownAt: Date?, shownDay: LocalDay?, dismissedAt: Date?, foldedInto: String? = nil
    ) {
        self.unlockID = unlockID
        self.originalTier = originalTier
        self.presentedTier = presentedTier
        self.retroactive = retroactive
        self.sessionID = sessionID
        self.shownAt = shownAt
        self.shownDay = shownDay
        self.dismissedAt = dismissedAt
        self.foldedInto = foldedInto
    }

    /// Whether it was shown (rather than dismissed from the queue unseen).
    public var wasShown: Bool { shownAt != nil }
}
