import Foundation

/// An unlock waiting in a ``CelebrationPlanner``'s queue.
public struct PendingCelebration: Hashable, Sendable, Codable {
    /// The unlock to celebrate.
    public var unlock: Unlock
    /// The message the caller chose for it (personalized from a message catalog), or `nil`
    /// for the theme's own.
    public var message: String?
    /// When it was queued.
    public var enqueuedAt: Date

    /// Creates a queue entry.
    ///
    /// - Parameters:
    ///   - unlock: The unlock to celebrate.
    ///   - message: The message to show, or `nil` for the theme's own.
    ///   - enqueuedAt: When it was queued.
    public init(unlock: Unlock, message: String? = nil, enqueuedAt: Date) {
        self.unlock = unlock
        self.message = message
        self.enqueuedAt = enqueuedAt
    }

    /// The unlock's id.
    public var id: String { unlock.id }
}
