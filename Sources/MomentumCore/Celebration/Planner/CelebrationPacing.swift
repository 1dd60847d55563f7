import Foundation

/// The fatigue limits and timing of a ``CelebrationPlanner`` (seed 000, "Celebration Fatigue
/// Prevention" and "Smart Timing").
///
/// The limits count celebrations by the tier they are *presented* as, after the user's style:
/// under the subtle style a tier-3 unlock shown as a card counts against the tier-2 limit.
/// Inline acknowledgments (presented tier 1) are never limited, delayed or spaced.
public struct CelebrationPacing: Hashable, Sendable, Codable {
    /// The quiet period that ends an active logging burst: a card or full-screen celebration
    /// waits until this long has passed since the user's last action (30 seconds).
    public var burstGap: TimeInterval
    /// The least time between two cards or full-screen celebrations, counted from the end of
    /// the previous one: its dismissal, or its showing if it was not dismissed (60 seconds).
    public var spacing: TimeInterval
    /// How many tier-2 cards one app session may show (1).
    public var notablePerSession: Int
    /// How many tier-3 full-screen celebrations one local day may show (1).
    public var majorPerDay: Int

    /// Creates pacing rules; negative values are raised to zero.
    ///
    /// - Parameters:
    ///   - burstGap: The quiet period after the last action, in seconds.
    ///   - spacing: The least time between two cards or full-screen celebrations, in seconds.
    ///   - notablePerSession: The number of tier-2 cards per app session.
    ///   - majorPerDay: The number of tier-3 celebrations per local day.
    public init(
        burstGap: TimeInterval = 30, spacing: TimeInterval = 60, notablePerSession: Int = 1, majorPerDay: Int = 1
    ) {
        self.burstGap = max(0, burstGap)
        self.spacing = max(0, spacing)
        self.notablePerSession = max(0, notablePerSession)
        self.majorPerDay = max(0, majorPerDay)
    }

    /// Seed 000's limits with Momentum's timings: 30 s of quiet, 60 s between cards, one
    /// tier 2 per session, one tier 3 per day.
    public static let standard = CelebrationPacing()
}
