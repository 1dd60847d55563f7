import Foundation

/// A milestone a person defines for themselves (seed 000, open question 5): "First beach
/// day", "100 walks", "A week without an accident", with its own tier, badge and message.
///
/// It arrives as a `milestone` event and works like a rule of the pack: it celebrates at
/// its tier, makes a memory and can be shared. On the wire:
///
/// ```json
/// {"type": "milestone", "milestone": "beach", "title": "First beach day", "rule": "moment",
///  "tier": 3, "badge": "🏖️", "message": "Sand in every paw!"}
/// {"type": "milestone", "milestone": "walks-100", "title": "100 walks", "rule": "count",
///  "kind": "walk", "target": 100}
/// {"type": "milestone", "milestone": "dry-week", "title": "A week without an accident",
///  "rule": "streak", "kind": "potty", "item": "outdoor", "breaks": "potty",
///  "breaksItem": "indoor", "target": 7}
/// {"type": "milestone", "milestone": "run-30", "title": "30 days of running", "rule": "streak",
///  "habit": "run", "target": 30}
/// ```
///
/// A milestone happens once. A later `milestone` event with the same id edits it (the one
/// that arrived last holds): new words show from then on, and a new condition counts only
/// while it has not happened yet. A `milestone.deleted` event deletes it (its unlock stays,
/// as every unlock does); defining the id again then makes a new milestone, which may
/// happen again. A milestone looks at the whole history, whenever it is defined: one whose
/// condition was already met unlocks at once, dated when it was met, as a retroactive
/// unlock. Its unlock's id is `custom:<id>#<the id of the event that first defined it>`.
public struct CustomMilestone: Hashable, Sendable {
    /// What makes a custom milestone happen.
    public enum Rule: String, Hashable, Sendable, Codable, CaseIterable {
        /// Now: the milestone happens at the event that defines it ("First beach day",
        /// "First time at grandma's house").
        case moment
        /// The first `log` of `kind` (and `item`).
        case first
        /// The `target`-th `log` of `kind` (and `item`), or the `target`-th day `habit` was done.
        case count
        /// `target` days in a row with a `log` of `kind` (and `item`) and none of `breaks`
        /// (and `breaksItem`), or a streak of `target` for `habit`.
        case streak
    }

    /// The prefix of the rule id a custom milestone becomes (`custom:walks-100`), which no
    /// rule of a pack may use.
    public static let rulePrefix = "custom:"
    /// The achievement category of custom milestones.
    public static let category = "custom"
    /// The badge of a milestone that names none.
    public static let defaultBadge = "🏅"
    /// The longest title, in characters.
    public static let maximumTitleLength = 120
    /// The longest message, in characters.
    public static let maximumMessageLength = 500
    /// The longest badge, in characters (an emoji, or a short text).
    public static let maximumBadgeLength = 8
    /// The largest `target` of a `count`.
    public static let maximumCount = 1_000_000
    /// The largest `target` of a `streak`, in days: a hundred years.
    public static let maximumStreak = 36_525

    /// The client-chosen id, 1…128 bytes.
    public var id: String
    /// The title, shown as written ("100 walks").
    public var title: String
    /// The message the celebration shows; a message from the catalog when absent.
    public var message: String?
    /// The celebration tier.
    public var tier: CelebrationTier
    /// A badge: an emoji or a short text.
    public var badge: String?
    /// What makes it happen.
    public var rule: Rule
    /// The activity kind counted (`walk`, `potty`), for log rules.
    public var kind: String?
    /// The activity item counted (`outdoor`, `beach`), if only one counts.
    public var item: String?
    /// The activity kind that breaks a log streak (`potty`).
    public var breaks: String?
    /// The item of `breaks` (`indoor`), if only one breaks it.
    public var breaksItem: String?
    /// The habit counted, for habit rules.
    public var habit: String?
    /// The count or streak length that makes it happen.
    public var target: Int?

    /// Creates a custom milestone.
    public init(
        id: String, title: String, message: String? = nil, tier: CelebrationTier = .notable, badge: String? = nil,
        rule: Rule, kind: String? = nil, item: String? = nil, breaks: String? = nil, breaksItem: String? = nil,
        habit: String? = nil, target: Int? = nil
    ) {
        self.id = id
        self.title = title
        self.message = message
        self.tier = tier
        self.badge = badge
        self.rule = rule
        self.kind = kind
        self.item = item
        self.breaks = breaks
        self.breaksItem = breaksItem
        self.habit = habit
        self.target = target
    }

