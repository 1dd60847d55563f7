import Foundation

/// Decides which celebration to show when, for one user: seed 000's tiers, user preferences,
/// fatigue limits and smart timing.
///
/// The planner is a value: the queue, the counters and the settings. Every input carries its
/// instant, and no clock is read, so the same inputs give the same answers on the phone and
/// on the server, which persists the planner per user (it is `Codable`).
///
/// Unlocks are queued first in, first out; within one ``enqueue(_:messages:at:)`` they are
/// ordered by the instant they were achieved.
///
/// **Moments.** One input often unlocks several things at once: the contribution that
/// completes a goal is also its first contribution and may cross an amount milestone. Such
/// unlocks (queued together, achieved at the same instant, by the same event or by none)
/// are one moment, and the moment's most significant celebration comes first: the highest
/// presented tier, then the highest tier earned, then the one whose category has a theme of
/// its own (the trip's confetti and "Bon voyage! 🏖️" before the savings milestone), then
/// queue order. When it is a card or a full-screen celebration, the rest of the moment
/// folds into it (``PlannedCelebration/folded``, lines in the card) and leaves the queue
/// with it, counting against no limit; when it is an inline acknowledgment, the rest follow
/// it, one acknowledgment each. While the moment's main celebration is held (Do Not
/// Disturb, a limit, a burst), the rest of the moment is not: what is due shows on its own,
/// so a held goal still gets its acknowledgment.
///
/// ``next(at:catalog:)`` returns, of the first moment with one that may be shown now, that
/// celebration:
/// - An inline acknowledgment (presented tier 1) is always due: it is not an interruption,
///   so it is not limited, not held during an active logging burst, and not held by Do Not
///   Disturb.
/// - A card (tier 2) or full-screen celebration (tier 3) is held while Do Not Disturb is on,
///   during an active logging burst (until ``CelebrationPacing/burstGap`` has passed since
///   the last action), and until ``CelebrationPacing/spacing`` has passed since the previous
///   card ended. At most ``CelebrationPacing/notablePerSession`` cards are shown per app
///   session and ``CelebrationPacing/majorPerDay`` full-screen celebrations per local day (in
///   the user's zone, with their day-start hour); the others wait for a later session or day.
///
/// The style maps the tier when a celebration is shown (full: as earned; subtle: 2 → 1,
/// 3 → 2; minimal: all 1; off: nothing). With the style off nothing is queued, but
/// ``enqueue(_:messages:at:)`` still reports which unlocks create Memories.
public struct CelebrationPlanner: Hashable, Sendable, Codable {
    /// The user's celebration settings; a change applies to what is still queued.
    public var preferences: CelebrationPreferences
    /// The fatigue limits and timing.
    public var pacing: CelebrationPacing
    /// The queued celebrations, first in first out; ``next(at:catalog:)`` delivers the first
    /// one that is due, so a held card does not hold back acknowledgments behind it.
    public internal(set) var pending: [PendingCelebration] = []
    /// Every celebration that left the queue, shown or dismissed unseen, in that order.
    public internal(set) var delivered: [DeliveredCelebration] = []
    /// The current app session's id, if one was started.
    public internal(set) var sessionID: String?
    /// When the current app session started.
    public internal(set) var sessionStartedAt: Date?
    /// The cards (presented tier 2) shown in the current app session.
    public internal(set) var notablesShownThisSession = 0
    /// The local day of the latest full-screen celebration (presented tier 3).
    public internal(set) var majorDay: LocalDay?
    /// The full-screen celebrations shown on ``majorDay``.
    public internal(set) var majorsShownOnMajorDay = 0
    /// The user's latest action (a log), which starts or extends a logging burst.
    public internal(set) var lastActivityAt: Date?
    /// When the latest card or full-screen celebration ended: its dismissal, or its showing
    /// until it is dismissed.
    public internal(set) var lastCardEndedAt: Date?
    /// When Do Not Disturb was last turned on or off through ``setDoNotDisturb(_:at:)``.
    public internal(set) var doNotDisturbChangedAt: Date?
    private var dayClock: ZonedDayClock

