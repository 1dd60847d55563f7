import Foundation

extension Event: Codable {
    fileprivate struct Key: CodingKey, Hashable {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The fields each type accepts besides `id`, `type`, `at` and `tz`.
    public static let fieldsByType: [String: Set<String>] = [
        "habit.created": [
            "habit", "name", "schedule", "target", "policy", "difficulty", "category", "weekStart", "start", "group",
        ],
        "habit.updated": ["habit", "name", "category", "difficulty", "target", "policy", "schedule", "group"],
        "habit.archived": ["habit"],
        "habit.unarchived": ["habit"],
        "order": ["habits"],
        "completion": ["habit", "day", "value", "note"],
        "skip": ["habit", "day", "note"],
        "pause": ["habit", "from", "until", "note"],
        "resume": ["pause"],
        "purchase": ["item", "days"],
        "freeze.accepted": ["habit", "day"],
        "freeze.declined": ["habit", "day"],
        "removal": ["event"],
        "subject": ["subject", "name", "kind", "dates", "photo"],
        "log": ["kind", "item", "group", "value", "subject", "day", "note"],
        "goal": ["goal", "name", "category", "target"],
        "contribution": ["goal", "amount", "day", "note"],
        "stage": ["method", "from", "to", "note"],
        "milestone": [
            "milestone", "title", "message", "tier", "badge", "rule", "kind", "item", "breaks", "breaksItem", "habit",
            "target",
        ],
        "milestone.deleted": ["milestone"],
    ]

    /// Decodes the value from its JSON form, described in the type's documentation.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let type = try c.decode(String.self, forKey: Key("type"))
        guard let allowed = Event.fieldsByType[type] else {
            throw DecodingError.dataCorruptedError(
                forKey: Key("type"), in: c,
                debugDescription:
                    "unknown event type '\(type)' (\(Event.fieldsByType.keys.sorted().joined(separator: ", ")))")
        }
        for key in c.allKeys where !["id", "type", "at", "tz"].contains(key.stringValue) {
            guard allowed.contains(key.stringValue) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription:
                        "'\(key.stringValue)' is not a field of \(type) events (\(allowed.sorted().joined(separator: ", ")))"
                )
            }
        }
        let id = try c.decode(String.self, forKey: Key("id"))
        if let problem = Event.idProblem(id) {
            throw DecodingError.dataCorruptedError(forKey: Key("id"), in: c, debugDescription: "id " + problem)
        }
        let atText = try c.decode(String.self, forKey: Key("at"))
        let at: Date
        switch Event.instant(atText) {
        case .success(let instant): at = instant
        case .failure(let problem):
            throw DecodingError.dataCorruptedError(forKey: Key("at"), in: c, debugDescription: problem.message)
        }
        let zone = try c.decode(String.self, forKey: Key("tz"))
        self.init(id: id, at: at, timeZone: zone, payload: try Payload(type: type, from: decoder))
    }

    /// Why `id` cannot be an event's id (a phrase without the field's name: "must be
    /// 1…128 bytes"), or `nil` when it can.
    public static func idProblem(_ id: String) -> String? {
        id.isEmpty || id.utf8.count > 128 ? "must be 1…128 bytes" : nil
    }

    /// Why a text cannot be an event's `at`.
    public struct InstantProblem: Error, Hashable, Sendable {
        /// The reason, naming the text: "'noon' is not an RFC 3339 timestamp such as …".
        public var message: String
    }

    /// The instant an event's `at` text names: an RFC 3339 timestamp within
    /// ``EventLimits/earliestInstant`` and ``EventLimits/instantLimit``.
    public static func instant(_ text: String) -> Result<Date, InstantProblem> {
        guard let at = RFC3339.parse(text) else {
            return .failure(
                InstantProblem(message: "'\(text)' is not an RFC 3339 timestamp such as 2026-03-14T08:30:00-04:00"))
        }
        guard at >= EventLimits.earliestInstant, at < EventLimits.instantLimit else {
            return .failure(
                InstantProblem(
                    message:
                        "at \(text) must lie from \(EventLimits.earliestDay)T00:00:00Z to \(EventLimits.latestDay)T23:59:59Z"
                ))
        }
        return .success(at)
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(id, forKey: Key("id"))
        try c.encode(payload.type, forKey: Key("type"))
        try c.encode(RFC3339.format(at), forKey: Key("at"))
        try c.encode(timeZone, forKey: Key("tz"))
        switch payload {
        case .habitCreated(let definition): try definition.encode(to: encoder)
        case .habitUpdated(let changes):
            try c.encode(changes.habit, forKey: Key("habit"))
            try c.encodeIfPresent(changes.name, forKey: Key("name"))
            try c.encodeIfPresent(changes.category, forKey: Key("category"))
            try c.encodeIfPresent(changes.difficulty, forKey: Key("difficulty"))
            try c.encodeIfPresent(changes.target, forKey: Key("target"))
            try c.encodeIfPresent(changes.policy, forKey: Key("policy"))
            try c.encodeIfPresent(changes.schedule, forKey: Key("schedule"))
            try c.encodeIfPresent(changes.group, forKey: Key("group"))
        case .habitArchived(let habit), .habitUnarchived(let habit): try c.encode(habit, forKey: Key("habit"))
        case .order(let habits): try c.encode(habits, forKey: Key("habits"))
        case .completion(let habit, let day, let value, let note):
            try c.encode(habit, forKey: Key("habit"))
            try c.encodeIfPresent(day, forKey: Key("day"))
            if value != 1 { try c.encode(value, forKey: Key("value")) }
            try c.encodeIfPresent(note, forKey: Key("note"))
        case .skip(let habit, let day, let note):
            try c.encodeIfPresent(habit, forKey: Key("habit"))
            try c.encodeIfPresent(day, forKey: Key("day"))
            try c.encodeIfPresent(note, forKey: Key("note"))
        case .pause(let pause):
            try c.encodeIfPresent(pause.habit, forKey: Key("habit"))
            try c.encode(pause.from, forKey: Key("from"))
            try c.encode(pause.until, forKey: Key("until"))
            try c.encodeIfPresent(pause.note, forKey: Key("note"))
        case .resume(let pause): try c.encode(pause, forKey: Key("pause"))
        case .purchase(let item, let days):
            try c.encodeIfPresent(item, forKey: Key("item"))
            try c.encodeIfPresent(days, forKey: Key("days"))
        case .freezeDecision(let habit, let day, _):
            try c.encode(habit, forKey: Key("habit"))
            try c.encode(day, forKey: Key("day"))
        case .removal(let event): try c.encode(event, forKey: Key("event"))
        case .subject(let subject):
            try c.encode(subject.id, forKey: Key("subject"))
            try c.encode(subject.name, forKey: Key("name"))
            try c.encode(subject.kind, forKey: Key("kind"))
            if !subject.dates.isEmpty { try c.encode(subject.dates, forKey: Key("dates")) }
            try c.encodeIfPresent(subject.photo, forKey: Key("photo"))
        case .activity(let activity):
            try c.encode(activity.kind, forKey: Key("kind"))
            try c.encodeIfPresent(activity.item, forKey: Key("item"))
            try c.encodeIfPresent(activity.group, forKey: Key("group"))
            try c.encodeIfPresent(activity.value, forKey: Key("value"))
            try c.encodeIfPresent(activity.subject, forKey: Key("subject"))
            try c.encodeIfPresent(activity.day, forKey: Key("day"))
            try c.encodeIfPresent(activity.note, forKey: Key("note"))
        case .goal(let goal):
            try c.encode(goal.id, forKey: Key("goal"))
            try c.encode(goal.name, forKey: Key("name"))
            try c.encode(goal.category, forKey: Key("category"))
            try c.encode(goal.target, forKey: Key("target"))
        case .contribution(let goal, let amount, let day, let note):
            try c.encode(goal, forKey: Key("goal"))
            try c.encode(amount, forKey: Key("amount"))
            try c.encodeIfPresent(day, forKey: Key("day"))
            try c.encodeIfPresent(note, forKey: Key("note"))
        case .stage(let method, let from, let to, let note):
            try c.encode(method, forKey: Key("method"))
            try c.encodeIfPresent(from, forKey: Key("from"))
            try c.encode(to, forKey: Key("to"))
            try c.encodeIfPresent(note, forKey: Key("note"))
        case .milestone(let milestone):
            try c.encode(milestone.id, forKey: Key("milestone"))
            try c.encode(milestone.title, forKey: Key("title"))
            try c.encodeIfPresent(milestone.message, forKey: Key("message"))
            try c.encode(milestone.tier, forKey: Key("tier"))
            try c.encodeIfPresent(milestone.badge, forKey: Key("badge"))
            try c.encode(milestone.rule, forKey: Key("rule"))
            try c.encodeIfPresent(milestone.kind, forKey: Key("kind"))
            try c.encodeIfPresent(milestone.item, forKey: Key("item"))
            try c.encodeIfPresent(milestone.breaks, forKey: Key("breaks"))
            try c.encodeIfPresent(milestone.breaksItem, forKey: Key("breaksItem"))
            try c.encodeIfPresent(milestone.habit, forKey: Key("habit"))
            try c.encodeIfPresent(milestone.target, forKey: Key("target"))
        case .milestoneDeleted(let milestone):
            try c.encode(milestone, forKey: Key("milestone"))
        }
    }
}

