/// What a habit is: its schedule, target, streak policy and presentation.
///
/// Habits are created by a `habit.created` event in the user's log, so the definition is
/// part of the history the engine replays.
public struct HabitDefinition: Hashable, Sendable, Codable {
    /// The client-chosen id, unique per user (`"read"`, a UUID, …).
    public var id: String
    /// The name shown to the user.
    public var name: String
    /// When the habit is due.
    public var schedule: Schedule
    /// What a day needs to count as done.
    public var target: Target
    /// How misses affect the streak; `nil` uses the rule pack's default policy.
    public var policy: StreakPolicy?
    /// Easy, medium or hard.
    public var difficulty: Difficulty
    /// A free-form category ("health", "potty"), used by celebrations and analytics.
    public var category: String?
    /// The group the habit is shown in ("Morning routine"), if any.
    public var group: String?
    /// The first day of a calendar week for weekly quotas.
    public var weekStart: Weekday
    /// The habit's first day; defaults to the local day it was created on. In JSON (`start`)
    /// it lies within ``EventLimits/days``.
    public var startDay: LocalDay?

    /// Creates a habit definition.
    public init(
        id: String, name: String, schedule: Schedule = .daily, target: Target = .check,
        policy: StreakPolicy? = nil, difficulty: Difficulty = .medium, category: String? = nil,
        weekStart: Weekday = .monday, startDay: LocalDay? = nil, group: String? = nil
    ) {
        self.id = id
        self.name = name
        self.schedule = schedule
        self.target = target
        self.policy = policy
        self.difficulty = difficulty
        self.category = category
        self.weekStart = weekStart
        self.startDay = startDay
        self.group = group
    }

    enum CodingKeys: String, CodingKey {
        case id = "habit", name, schedule, target, policy, difficulty, category, weekStart, startDay = "start", group
    }

    /// Decodes the value from its JSON form, described in the type's documentation.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, id: nil)
    }

    /// Decodes the value from its JSON form, taking `id` as the habit's id when the JSON
    /// has no `habit` field (a new habit whose id the server chose).
    public init(from decoder: any Decoder, id fallback: String?) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let startDay = try c.decodeIfPresent(LocalDay.self, forKey: .startDay)
        if let startDay, !EventLimits.days.contains(startDay) {
            throw DecodingError.dataCorruptedError(
                forKey: .startDay, in: c, debugDescription: EventLimits.dayMessage("start", startDay, EventLimits.days))
        }
        self.init(
            id: try fallback.flatMap { c.contains(.id) ? nil : $0 } ?? c.decode(String.self, forKey: .id),
            name: try c.decode(String.self, forKey: .name),
            schedule: try c.decodeIfPresent(Schedule.self, forKey: .schedule) ?? .daily,
            target: try c.decodeIfPresent(Target.self, forKey: .target) ?? .check,
            policy: try c.decodeIfPresent(StreakPolicy.self, forKey: .policy),
            difficulty: try c.decodeIfPresent(Difficulty.self, forKey: .difficulty) ?? .medium,
            category: try c.decodeIfPresent(String.self, forKey: .category),
            weekStart: try c.decodeIfPresent(Weekday.self, forKey: .weekStart) ?? .monday,
            startDay: startDay,
            group: try c.decodeIfPresent(String.self, forKey: .group).flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(schedule, forKey: .schedule)
        if target != .check { try c.encode(target, forKey: .target) }
        try c.encodeIfPresent(policy, forKey: .policy)
        try c.encode(difficulty, forKey: .difficulty)
        try c.encodeIfPresent(category, forKey: .category)
        if weekStart != .monday { try c.encode(weekStart, forKey: .weekStart) }
        try c.encodeIfPresent(startDay, forKey: .startDay)
        try c.encodeIfPresent(group, forKey: .group)
    }
}
