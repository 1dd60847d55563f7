import Foundation

/// What a notification is about (seed 004 R3.3 and R11).
public enum NotificationKind: String, CaseIterable, Hashable, Sendable, Codable {
    /// Two hours before the day ends, a habit with a streak is still open (R11.1).
    case streakAtRisk = "streak-at-risk"
    /// The daily reminder for a habit not yet done, at the time the user picked.
    case reminder
    /// A milestone reached, the moment it is (R3.3, R11.2); a retroactive one says so.
    case milestone
    /// The day after a streak broke: an encouraging restart, the best as the target (R11.3).
    case streakBroken = "streak-broken"
    /// The weekly progress of long streaks (R11.4).
    case weeklyProgress = "weekly-progress"
    /// A missed day a freeze can still cover, with the offer's deadline (strict policy).
    case freezeOffered = "freeze-offered"
    /// A freeze covered a missed day (forgiving policy, or an offer left to run out).
    case freezeUsed = "freeze-used"
    /// Friends reacted to a post (seed 004 R8.5), grouped per post and local day.
    case reaction
    /// A friend cheers on a streak at risk.
    case nudge
    /// Someone accepted an invitation: a new friend, or a new member of a subject's family.
    case friend
}

/// A notification to deliver: what it says, where it leads, the local day it belongs to,
/// when it was meant to go and after when it no longer makes sense.
///
/// Its ``key`` is what makes delivery at most once: `kind:day` (`streak-at-risk:2026-03-08`),
/// with the habit for kinds about one habit (`reminder:2026-03-08:read`), or the unlock for
/// a milestone (`milestone:u_1f…`).
public struct PlannedNotification: Hashable, Sendable, Codable {
    /// At most one notification per user and key is ever delivered.
    public var key: String
    /// What it is about.
    public var kind: NotificationKind
    /// The headline.
    public var title: String
    /// The sentence under it.
    public var body: String
    /// The web app's page it opens (`/habits/read`, `/today`).
    public var url: String
    /// The local day it belongs to.
    public var day: LocalDay
    /// The habit it is about, if one.
    public var habit: String?
    /// When it was meant to go.
    public var at: Date
    /// After this instant it no longer makes sense (an at-risk warning after the day ended):
    /// a notification found later is dropped, not sent.
    public var expires: Date

    /// Creates a notification.
    public init(
        key: String, kind: NotificationKind, title: String, body: String, url: String, day: LocalDay,
        habit: String? = nil, at: Date, expires: Date
    ) {
        self.key = key
        self.kind = kind
        self.title = title
        self.body = body
        self.url = url
        self.day = day
        self.habit = habit
        self.at = at
        self.expires = expires
    }
}
