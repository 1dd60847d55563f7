import Foundation
import MomentumCore
import MomentumStore

/// The celebration to show now, if any.
public struct NextCelebrationResponse: Codable, Sendable {
    /// The celebration.
    public var celebration: PlannedCelebration?
    /// When the next one becomes due, if one is waiting.
    public var nextDelivery: Date?
    /// How many are waiting.
    public var waiting: Int
}