    /// Why `id` cannot be a milestone's id, or `nil` when it can: 1…128 bytes, without `#`
    /// (which separates an unlock's parts) or `/` (which separates a path's).
    public static func idProblem(_ id: String) -> String? {
        id.isEmpty || id.utf8.count > 128 || id.contains("#") || id.contains("/")
            ? "a milestone id is 1…128 bytes, without # or /" : nil
    }

    /// The reason the milestone cannot work, naming the field, or `nil` when it is valid.
    public var problem: (field: String, reason: String)? {
        func blank(_ text: String?) -> Bool { text?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true }
        func tooLong(_ text: String?, _ bytes: Int) -> Bool { (text?.utf8.count ?? 0) > bytes }
        if let problem = Self.idProblem(id) { return ("milestone", problem) }
        if blank(title) || title.count > Self.maximumTitleLength {
            return ("title", "a title is 1…\(Self.maximumTitleLength) characters")
        }
        if let message, message.count > Self.maximumMessageLength {
            return ("message", "a message is at most \(Self.maximumMessageLength) characters")
        }
        if let badge, blank(badge) || badge.count > Self.maximumBadgeLength {
            return (
                "badge",
                "a badge is 1…\(Self.maximumBadgeLength) characters (an emoji or a short text); leave it out for "
                    + Self.defaultBadge
            )
        }
        if rule == .moment {
            for (field, given) in [
                ("kind", kind != nil), ("item", item != nil), ("habit", habit != nil), ("target", target != nil),
                ("breaks", breaks != nil), ("breaksItem", breaksItem != nil),
            ] where given {
                return (field, "a moment happens when it is defined: it takes no \(field)")
            }
            return nil
        }
        for (field, text) in [("kind", kind), ("item", item), ("breaks", breaks), ("breaksItem", breaksItem)]
        where text != nil && (blank(text) || tooLong(text, 64)) {
            return (field, "\(field) is 1…64 bytes")
        }
        if habit != nil, blank(habit) || tooLong(habit, 128) { return ("habit", "a habit id is 1…128 bytes") }
        if item != nil, kind == nil { return ("item", "an item needs the kind it belongs to") }
        if breaksItem != nil, breaks == nil { return ("breaksItem", "breaksItem needs breaks, the kind it belongs to") }
        switch rule {
        case .moment:
            return nil
        case .first:
            if habit != nil { return ("habit", "a first counts logs; for a habit's first day use count with target 1") }
            if kind == nil { return ("kind", "a first names the kind of log it waits for") }
            if target != nil { return ("target", "a first takes no target") }
            if breaks != nil { return ("breaks", "only a streak can be broken") }
        case .count, .streak:
            if (kind == nil) == (habit == nil) {
                return ("kind", "a \(rule.rawValue) names either the kind of log or the habit it counts")
            }
            let limit = rule == .count ? Self.maximumCount : Self.maximumStreak
            guard let target, (1...limit).contains(target) else {
                return ("target", "target is a whole number from 1 to \(limit)")
            }
            if breaks != nil, rule == .count { return ("breaks", "only a streak can be broken") }
            if breaks != nil, habit != nil { return ("breaks", "a habit's streak is broken by missed days") }
            // A break that matches every log the streak counts would end it on every day.
            if let breaks, breaks == kind, breaksItem == nil || breaksItem == item {
                return ("breaks", "a streak cannot be broken by the very logs it counts")
            }
        }
        return nil
    }

    /// The achievement rule it becomes, with the id ``rulePrefix`` + ``id`` (and the badge
    /// ``defaultBadge`` when it names none).
    public var achievementRule: AchievementRule {
        let match = kind.map { AchievementRule.Match(kind: $0, item: item) }
        let breaking = breaks.map { AchievementRule.Match(kind: $0, item: breaksItem) }
        let threshold = target.map { [Double($0)] }
        let kind: AchievementRule.Kind =
            switch rule {
            case .moment: .moment
            case .first: .first
            case .count: .count
            case .streak: .streak
            }
        return AchievementRule(
            id: Self.rulePrefix + id, kind: kind, title: title, category: Self.category, tier: tier,
            badge: badge ?? Self.defaultBadge,
            match: match, breaks: breaking, at: threshold, source: habit == nil ? .log : .habit, habit: habit)
    }

    /// Whether `rule` is a custom milestone's.
    public static func isCustom(_ rule: String) -> Bool { rule.hasPrefix(rulePrefix) }
}
