import Foundation

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
        case "grant", "rewards.kept", "amnesty", "amnesty.lifted":
            payload = try Self.serverAuthored(type: type, in: c)
        default: payload = .removal(event: try c.decode(String.self, forKey: Key("event")))
        }

        self = payload
    }
}
