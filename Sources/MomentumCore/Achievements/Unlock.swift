import Foundation

/// An achievement unlocked by a user: one occurrence of a rule firing.
///
/// An unlock records when the milestone really happened (``achievedAt``) and when Momentum
/// noticed it (``detectedAt``). They differ for backfilled or imported events: such an
/// unlock is ``retroactive`` and is dated when the milestone happened, so a Memory lands on
/// the right day and the message can say "Looks like Ollie hit a 7-day streak last week!".
public struct Unlock: Hashable, Sendable, Codable {
    /// The occurrence's id, unique per user: the rule id, and for rules that fire more than
    /// once the occurrence's value (`walks-every-25#50`). An unlock never fires twice for
    /// the same occurrence.
    public var id: String
    /// The rule that fired.
    public var rule: String
    /// The achievement's title ("7-Day Potty Streak").
    public var title: String
    /// The achievement category (`potty`, `commands`, `socialization`, `health`,
    /// `lifestyle`, `time`, `streaks`, `savings`, `growth`, or a goal category such as
    /// `vacation`), used by celebrations, memories and filters.
    public var category: String
    /// The celebration tier the rule asks for (before the user's style is applied).
    public var tier: CelebrationTier
    /// Seed 000's `milestone_type`: `first`, `count`, `streak`, `streak_record`, `recovery`,
    /// `set_completed`, `amount`, `goal_completed`, `stage_reached`, `age`, `anniversary`,
    /// `consistency` or `combination`; `moment` for a milestone of the user's own that
    /// happens when it is defined.
    public var milestoneType: String
    /// The milestone's number, when it has one (7 for a 7-day streak, 50 for 50 walks).
    public var value: Double?
    /// When the milestone really happened.
    public var achievedAt: Date
    /// The local day it happened on.
    public var achievedDay: LocalDay
    /// When Momentum detected it.
    public var detectedAt: Date
    /// Whether it was detected later than it happened (a backfill or an import).
    public var retroactive: Bool
    /// The subject it belongs to (a puppy, a saver), if any.
    public var subject: String?
    /// The habit it belongs to, if any.
    public var habit: String?
    /// The event that completed it, if any.
    public var event: String?
    /// A badge: an emoji or a short text.
    public var badge: String?
    /// Context values for messages and captions (`name`, `habit`, `item`, `goal`, `stage`,
    /// `count`, …).
    public var context: [String: String]

    /// Creates an unlock.
    public init(
        id: String, rule: String, title: String, category: String, tier: CelebrationTier, milestoneType: String,
        value: Double? = nil, achievedAt: Date, achievedDay: LocalDay, detectedAt: Date, retroactive: Bool,
        subject: String? = nil, habit: String? = nil, event: String? = nil, badge: String? = nil,
        context: [String: String] = [:]
    ) {
        self.id = id
        self.rule = rule
        self.title = title
        self.category = category
        self.tier = tier
        self.milestoneType = milestoneType
        self.value = value
        self.achievedAt = achievedAt
        self.achievedDay = achievedDay
        self.detectedAt = detectedAt
        self.retroactive = retroactive
        self.subject = subject
        self.habit = habit
        self.event = event
        self.badge = badge
        self.context = context
    }
}

/// Someone or something achievements are about: the puppy, the saver, the user.
///
/// Time-based rules (weeks old, monthly birthdays, gotcha day) read its dates, and messages
/// use its name ("Looks like Ollie hit a 7-day streak last week!").
public struct Subject: Hashable, Sendable, Codable {
    /// The client-chosen id (`ollie`).
    public var id: String
    /// The name shown in messages.
    public var name: String
    /// What it is (`puppy`, `saver`, `user`).
    public var kind: String
    /// Named dates: `born`, `gotcha` (the day the puppy came home), `started`, …
    public var dates: [String: LocalDay]
    /// Its photo: the path of an uploaded photo under ``photoDirectory``
    /// (`subjects/p_3f9a.jpg`), served at `/v1/photos/<path>`.
    ///
    /// In a `subject` event, `nil` keeps the photo the subject had (an edit of its name or
    /// dates leaves the photo alone) and an empty string removes it; the subject the engine
    /// holds never has an empty one.
    public var photo: String?

    /// The directory every subject photo lives in, with its trailing slash.
    public static let photoDirectory = "subjects/"

    /// Creates a subject.
    public init(
        id: String, name: String, kind: String = "user", dates: [String: LocalDay] = [:], photo: String? = nil
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.dates = dates
        self.photo = photo
    }

    /// The subject after a `subject` event that carries `update`: its name, kind and dates,
    /// and the photo as ``photo`` says (kept when the event names none, removed when it
    /// names an empty one).
    public func updated(by update: Subject) -> Subject {
        var next = update
        switch update.photo {
        case nil: next.photo = photo
        case ""?: next.photo = nil
        default: break
        }
        return next
    }
}