extension Event.Payload {
    /// Decodes the payload of an event of `type` from its JSON form: the event's own fields
    /// (``Event/fieldsByType``), each checked against its bounds, with the errors
    /// ``Event/init(from:)`` gives.
    ///
    /// The decoder's other keys are not looked at: a caller that decodes a payload from a
    /// request body checks them itself.
    ///
    /// - Parameters:
    ///   - type: The event type, a key of ``Event/fieldsByType``.
    ///   - decoder: A decoder at the JSON object holding the fields.
    ///   - fallback: Values of identifying fields (`habit`, `subject`) used when the JSON
    ///     leaves them out: the habit a request's path names, say.
    public init(type: String, from decoder: any Decoder, fallback: [String: String] = [:]) throws {
        typealias Key = Event.Key
        let c = try decoder.container(keyedBy: Key.self)
        guard Event.fieldsByType[type] != nil else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unknown event type '\(type)'"))
        }
        /// The identifying field `name`: the JSON's, or else the fallback's.
        func identifier(_ name: String) throws -> String {
            if !c.contains(Key(name)), let given = fallback[name] { return given }
            return try c.decode(String.self, forKey: Key(name))
        }
        func habit() throws -> String { try identifier("habit") }
        func day() throws -> LocalDay? {
            guard let day = try c.decodeIfPresent(LocalDay.self, forKey: Key("day")) else { return nil }
            guard EventLimits.days.contains(day) else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("day"), in: c, debugDescription: EventLimits.dayMessage("day", day, EventLimits.days))
            }
            return day
        }
        /// A number of `field`, refused outside `range` (and when it is not finite).
        func number(
            _ field: String, _ value: Double, _ range: ClosedRange<Double>, exclusiveLower: Bool = false
        )
            throws -> Double
        {
            guard value.isFinite, range.contains(value), !exclusiveLower || value > range.lowerBound else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key(field), in: c,
                    debugDescription: EventLimits.numberMessage(field, range, exclusiveLower: exclusiveLower))
            }
            return value
        }
        let payload: Self
        switch type {
        case "habit.created": payload = .habitCreated(try HabitDefinition(from: decoder, id: fallback["habit"]))
        case "habit.updated":
            payload = .habitUpdated(
                HabitChanges(
                    habit: try habit(), name: try c.decodeIfPresent(String.self, forKey: Key("name")),
                    category: try c.decodeIfPresent(String.self, forKey: Key("category")),
                    difficulty: try c.decodeIfPresent(Difficulty.self, forKey: Key("difficulty")),
                    target: try c.decodeIfPresent(Target.self, forKey: Key("target")),
                    policy: try c.decodeIfPresent(StreakPolicy.self, forKey: Key("policy")),
                    schedule: try c.decodeIfPresent(Schedule.self, forKey: Key("schedule")),
                    group: try c.decodeIfPresent(String.self, forKey: Key("group"))))
        case "habit.archived": payload = .habitArchived(habit: try habit())
        case "habit.unarchived": payload = .habitUnarchived(habit: try habit())
        case "order":
            let habits = try c.decode([String].self, forKey: Key("habits"))
            guard habits.count <= EventLimits.maximumHabits, Set(habits).count == habits.count else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("habits"), in: c,
                    debugDescription:
                        "habits lists each habit at most once, at most \(EventLimits.maximumHabits) of them")
            }
            payload = .order(habits: habits)
        case "completion":
            let value = try number(
                "value", c.decodeIfPresent(Double.self, forKey: Key("value")) ?? 1, 0...EventLimits.maximumValue)
            payload = .completion(
                habit: try habit(), day: try day(), value: value,
                note: try c.decodeIfPresent(String.self, forKey: Key("note")))
        case "skip":
            payload = .skip(
                habit: try c.decodeIfPresent(String.self, forKey: Key("habit")) ?? fallback["habit"], day: try day(),
                note: try c.decodeIfPresent(String.self, forKey: Key("note")))
        case "pause":
            func date(_ field: String) throws -> LocalDay {
                let day = try c.decode(LocalDay.self, forKey: Key(field))
                guard EventLimits.days.contains(day) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: Key(field), in: c,
                        debugDescription: EventLimits.dayMessage(field, day, EventLimits.days))
                }
                return day
            }
            let from = try date("from")
            let until = try date("until")
            let days = from.distance(to: until) + 1
            guard (1...EventLimits.maximumPauseDays).contains(days) else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("until"), in: c,
                    debugDescription: days < 1
                        ? "until \(until) is before from \(from)"
                        : "a pause lasts at most \(EventLimits.maximumPauseDays) days, not \(days)")
            }
            payload = .pause(
                Pause(
                    habit: try c.decodeIfPresent(String.self, forKey: Key("habit")) ?? fallback["habit"], from: from,
                    until: until, note: try c.decodeIfPresent(String.self, forKey: Key("note"))))
        case "resume":
            let pause = try c.decode(String.self, forKey: Key("pause"))
            if let problem = Event.idProblem(pause) {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("pause"), in: c, debugDescription: "pause " + problem)
            }
            payload = .resume(pause: pause)
        case "purchase":
            let item = try c.decodeIfPresent(String.self, forKey: Key("item"))
            let days = try c.decodeIfPresent(Int.self, forKey: Key("days"))
            guard (item == nil) != (days == nil) else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("item"), in: c, debugDescription: "a purchase has either an 'item' or custom 'days'")
            }
            if let days, !(1...EventLimits.maximumPurchaseDays).contains(days) {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("days"), in: c,
                    debugDescription: "days must be a whole number from 1 to \(EventLimits.maximumPurchaseDays)")
            }
            payload = .purchase(item: item, days: days)
        case "freeze.accepted", "freeze.declined":
            guard let day = try day() else {
                throw DecodingError.keyNotFound(
                    Key("day"), .init(codingPath: c.codingPath, debugDescription: "the missed day the offer was for"))
            }
            payload = .freezeDecision(habit: try habit(), day: day, accepted: type == "freeze.accepted")
        case "subject":
            let dates = try c.decodeIfPresent([String: LocalDay].self, forKey: Key("dates")) ?? [:]
            for (name, date) in dates where !EventLimits.subjectDays.contains(date) {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("dates"), in: c,
                    debugDescription: EventLimits.dayMessage("dates.\(name)", date, EventLimits.subjectDays))
            }
            payload = .subject(
                Subject(
                    id: try identifier("subject"),
                    name: try c.decode(String.self, forKey: Key("name")),
                    kind: try c.decodeIfPresent(String.self, forKey: Key("kind")) ?? "user",
                    dates: dates, photo: try c.decodeIfPresent(String.self, forKey: Key("photo"))))
        case "log":
            let value = try c.decodeIfPresent(Double.self, forKey: Key("value")).map {
                try number("value", $0, -EventLimits.maximumLogValue...EventLimits.maximumLogValue)
            }
            let kind = try c.decode(String.self, forKey: Key("kind"))
            guard !kind.isEmpty, kind.utf8.count <= 64 else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("kind"), in: c, debugDescription: "kind is 1…64 bytes")
            }
            payload = .activity(
                Activity(
                    kind: kind, item: try c.decodeIfPresent(String.self, forKey: Key("item")),
                    group: try c.decodeIfPresent(String.self, forKey: Key("group")), value: value,
                    subject: try c.decodeIfPresent(String.self, forKey: Key("subject")), day: try day(),
                    note: try c.decodeIfPresent(String.self, forKey: Key("note"))))
        case "goal":
            let target = try number(
                "target", c.decode(Double.self, forKey: Key("target")), 0...EventLimits.maximumAmount,
                exclusiveLower: true)
            payload = .goal(
                SavingsGoal(
                    id: try c.decode(String.self, forKey: Key("goal")),
                    name: try c.decode(String.self, forKey: Key("name")),
                    category: try c.decodeIfPresent(String.self, forKey: Key("category")) ?? "other", target: target))
        case "contribution":
            let amount = try number(
                "amount", c.decode(Double.self, forKey: Key("amount")), 0...EventLimits.maximumAmount,
                exclusiveLower: true)
            payload = .contribution(
                goal: try c.decode(String.self, forKey: Key("goal")), amount: amount, day: try day(),
                note: try c.decodeIfPresent(String.self, forKey: Key("note")))
        case "stage":
            payload = .stage(
                method: try c.decode(String.self, forKey: Key("method")),
                from: try c.decodeIfPresent(String.self, forKey: Key("from")),
                to: try c.decode(String.self, forKey: Key("to")),
                note: try c.decodeIfPresent(String.self, forKey: Key("note")))
        case "milestone":
            let tier = try c.decodeIfPresent(Int.self, forKey: Key("tier")) ?? CelebrationTier.notable.rawValue
            guard let celebration = CelebrationTier(rawValue: tier) else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("tier"), in: c, debugDescription: "tier is 1 (subtle), 2 (a card) or 3 (full screen)")
            }
            let ruleName = try c.decode(String.self, forKey: Key("rule"))
            guard let rule = CustomMilestone.Rule(rawValue: ruleName) else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("rule"), in: c,
                    debugDescription: "rule is \(CustomMilestone.Rule.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            let target = try c.decodeIfPresent(Double.self, forKey: Key("target")).map { value in
                guard let whole = Int(exactly: value) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: Key("target"), in: c, debugDescription: "target is a whole number")
                }
                return whole
            }
            let milestone = CustomMilestone(
                id: try identifier("milestone"), title: try c.decode(String.self, forKey: Key("title")),
                message: try c.decodeIfPresent(String.self, forKey: Key("message")), tier: celebration,
                badge: try c.decodeIfPresent(String.self, forKey: Key("badge")), rule: rule,
                kind: try c.decodeIfPresent(String.self, forKey: Key("kind")),
                item: try c.decodeIfPresent(String.self, forKey: Key("item")),
                breaks: try c.decodeIfPresent(String.self, forKey: Key("breaks")),
                breaksItem: try c.decodeIfPresent(String.self, forKey: Key("breaksItem")),
                habit: try c.decodeIfPresent(String.self, forKey: Key("habit")), target: target)
            if let problem = milestone.problem {
                throw DecodingError.dataCorruptedError(
                    forKey: Key(problem.field), in: c, debugDescription: problem.reason)
            }
            payload = .milestone(milestone)
        case "milestone.deleted":
            let id = try identifier("milestone")
            if let problem = CustomMilestone.idProblem(id) {
                throw DecodingError.dataCorruptedError(forKey: Key("milestone"), in: c, debugDescription: problem)
            }
            payload = .milestoneDeleted(milestone: id)
        default: payload = .removal(event: try c.decode(String.self, forKey: Key("event")))
        }

        self = payload
    }
}
