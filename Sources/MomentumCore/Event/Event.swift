import Foundation

/// One entry of a user's event log — the only input the engine has.
///
/// Every derived value (streaks, calendars, wallet, unlocks) is a pure function of the log
/// and the current instant. Each event carries a client-generated ``id`` (so a retried
/// upload is recognised), the instant it happened (``at``) and the IANA zone the device
/// was in (``timeZone``), which together decide its local day.
///
/// On the wire an event is one flat JSON object per line (JSONL); see ``Event/Payload`` for
/// the `type`s and their fields.
///
/// ## Events from the future
///
/// An event may come from a device newer than this engine: of a `type` it does not know
/// (``Payload/unknown(type:)``), or with fields its type does not have. Such an event is
/// kept, not refused: what the engine does not understand is held in ``unknownFields`` and
/// written back when the event is encoded, so that it is stored, pulled and exported as the
/// device sent it, and a later engine that knows it applies it from history. An event of an
/// unknown type changes nothing here: no streak, no wallet, no achievement. Only its
/// envelope (`id`, `at`, `tz`) is checked, and what it carries is bounded
/// (``EventLimits/maximumUnknownFields`` and the bounds beside it).
public struct Event: Hashable, Sendable {
    /// The client-generated id, unique per user.
    public var id: String
    /// When the event happened.
    public var at: Date
    /// The IANA time zone the device reported (`"America/New_York"`).
    public var timeZone: String
    /// What happened.
    public var payload: Payload
    /// The fields this engine does not know, by name, as the device sent them: every field
    /// of an event of an unknown type besides `id`, `type`, `at` and `tz`, and the fields a
    /// known type does not have (a newer device's, or a misspelt one). Encoding writes them
    /// back; a name that is the envelope's or a field of the event's own (known) type is not
    /// written.
    public var unknownFields: [String: FieldValue]

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - id: The client-generated id.
    ///   - at: When it happened.
    ///   - timeZone: The IANA zone of the device.
    ///   - payload: What happened.
    ///   - unknownFields: Fields kept for a later engine (``unknownFields``).
    public init(
        id: String, at: Date, timeZone: String, payload: Payload, unknownFields: [String: FieldValue] = [:]
    ) {
        self.id = id
        self.at = at
        self.timeZone = timeZone
        self.payload = payload
        self.unknownFields = unknownFields
    }