    /// Creates an empty planner for a user.
    ///
    /// - Parameters:
    ///   - preferences: The user's celebration settings.
    ///   - pacing: The fatigue limits and timing; seed 000's by default.
    ///   - zone: The user's time zone, which decides the local day of the tier-3 limit.
    ///   - clock: The user's day clock (their day-start hour).
    public init(
        preferences: CelebrationPreferences = .standard, pacing: CelebrationPacing = .standard,
        zone: ZoneOffsetTable, clock: DayClock
    ) {
        self.preferences = preferences
        self.pacing = pacing
        self.dayClock = ZonedDayClock(zone: zone, clock: clock)
    }

    /// The user's time zone; set it when the device reports a new one (travel).
    public var zone: ZoneOffsetTable {
        get { dayClock.zone }
        set { dayClock.zone = newValue }
    }

    /// The user's day clock (their day-start hour).
    public var clock: DayClock {
        get { dayClock.clock }
        set { dayClock.clock = newValue }
    }

    /// The user's local day at an instant, in their zone and with their day-start hour.
    ///
    /// - Parameter instant: The moment.
    /// - Returns: The local day.
    public func localDay(at instant: Date) -> LocalDay {
        dayClock.day(of: instant)
    }

    /// Queues unlocks to celebrate and reports, for each, how it will be presented and
    /// whether it creates a Memory.
    ///
    /// The batch joins the end of the queue ordered by achievement instant (ties keep the
    /// given order). An unlock already queued or in the history is left alone, so a retried
    /// request changes nothing. With the style off nothing is queued.
    ///
    /// - Parameters:
    ///   - unlocks: The new unlocks.
    ///   - messages: The message to show for an unlock, by unlock id (from a message catalog);
    ///     an unlock without one shows its theme's message.
    ///   - instant: When they were queued.
    /// - Returns: One decision per unlock, in the order given.
    @discardableResult
    public mutating func enqueue(
        _ unlocks: [Unlock], messages: [String: String] = [:], at instant: Date
    ) -> [EnqueuedUnlock] {
        var known = Set(pending.map(\.id)).union(delivered.map(\.unlockID))
        var accepted: [(offset: Int, unlock: Unlock)] = []
        let decisions = unlocks.enumerated().map { offset, unlock in
            let presented = preferences.style.presentedTier(for: unlock.tier)
            let disposition: EnqueuedUnlock.Disposition
            if known.contains(unlock.id) {
                disposition = .duplicate
            } else if presented == nil {
                disposition = .notShown
            } else {
                disposition = .queued
                known.insert(unlock.id)
                accepted.append((offset, unlock))
            }
            return EnqueuedUnlock(
                unlockID: unlock.id, originalTier: unlock.tier, presentedTier: presented,
                createsMemory: unlock.tier >= .notable, disposition: disposition)
        }
        accepted.sort { ($0.unlock.achievedAt, $0.offset) < ($1.unlock.achievedAt, $1.offset) }
        pending += accepted.map {
            PendingCelebration(unlock: $0.unlock, message: messages[$0.unlock.id], enqueuedAt: instant)
        }
        return decisions
    }

    /// Records a user action, such as logging an event: it starts or extends an active
    /// logging burst, during which no card or full-screen celebration is shown.
    ///
    /// - Parameter instant: When the user acted. An instant older than the latest action
    ///   already recorded changes nothing.
    public mutating func recordActivity(at instant: Date) {
        lastActivityAt = max(lastActivityAt ?? instant, instant)
    }

    /// Starts an app session: the tier-2 limit starts again.
    ///
    /// Starting the current session again, or a session older than the current one (inputs
    /// replayed out of order), changes nothing.
    ///
    /// - Parameters:
    ///   - id: The session's id.
    ///   - instant: When it started.
    public mutating func startSession(id: String, at instant: Date) {
        guard id != sessionID else { return }
        if let started = sessionStartedAt, instant < started { return }
        sessionID = id
        sessionStartedAt = instant
        notablesShownThisSession = 0
    }

    /// Turns Do Not Disturb on or off: while it is on, cards and full-screen celebrations are
    /// held; they become due again once it is turned off.
    ///
    /// - Parameters:
    ///   - isOn: Whether Do Not Disturb is now on.
    ///   - instant: When it changed. A change older than the latest one recorded is ignored,
    ///     so changes replayed out of order settle on the latest.
    public mutating func setDoNotDisturb(_ isOn: Bool, at instant: Date) {
        if let changed = doNotDisturbChangedAt, instant < changed { return }
        preferences.doNotDisturb = isOn
        doNotDisturbChangedAt = instant
    }
}
