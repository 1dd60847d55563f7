/// A lesser unlock of a moment, shown as a line inside the moment's main celebration rather
/// than as a celebration of its own (see ``CelebrationPlanner``, "Moments").
///
/// The contribution that completes a goal is also its first contribution: the goal's
/// full-screen celebration shows "First contribution to Bali! 💰" as one of its lines.
public struct FoldedCelebration: Hashable, Sendable, Codable {
    /// The unlock's id; it leaves the queue with the celebration it is folded into.
    public var id: String
    /// The achievement's title ("First contribution to Bali").
    public var title: String
    /// The message chosen for it when it was queued, or its title when it has none.
    public var message: String
    /// The achievement's badge (an emoji or a short text), if it has one.
    public var badge: String?
    /// The tier the unlock earned.
    public var originalTier: CelebrationTier

    /// Creates a folded line.
    ///
    /// - Parameters:
    ///   - id: The unlock's id.
    ///   - title: The achievement's title.
    ///   - message: The message to show.
    ///   - badge: The achievement's badge, if any.
    ///   - originalTier: The tier the unlock earned.
    public init(id: String, title: String, message: String, badge: String?, originalTier: CelebrationTier) {
        self.id = id
        self.title = title
        self.message = message
        self.badge = badge
        self.originalTier = originalTier
    }
}