    /// What an event records.
    public enum Payload: Hashable, Sendable {
        /// `habit.created`: a new habit with its definition (fields of ``HabitDefinition``).
        case habitCreated(HabitDefinition)
        /// `habit.updated`: name, category, difficulty, target, policy or schedule changed from
        /// this day on.
        case habitUpdated(HabitChanges)
        /// `habit.archived`: the habit stops being tracked on this day; its history stays.
        case habitArchived(habit: String)
        /// `habit.unarchived`: an archived habit is tracked again from this day; the days it
        /// was archived show as such and neither extend nor break its streak.
        case habitUnarchived(habit: String)
        /// `order`: the order habits are shown in (drag and drop): these first, in this
        /// order, the others after them in creation order. The latest one holds.
        case order(habits: [String])
        /// `completion`: the habit was done (`value` adds to numeric targets, default 1). `day`
        /// backdates it to an earlier local day, within the pack's backfill window.
        case completion(habit: String, day: LocalDay?, value: Double, note: String?)
        /// `skip`: a rest day for one habit, or for all habits when `habit` is absent; it
        /// neither extends nor breaks a streak.
        case skip(habit: String?, day: LocalDay?, note: String?)
        /// `pause`: a vacation — the days `from` through `until` of one habit, or of all habits
        /// when `habit` is absent, neither extend nor break a streak and spend no freeze. A
        /// pause may begin no earlier than the pack's backfill window for completions allows.
        case pause(Pause)
        /// `resume`: ends the pause `pause` early: from the local day of this event on, its
        /// days are no longer paused (the days before stay paused).
        case resume(pause: String)
        /// `purchase`: buys freezes with diamonds, either a catalog `item` or `days` at the
        /// custom price.
        case purchase(item: String?, days: Int?)
        /// `freeze.accepted` / `freeze.declined`: the answer to a freeze offer for a missed day.
        case freezeDecision(habit: String, day: LocalDay, accepted: Bool)
        /// `removal`: withdraws an earlier event (a tombstone).
        case removal(event: String)
        /// `subject`: creates or updates a subject (the puppy, the saver) with its name, kind
        /// and named dates (`born`, `gotcha`).
        case subject(Subject)
        /// `log`: something happened that achievements count — a potty break, a command
        /// learned, a dog met, a vaccination, a walk (fields of ``Activity``).
        case activity(Activity)
        /// `goal`: creates or updates a savings goal with its category and target amount.
        case goal(SavingsGoal)
        /// `contribution`: money put towards a goal.
        case contribution(goal: String, amount: Double, day: LocalDay?, note: String?)
        /// `stage`: advancement to a stage of a progression method (seed 001).
        case stage(method: String, from: String?, to: String, note: String?)
        /// `milestone`: defines or edits a milestone of the user's own (fields of
        /// ``CustomMilestone``).
        case milestone(CustomMilestone)
        /// `milestone.deleted`: deletes the milestone of the user's own `milestone`; its unlock,
        /// if it happened, stays. Defining the id again makes a new milestone.
        case milestoneDeleted(milestone: String)
        /// `grant`: an operator gives diamonds and freezes (fields of ``Grant``). Server only.
        case grant(Grant)
        /// `rewards.kept`: the rewards earned under a pack's earlier rules, kept when a new
        /// version is activated (fields of ``KeptRewards``). Server only.
        case rewardsKept(KeptRewards)
        /// `amnesty`: an outage window whose days are covered (fields of ``Amnesty``). Server
        /// only.
        case amnesty(Amnesty)
        /// `amnesty.lifted`: undoes the amnesty `id` as if it never was. Server only.
        case amnestyLifted(id: String)
        /// An event of a `type` this engine does not know, from a newer device: kept as
        /// sent, its fields in ``Event/unknownFields``, and changing nothing. A later
        /// engine that knows the type applies it from history.
        case unknown(type: String)

        /// Whether only the server may write an event of this type (``grant(_:)``,
        /// ``rewardsKept(_:)``, ``amnesty(_:)``, ``amnestyLifted(id:)``): a device or a server
        /// key that sends one is refused (`server_only_event`); the server's own append path
        /// writes them.
        public var isServerAuthored: Bool {
            switch self {
            case .grant, .rewardsKept, .amnesty, .amnestyLifted: true
            default: false
            }
        }

        /// The event types only the server may write (``isServerAuthored``).
        public static let serverAuthoredTypes: Set<String> = ["grant", "rewards.kept", "amnesty", "amnesty.lifted"]

        /// Whether the event's type is one this engine does not know.
        public var isUnknown: Bool {
            if case .unknown = self { true } else { false }
        }

        /// The `type` string on the wire.
        public var type: String {
            switch self {
            case .habitCreated: "habit.created"
            case .habitUpdated: "habit.updated"
            case .habitArchived: "habit.archived"
            case .habitUnarchived: "habit.unarchived"
            case .order: "order"
            case .completion: "completion"
            case .skip: "skip"
            case .pause: "pause"
            case .resume: "resume"
            case .purchase: "purchase"
            case .freezeDecision(_, _, let accepted): accepted ? "freeze.accepted" : "freeze.declined"
            case .removal: "removal"
            case .subject: "subject"
            case .activity: "log"
            case .goal: "goal"
            case .contribution: "contribution"
            case .stage: "stage"
            case .milestone: "milestone"
            case .milestoneDeleted: "milestone.deleted"
            case .grant: "grant"
            case .rewardsKept: "rewards.kept"
            case .amnesty: "amnesty"
            case .amnestyLifted: "amnesty.lifted"
            case .unknown(let type): type
            }
        }

        /// The habit the event concerns, if any.
        public var habitID: String? {
            switch self {
            case .habitCreated(let definition): definition.id
            case .habitUpdated(let changes): changes.habit
            case .habitArchived(let habit), .habitUnarchived(let habit), .completion(let habit, _, _, _),
                .freezeDecision(let habit, _, _):
                habit
            case .skip(let habit, _, _): habit
            case .pause(let pause): pause.habit
            case .purchase, .removal, .subject, .activity, .goal, .contribution, .stage, .resume, .order, .milestone,
                .milestoneDeleted, .grant, .rewardsKept, .amnesty, .amnestyLifted, .unknown:
                nil
            }
        }
    }
}

