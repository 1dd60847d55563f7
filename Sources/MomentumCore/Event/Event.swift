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
public struct Event: Hashable, Sendable {
    /// The client-generated id, unique per user.
    public var id: String
    /// When the event happened.
    public var at: Date
    /// The IANA time zone the device reported (`"America/New_York"`).
    public var timeZone: String
    /// What happened.
    public var payload: Payload

    /// Creates an event.
    public init(id: String, at: Date, timeZone: String, payload: Payload) {
        self.id = id
        self.at = at
        self.timeZone = timeZone
        self.payload = payload
    }

    /// What an event records.
    public enum Payload: Hashable, Sendable {
        /// `habit.created`: a new habit with its definition (fields of ``HabitDefinition``).
        case habitCreated(HabitDefinition)
        /// `habit.updated`: name, category, difficulty, target or policy changed from this day on.
        case habitUpdated(HabitChanges)
        /// `habit.archived`: the habit stops being tracked on this day; its history stays.
        case habitArchived(habit: String)
        /// `completion`: the habit was done (`value` adds to numeric targets, default 1). `day`
        /// backdates it to an earlier local day, within the pack's backfill window.
        case completion(habit: String, day: LocalDay?, value: Double, note: String?)
        /// `skip`: a rest day for one habit, or for all habits when `habit` is absent; it
        /// neither extends nor breaks a streak.
        case skip(habit: String?, day: LocalDay?, note: String?)
        /// `purchase`: buys freezes with diamonds, either a catalog `item` or `days` at the
        /// custom price.
        case purchase(item: String?, days: Int?)
        /// `freeze.accepted` / `freeze.declined`: the answer to a freeze offer for a missed day.
        case freezeDecision(habit: String, day: LocalDay, accepted: Bool)
        /// `removal`: withdraws an earlier event (a tombstone).
        case removal(event: String)

        /// The `type` string on the wire.
        public var type: String {
            switch self {
            case .habitCreated: "habit.created"
            case .habitUpdated: "habit.updated"
            case .habitArchived: "habit.archived"
            case .completion: "completion"
            case .skip: "skip"
            case .purchase: "purchase"
            case .freezeDecision(_, _, let accepted): accepted ? "freeze.accepted" : "freeze.declined"
            case .removal: "removal"
            }
        }

        /// The habit the event concerns, if any.
        public var habitID: String? {
            switch self {
            case .habitCreated(let definition): definition.id
            case .habitUpdated(let changes): changes.habit
            case .habitArchived(let habit), .completion(let habit, _, _, _), .freezeDecision(let habit, _, _): habit
            case .skip(let habit, _, _): habit
            case .purchase, .removal: nil
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

    /// Creates a change set.
    public init(
        habit: String, name: String? = nil, category: String? = nil, difficulty: Difficulty? = nil,
        target: Target? = nil, policy: StreakPolicy? = nil
    ) {
        self.habit = habit
        self.name = name
        self.category = category
        self.difficulty = difficulty
        self.target = target
        self.policy = policy
    }
}
