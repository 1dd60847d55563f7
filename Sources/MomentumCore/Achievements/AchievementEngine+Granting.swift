import Foundation

extension AchievementEngine {
    // MARK: - Granting

    mutating func grant(
        _ r: Int, id: String, _ keyed: Keyed, _ detectedAt: Date, type: String, value: Double? = nil,
        category: String? = nil, activity: Activity?, context extra: [String: String] = [:]
    ) {
        var context = extra
        if let activity {
            if let item = activity.item {
                if activity.kind == "contribution" {
                    context["goal"] = goals[item]?.name ?? item
                } else {
                    context["item"] = item
                }
            }
            if let group = activity.group { context["group"] = group }
        }
        var achievedAt = keyed.event.at
        if let table = keyed.event.timeZone == zoneCache?.identifier
            ? zoneCache : ZoneOffsetTable.named(keyed.event.timeZone),
            clock.localDay(of: achievedAt, in: table).number > keyed.day
        {
            // Logged for an earlier day: it happened by the end of that day at the latest.
            achievedAt = Date(
                timeIntervalSince1970: Double(clock.start(of: LocalDay(number: keyed.day + 1), in: table) - 1))
        }
        grant(
            r, id: id, achievedAt: achievedAt, day: keyed.day, detectedAt: max(detectedAt, keyed.event.at),
            event: keyed.event.id, type: type, value: value, subject: subject(of: keyed.event.payload),
            category: category, context: context)
    }

    /// Whom an event's unlock is about: a log names its subject or is about the first one (the
    /// puppy of a journal); savings are about the saver and growth about the user, when the
    /// log has one, never about a puppy an account also tracks.
    func subject(of payload: Event.Payload) -> String? {
        switch payload {
        case .activity(let activity): return activity.subject ?? subjectOrder.first
        case .contribution, .goal: return subjectOrder.first { ["saver", "user"].contains(subjects[$0]?.kind) }
        case .stage: return subjectOrder.first { subjects[$0]?.kind == "user" }
        default: return nil
        }
    }

    mutating func grant(
        _ r: Int, id: String, achievedAt: Date, day: Int, detectedAt: Date, event: String?, type: String,
        value: Double? = nil, subject: String? = nil, habit: String? = nil, category: String? = nil,
        context: [String: String]
    ) {
        // A milestone of the user's own happens once in each of its generations.
        let custom = r >= packRuleCount
        let id = custom ? customUnlockID(of: r) ?? id : id
        guard granted.insert(id).inserted else { return }
        let rule = rules[r]
        var context = context
        if let subject, let name = subjects[subject]?.name, context["name"] == nil { context["name"] = name }
        if let value {
            context["value"] = Self.number(value)
            // An amount as seed 002 writes it: "$1,000".
            if type == "amount" { context["amount"] = MilestoneNumber.money(value) }
        }
        let detectedDay = clock.localDay(of: detectedAt, in: table).number
        // The user's own words are shown as written, braces and all.
        if custom, let milestone = customMilestone(String(rule.id.dropFirst(CustomMilestone.rulePrefix.count))),
            let message = milestone.message, !message.isEmpty
        {
            context["message"] = message
        }
        record(
            Unlock(
                id: id, rule: rule.id,
                title: custom
                    ? rule.title
                    : Self.fill(
                        rule.title(for: value, plurals: translation.plurals),
                        Self.titleValues(
                            context, value: value, milestoneType: type, rule: rule, translation: translation)),
                category: category ?? rule.category,
                tier: rule.tier, milestoneType: type, value: value, achievedAt: achievedAt,
                achievedDay: LocalDay(number: day), detectedAt: detectedAt, retroactive: detectedDay > day,
                subject: subject, habit: habit, event: event, badge: rule.badge, context: context),
            requires: rule.requires)
    }

    /// Fills `{placeholders}` from the context; unknown ones are left out.
    static func fill(_ template: String, _ context: [String: String]) -> String {
        TemplateText.render(template, context, keepMissing: false)
    }
}