/// The fields a `habit.updated` event may change; absent fields stay as they were.
public struct HabitChanges: Hashable, Sendable {
    /// The habit being changed.
    public var habit: String
    /// A new name.
    public var name: String?
    /// A new category.
    public var category: String?
    /// A new difficulty.
    public var difficulty: Difficulty?
    /// A new daily target.
    public var target: Target?
    /// A new streak policy.
    public var policy: StreakPolicy?
    /// A new schedule, in force from the start of the event's local day: the days before
    /// keep the old one (see ``Schedule`` for how the streak carries across).
    public var schedule: Schedule?
    /// A new group; `""` takes the habit out of its group.
    public var group: String?

    /// Creates a change set.
    public init(
        habit: String, name: String? = nil, category: String? = nil, difficulty: Difficulty? = nil,
        target: Target? = nil, policy: StreakPolicy? = nil, schedule: Schedule? = nil, group: String? = nil
    ) {
        self.habit = habit
        self.name = name
        self.category = category
        self.difficulty = difficulty
        self.target = target
        self.policy = policy
        self.schedule = schedule
        self.group = group
    }
}

/// A pause (vacation): `{"type": "pause", "habit": "run", "from": "2026-12-20", "until":
/// "2027-01-03", "note": "Lisbon"}`; without `habit` it pauses every habit.
public struct Pause: Hashable, Sendable {
    /// The habit paused, or `nil` for all habits.
    public var habit: String?
    /// The first paused day.
    public var from: LocalDay
    /// The last paused day (at most ``EventLimits/maximumPauseDays`` after `from`).
    public var until: LocalDay
    /// The user's note ("Lisbon", "flu").
    public var note: String?

    /// Creates a pause.
    public init(habit: String? = nil, from: LocalDay, until: LocalDay, note: String? = nil) {
        self.habit = habit
        self.from = from
        self.until = until
        self.note = note
    }
}

/// Something that happened, logged for achievements: `{"type": "log", "kind": "potty",
/// "item": "outdoor"}`, `{"kind": "command", "item": "sit"}`, `{"kind": "social", "group":
/// "vehicles", "item": "bus"}`, `{"kind": "weight", "value": 12.5}`.
public struct Activity: Hashable, Sendable {
    /// What kind of thing happened (`potty`, `command`, `social`, `vaccination`, `walk`, …).
    public var kind: String
    /// Which one (`outdoor`, `sit`, `bus`, `rabies`), if it matters.
    public var item: String?
    /// A group of items (`vehicles`, `surfaces`, `dogs`), if any.
    public var group: String?
    /// A number (a weight, a distance), if any.
    public var value: Double?
    /// The subject it concerns, if any.
    public var subject: String?
    /// An earlier local day it happened on (journals accept any past day).
    public var day: LocalDay?
    /// The user's note.
    public var note: String?

    /// Creates an activity.
    public init(
        kind: String, item: String? = nil, group: String? = nil, value: Double? = nil, subject: String? = nil,
        day: LocalDay? = nil, note: String? = nil
    ) {
        self.kind = kind
        self.item = item
        self.group = group
        self.value = value
        self.subject = subject
        self.day = day
        self.note = note
    }
}

/// A savings goal (seed 002): `{"type": "goal", "goal": "hawaii", "name": "Hawaii",
/// "category": "vacation", "target": 5000}`.
public struct SavingsGoal: Hashable, Sendable {
    /// The client-chosen id.
    public var id: String
    /// The name shown to the user.
    public var name: String
    /// Seed 002's goal category (`vacation`, `house`, `wedding`, `retirement`, `education`,
    /// `car`, `investment`, `emergency`, `other`).
    public var category: String
    /// The amount that completes the goal.
    public var target: Double

    /// Creates a goal.
    public init(id: String, name: String, category: String = "other", target: Double) {
        self.id = id
        self.name = name
        self.category = category
        self.target = target
    }
}
