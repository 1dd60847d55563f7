import Foundation
import MomentumCore

/// What recording an event did on the device, at once, online or not: the engine's verdict
/// on the user's own log, the same one the server reaches when the event arrives.
public struct RecordedEvent: Sendable {
    /// The event, with its client id and instant.
    public var event: Event
    /// Whether the device already had an event with this id (a repeated call): nothing new
    /// was recorded.
    public var duplicate: Bool
    /// The habit the event is about, as it stands now (streaks, today's status, calendar),
    /// when it is about one.
    public var habit: HabitState?
    /// Diamonds and freezes after the event.
    public var wallet: Wallet
    /// Achievements the event unlocked, in the order granted.
    public var unlocks: [Unlock]
    /// The celebration message for each unlock, by unlock id.
    public var messages: [String: Message]
}
