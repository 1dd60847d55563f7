import Foundation

/// An achievement declared in a rule pack: data, never code.
///
/// Every rule has an `id`, a `kind`, a `title` (placeholders `{value}`, `{item}`, `{habit}`,
/// `{name}`, `{goal}`, `{stage}` are filled from the unlock), a `category`, a celebration
/// `tier` (1–3) and an optional `badge`. The other fields depend on the kind:
///
/// | kind | fires | fields |
/// |---|---|---|
/// | `first` | on the first matching event | `match` |
/// | `count` | when matching events (or a habit's done days) reach each of `at`, or every `every` | `match`, `at`, `every`, `source`, `habit` |
/// | `distinctCount` | when distinct values of `field` reach `at` / every `every` (from `minimum`) | `match`, `field`, `at`, `every`, `minimum` |
/// | `streak` | when a streak reaches each of `at`, or every `every` | `source`, `match`, `breaks`, `habit` |
/// | `personalBest` | once per run, when a streak passes the previous best (which must be ≥ `minimum`) | as `streak` |
/// | `recovery` | once per run after a break, when the new streak reaches `at[0]` | as `streak` |
/// | `setCompleted` | when every one of `items` has been seen | `match`, `field`, `items` |
/// | `amount` | when the total of contributions (or of matching `value`s) crosses each of `at` | `match`, `at`, `every` |
/// | `goalCompleted` | when a goal's contributions reach its target | `goalCategory` (optional) |
/// | `stageReached` | on an advance to `stage` (any stage when absent) of `method` | `method`, `stage` |
/// | `age` | when a subject's age since `date` reaches each of `at` / every `every` `unit`s | `subject`, `date`, `unit`, `at`, `every`, `minimum`, `maximum` |
/// | `consistency` | once per run of `days` consecutive complete days | `source`, `require`, `days` |
/// | `combination` | at the age `at[0]` `unit`s, if `coverage` holds then | `subject`, `date`, `unit`, `at`, `coverage` |
/// | `moment` | once, at the `milestone` event that defines it (``CustomMilestone`` only) | |
///
/// A streak's `source` is `log` (consecutive local days with a `match`ing event and no
/// `breaks` event) or `habit` (a habit's streak from the engine; `habit` narrows it to one).
/// A count's `source` is `log` (matching events) or `habit` (the days a habit was done, every
/// habit's or `habit`'s). A consistency day is complete when every kind in `require` was logged (`log`) or every
/// habit due that day was done (`habit`).
///
/// Any rule may name others it `requires` (`"requires": ["first-walk", "streak-7"]`, ids of
/// rules of the same pack): its unlock is held until every rule it requires has unlocked at
/// least once. When its own condition is met first, it unlocks at the moment the last of
/// them unlocks (on the same event, right after it), with the value it was met with; when
/// they have all unlocked already, it unlocks as it would without them. Each occurrence of
/// a repeated rule (`at: [10, 20]`) is held and released on its own.
public struct AchievementRule: Hashable, Sendable, Codable {
    /// The kinds of rule.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case first, count, distinctCount, streak, personalBest, recovery, setCompleted, amount, goalCompleted
        case stageReached, age, consistency, combination, moment
    }

    /// Where a streak or consistency rule reads its days from.
    public enum Source: String, Hashable, Sendable, Codable {
        /// Logged activities.
        case log
        /// The engine's habit streaks.
        case habit
    }

    /// Time units for age rules.
    public enum Unit: String, Hashable, Sendable, Codable {
        case days, weeks, months, years
    }

    /// Which events a rule counts. Absent fields match anything.
    public struct Match: Hashable, Sendable, Codable {
        /// The event type: `log` (default), `contribution` or `stage`.
        public var type: String?
        /// An activity's `kind`.
        public var kind: String?
        /// An activity's `item`.
        public var item: String?
        /// An activity's `group`.
        public var group: String?
        /// The subject.
        public var subject: String?

        private enum CodingKeys: String, CodingKey, CaseIterable { case type, kind, item, group, subject }

        /// The fields of its JSON object, for an upload's check of unknown fields.
        static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

        /// Creates a match.
        public init(
            type: String? = nil, kind: String? = nil, item: String? = nil, group: String? = nil,
            subject: String? = nil
        ) {
            self.type = type
            self.kind = kind
            self.item = item
            self.group = group
            self.subject = subject
        }
    }

    /// A coverage condition: the share of `items` (or of `total`) seen among matching events.
    public struct Coverage: Hashable, Sendable, Codable {
        /// The events that count.
        public var match: Match
        /// The field whose distinct values count (`item` or `group`).
        public var field: String?
        /// The values to cover; when absent, `total` distinct values.
        public var items: [String]?
        /// How many distinct values make 100% when `items` is absent.
        public var total: Int?
        /// The share needed, 0…1.
        public var atLeast: Double

        private enum CodingKeys: String, CodingKey, CaseIterable { case match, field, items, total, atLeast }

        /// The fields of its JSON object, for an upload's check of unknown fields.
        static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

        /// Creates a coverage condition.
        public init(match: Match, field: String? = nil, items: [String]? = nil, total: Int? = nil, atLeast: Double) {
            self.match = match
            self.field = field
            self.items = items
            self.total = total
            self.atLeast = atLeast
        }
    }

    /// The rule's id, unique in its pack.
    public var id: String
    /// The kind.
    public var kind: Kind
    /// The title, with placeholders; for a title that shows `{value}`, its `other` form.
    public var title: String
    /// For a title that shows `{value}`, its forms for the other plural categories of the
    /// pack's language (`{"one": "Sustained hard habit: {value} {unit} of {habit}"}`); see
    /// ``title(for:plurals:)``.
    public var titleForms: [PluralCategory: String]?
    /// The achievement category.
    public var category: String
    /// The celebration tier.
    public var tier: CelebrationTier
    /// A badge: an emoji or a short text.
    public var badge: String?
    /// Which events count.
    public var match: Match?
    /// Which events break a `log` streak.
    public var breaks: Match?
    /// The field whose distinct values count (`item` by default, or `group`).
    public var field: String?
    /// Thresholds.
    public var at: [Double]?
    /// Fire at every multiple of this.
    public var every: Double?
    /// The smallest value that fires (`every` rules), or the smallest previous best
    /// (`personalBest`), or the smallest age (`age`).
    public var minimum: Double?
    /// The largest age that fires (`age`).
    public var maximum: Double?
    /// The values a set needs (`setCompleted`).
    public var items: [String]?
    /// Where streaks and consistency come from.
    public var source: Source?
    /// One habit, for `habit` sources.
    public var habit: String?
    /// The activity kinds a complete day needs (`consistency` with a `log` source).
    public var require: [String]?
    /// The run length (`consistency`).
    public var days: Int?
    /// The subject (`age`, `combination`); the first subject when absent.
    public var subject: String?
    /// The subject's date to count from (`born`, `gotcha`).
    public var date: String?
    /// The unit of ages.
    public var unit: Unit?
    /// Whether ages reached before the subject was added also fire (default false).
    public var includePast: Bool?
    /// The coverage condition (`combination`).
    public var coverage: Coverage?
    /// The progression method (`stageReached`).
    public var method: String?
    /// The stage (`stageReached`).
    public var stage: String?
    /// Only goals of this category (`goalCompleted`).
    public var goalCategory: String?
    /// Only habits of this difficulty (`habit` sources).
    public var difficulty: Difficulty?
    /// The ids of the rules that must have unlocked before this one unlocks (see above).
    public var requires: [String]?

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, kind, title, titleForms, category, tier, badge, match, breaks, field, at, every, minimum, maximum
        case items, source, habit, require, days, subject, date, unit, includePast, coverage, method, stage
        case goalCategory, difficulty, requires
    }

    /// The fields of a rule's JSON object, for an upload's check of unknown fields.
    static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Creates a rule.
    public init(
        id: String, kind: Kind, title: String, category: String, tier: CelebrationTier, badge: String? = nil,
        match: Match? = nil, breaks: Match? = nil, field: String? = nil, at: [Double]? = nil, every: Double? = nil,
        minimum: Double? = nil, maximum: Double? = nil, items: [String]? = nil, source: Source? = nil,
        habit: String? = nil, require: [String]? = nil, days: Int? = nil, subject: String? = nil, date: String? = nil,
        unit: Unit? = nil, includePast: Bool? = nil, coverage: Coverage? = nil, method: String? = nil,
        stage: String? = nil, goalCategory: String? = nil, difficulty: Difficulty? = nil,
        titleForms: [PluralCategory: String]? = nil, requires: [String]? = nil
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.titleForms = titleForms
        self.category = category
        self.tier = tier
        self.badge = badge
        self.match = match
        self.breaks = breaks
        self.field = field
        self.at = at
        self.every = every
        self.minimum = minimum
        self.maximum = maximum
        self.items = items
        self.source = source
        self.habit = habit
        self.require = require
        self.days = days
        self.subject = subject
        self.date = date
        self.unit = unit
        self.includePast = includePast
        self.coverage = coverage
        self.method = method
        self.stage = stage
        self.goalCategory = goalCategory
        self.difficulty = difficulty
        self.requires = requires
    }

    /// The reason the rule cannot work, naming the field, or `nil` when it is valid.
    public var problem: (field: String, reason: String)? {
        func positive(_ values: [Double]?) -> Bool { values?.allSatisfy { $0 > 0 && $0.isFinite } ?? true }
        if id.isEmpty { return ("id", "must not be empty") }
        if !positive(at) { return ("at", "thresholds must be positive numbers") }
        if let every, every <= 0 || !every.isFinite { return ("every", "must be a positive number") }
        switch kind {
        case .first:
            if match == nil { return ("match", "a first rule needs a match") }
        case .count, .distinctCount, .amount:
            if kind != .amount, match == nil, !(kind == .count && source == .habit) {
                return ("match", "a \(kind.rawValue) rule needs a match (or, for a count, source habit)")
            }
            if let type = match?.type, !["log", "contribution"].contains(type) {
                return ("match.type", "is log or contribution")
            }
            if at == nil, every == nil { return ("at", "needs thresholds (at) or every") }
        case .streak, .personalBest, .recovery:
            if (source ?? .log) == .log, match == nil { return ("match", "a log streak needs a match") }
            if kind != .personalBest, at == nil, every == nil { return ("at", "needs thresholds (at) or every") }
        case .setCompleted:
            if match == nil { return ("match", "a set needs a match") }
            if items?.isEmpty ?? true { return ("items", "a set needs items") }
        case .goalCompleted:
            break
        case .moment:
            return ("kind", "a moment is a milestone of the user's own, defined by a milestone event")
        case .stageReached:
            if method == nil { return ("method", "names the progression method") }
        case .age:
            if date == nil { return ("date", "names the subject's date (born, gotcha)") }
            if unit == nil { return ("unit", "is days, weeks, months or years") }
            if at == nil, every == nil { return ("at", "needs ages (at) or every") }
        case .consistency:
            guard let days, days >= 1 else { return ("days", "a consistency rule needs days ≥ 1") }
            if (source ?? .habit) == .log, require?.isEmpty ?? true {
                return ("require", "a log consistency rule needs the kinds a complete day requires")
            }
        case .combination:
            if date == nil { return ("date", "names the subject's date (born, gotcha)") }
            if unit == nil { return ("unit", "is days, weeks, months or years") }
            if at?.count != 1 { return ("at", "a combination fires at one age") }
            guard let coverage else { return ("coverage", "a combination needs a coverage condition") }
            if !(0...1).contains(coverage.atLeast) { return ("coverage.atLeast", "is a share between 0 and 1") }
            if coverage.items == nil, coverage.total == nil { return ("coverage.items", "needs items or a total") }
        }
        return nil
    }
}

extension AchievementRule.Match {
    /// Whether an activity matches; contributions arrive as activities of kind
    /// `contribution` with the goal as `item` and the amount as `value`.
    func matches(_ activity: Activity) -> Bool {
        (kind == nil || kind == activity.kind)
            && (type == nil
                ? activity.kind != "contribution" : (type == "contribution") == (activity.kind == "contribution"))
            && (item == nil || item == activity.item) && (group == nil || group == activity.group)
            && (subject == nil || subject == activity.subject)
    }
}

extension AchievementRule {
    /// The title in the form of a value: its form for the value's plural category, else
    /// ``title``.
    ///
    /// - Parameters:
    ///   - value: The unlock's number, if it has one.
    ///   - plurals: The plural rules of the pack's language.
    /// - Returns: The title, its placeholders unfilled.
    public func title(for value: Double?, plurals: PluralRules) -> String {
        guard let forms = titleForms, let value else { return title }
        return forms[plurals.category(for: value)] ?? title
    }
}
