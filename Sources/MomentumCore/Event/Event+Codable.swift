import Foundation

extension Event: Codable {
    struct Key: CodingKey, Hashable {
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
        "grant": ["diamonds", "freezes", "reason", "operator"],
        "rewards.kept": ["pack", "version", "unlocks", "diamondsEarned", "freezesEarned"],
        "amnesty": ["amnesty", "start", "end", "reason"],
        "amnesty.lifted": ["amnesty"],
    ]

    /// The `userInfo` key naming the event types a decoding knows, as a `Set<String>`;
    /// without it, every type of ``fieldsByType``. An event of a type outside the set is
    /// decoded as ``Payload/unknown(type:)``, its fields kept: so a test can be an engine
    /// of an earlier release that does not know, say, `milestone.deleted`.
    public static let vocabularyKey = CodingUserInfoKey(rawValue: "MomentumCore.Event.vocabulary")!

    /// The fields every event has: `id`, `type`, `at` and `tz`.
    public static let envelopeFields: Set<String> = ["id", "type", "at", "tz"]

    /// Decodes the value from its JSON form, described in the type's documentation.
    ///
    /// An event of a type this engine does not know (or that the decoder's
    /// ``vocabularyKey`` leaves out) decodes as ``Payload/unknown(type:)`` when its type
    /// has the form of one (``EventLimits/isTypeName(_:)``); fields its type does not have
    /// are kept in ``unknownFields``. Both are bounded (``EventLimits/maximumUnknownFields``
    /// and the bounds beside it); the envelope is checked as for any event.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let type = try c.decode(String.self, forKey: Key("type"))
        let vocabulary = decoder.userInfo[Event.vocabularyKey] as? Set<String>
        let allowed = (vocabulary?.contains(type) ?? true) ? Event.fieldsByType[type] : nil
        if allowed == nil, !EventLimits.isTypeName(type) {
            throw DecodingError.dataCorruptedError(
                forKey: Key("type"), in: c,
                debugDescription:
                    "'\(type.prefix(80))' is not an event type: a lowercase letter, then up to 63 lowercase letters, "
                    + "digits, '.', '_' or '-' (\(Event.fieldsByType.keys.sorted().joined(separator: ", ")))")
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
        let unknownFields = try Event.unknownFields(in: c, known: allowed ?? [])
        let payload = try allowed == nil ? .unknown(type: type) : Payload(type: type, from: decoder)
        self.init(id: id, at: at, timeZone: zone, payload: payload, unknownFields: unknownFields)
    }

    /// The fields of `c` neither in the envelope nor in `known`, each checked against the
    /// bounds of what an event may carry for a later engine.
    private static func unknownFields(
        in c: KeyedDecodingContainer<Key>, known: Set<String>
    ) throws -> [String: FieldValue] {
        let keys = c.allKeys.filter { !envelopeFields.contains($0.stringValue) && !known.contains($0.stringValue) }
        guard !keys.isEmpty else { return [:] }
        guard keys.count <= EventLimits.maximumUnknownFields else {
            throw DecodingError.dataCorruptedError(
                forKey: Key("type"), in: c,
                debugDescription:
                    "an event carries at most \(EventLimits.maximumUnknownFields) fields its engine does not know, "
                    + "not \(keys.count)")
        }
        var fields: [String: FieldValue] = [:]
        var values = 0
        var bytes: [UInt8] = []
        for key in keys.sorted(by: { $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8) }) {
            let value = try c.decode(FieldValue.self, forKey: key)
            guard value.depth <= EventLimits.maximumUnknownFieldDepth else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription:
                        "nests more than \(EventLimits.maximumUnknownFieldDepth) arrays or objects deep")
            }
            values += value.count
            JSONBytes.string(key.stringValue, into: &bytes)
            value.writeJSON(into: &bytes)
            guard values <= EventLimits.maximumUnknownFieldValues,
                bytes.count + 2 * keys.count <= EventLimits.maximumUnknownFieldBytes
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription:
                        "the fields an event carries for a later engine hold at most "
                        + "\(EventLimits.maximumUnknownFieldValues) values and "
                        + "\(EventLimits.maximumUnknownFieldBytes) bytes of JSON")
            }
            fields[key.stringValue] = value
        }
        return fields
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
        case .grant(let grant):
            try c.encode(grant.diamonds, forKey: Key("diamonds"))
            try c.encode(grant.freezes, forKey: Key("freezes"))
            try c.encode(grant.reason, forKey: Key("reason"))
            try c.encodeIfPresent(grant.operatorID, forKey: Key("operator"))
        case .rewardsKept(let kept):
            try c.encode(kept.pack, forKey: Key("pack"))
            try c.encode(kept.version, forKey: Key("version"))
            var list = c.nestedUnkeyedContainer(forKey: Key("unlocks"))
            for unlock in kept.unlocks {
                var item = list.nestedContainer(keyedBy: Key.self)
                try item.encode(unlock.rule, forKey: Key("rule"))
                try item.encode(unlock.key, forKey: Key("key"))
                try item.encode(unlock.title, forKey: Key("title"))
                try item.encode(RFC3339.format(unlock.at), forKey: Key("at"))
            }
            try c.encode(kept.diamondsEarned, forKey: Key("diamondsEarned"))
            try c.encode(kept.freezesEarned, forKey: Key("freezesEarned"))
        case .amnesty(let amnesty):
            try c.encode(amnesty.id, forKey: Key("amnesty"))
            try c.encode(RFC3339.format(amnesty.start), forKey: Key("start"))
            try c.encode(RFC3339.format(amnesty.end), forKey: Key("end"))
            try c.encode(amnesty.reason, forKey: Key("reason"))
        case .amnestyLifted(let id):
            try c.encode(id, forKey: Key("amnesty"))
        case .unknown: break
        }
        guard !unknownFields.isEmpty else { return }
        // A name the envelope or the payload writes is not written twice (decoding never
        // keeps one; an event made in code might).
        let own = payload.isUnknown ? [] : Event.fieldsByType[payload.type] ?? []
        for (name, value) in unknownFields where !Event.envelopeFields.contains(name) && !own.contains(name) {
            try c.encode(value, forKey: Key(name))
        }
    }
}
