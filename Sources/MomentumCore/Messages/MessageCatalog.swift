/// The messages that celebrate unlocks, and how one is chosen (DESIGN §2 "Celebrations").
///
/// Choosing is deterministic, so the phone and the server pick the same message:
/// 1. **Values.** The unlock provides `{title}`, `{value}` (its number, `1,000`, which picks
///    the template's plural form: "1 day", "2 days") and its
///    context's `{habit}`, `{item}`, `{goal}`, `{stage}` and `{duration}`; `{name}` is the
///    subject's name, else the context's `name`; a retroactive unlock adds `{when}`, the
///    ``relativePhrase(for:today:translation:)`` of its achievement day ("last week"). Blank values
///    count as missing.
/// 2. **Candidates.** Templates whose ``MessageTemplate/retroactive`` matches the unlock's,
///    that suit the tier, the milestone type and (for amounts) the savings tier, whose
///    placeholders all have values, and that count days only for an unlock counted in days
///    (``MessageTemplate/countsDays``; a weekly habit's streak is in weeks).
/// 3. **Specificity.** Candidates fall into four levels, tried in order: the unlock's
///    category and written for its milestone type; the category, any type; generic, written
///    for the type; generic, any type. The first level with a template not among the last
///    `recentLimit` used ones wins. That is how a retroactive streak with a name gets
///    exactly "Looks like Ollie hit a 7-day streak last week! 🎉": the standard catalog's
///    only generic retroactive streak template.
/// 4. **Variety.** Of that level's templates not used recently, the one at index
///    `FNV-1a(unlock id) mod count` is chosen, in catalog order. If every candidate was used
///    recently, the one used longest ago is chosen; if none fits at all, the message is the
///    title (for a retroactive unlock, followed by `{when}`).
///
/// A milestone of the user's own (``CustomMilestone``) with a message of its own is
/// celebrated with that message, as written (template id ``customTemplateID``).
///
/// Catalogs are data, so a rule pack can bring its own; ``standard`` has at least four
/// generic templates per tier that need only the title, so with it no message repeats one of
/// the last three.
public struct MessageCatalog: Hashable, Sendable, Codable {
    /// The template id of a message a person wrote for a milestone of their own.
    public static let customTemplateID = "custom"

    /// How many of the most recently used template ids are not repeated, unless told otherwise.
    public static let defaultRecentLimit = 3

    /// The templates, in the order the stable hash indexes them.
    public var templates: [MessageTemplate]
    /// The language of the catalog's numbers (`{value}`) and relative days (`{when}`); set by
    /// ``translated(_:)``, English otherwise. Not encoded: a decoded catalog is English.
    public internal(set) var translation: Translation = .english

    /// Creates a catalog.
    ///
    /// - Parameter templates: The templates, in the order the stable hash indexes them.
    public init(templates: [MessageTemplate]) {
        self.templates = templates
    }

    private enum CodingKeys: String, CodingKey {
        case templates
    }

    /// Chooses the message of each unlock in turn, as the app shows them one after another:
    /// each one avoids the phrasings of the last ``defaultRecentLimit`` chosen before it.
    ///
    /// - Parameters:
    ///   - unlocks: The unlocks, in the order they are shown.
    ///   - subjects: The user's subjects, by id, for names in messages.
    ///   - clock: The user's day clock.
    ///   - zone: The user's zone (which decides "today" and "last week").
    ///   - recent: The template ids chosen most recently; updated as messages are chosen.
    /// - Returns: The message of each unlock, by unlock id.
    public func messages(
        for unlocks: [Unlock], subjects: [String: Subject], clock: DayClock, zone: ZoneOffsetTable,
        recentTemplateIDs recent: inout [String]
    ) -> [String: Message] {
        var messages: [String: Message] = [:]
        for unlock in unlocks {
            let message = message(
                for: unlock, subject: unlock.subject.flatMap { subjects[$0] },
                today: clock.localDay(of: unlock.detectedAt, in: zone), recentTemplateIDs: recent)
            messages[unlock.id] = message
            recent.append(message.templateID)
            if recent.count > Self.defaultRecentLimit { recent.removeFirst() }
        }
        return messages
    }

    /// The message for an unlock, chosen by the rules in the type's documentation.
    ///
    /// - Parameters:
    ///   - unlock: The unlock to celebrate.
    ///   - subject: The subject it is about, for its name.
    ///   - today: The user's current local day, for the relative phrase of a retroactive unlock.
    ///   - tier: The tier the celebration is presented at; the unlock's own tier by default.
    ///   - recentTemplateIDs: The template ids of the messages already shown, oldest first.
    ///   - recentLimit: How many of the last `recentTemplateIDs` are not repeated.
    /// - Returns: The rendered message.
    public func message(
        for unlock: Unlock, subject: Subject? = nil, today: LocalDay, tier: CelebrationTier? = nil,
        recentTemplateIDs: [String] = [], recentLimit: Int = MessageCatalog.defaultRecentLimit
    ) -> Message {
        // A milestone of the user's own celebrates with the message they wrote.
        if let custom = Memory.nonBlank(unlock.context["message"]), CustomMilestone.isCustom(unlock.rule) {
            return message(Self.customTemplateID, custom, title: unlock.title)
        }
        let values = Self.values(for: unlock, subject: subject, today: today, translation: translation)
        let tier = tier ?? unlock.tier
        let amountTier = unlock.value.map(MilestoneTier.tier(for:))
        // A habit's streak counted in weeks or months does not take a "7-day" message.
        let countsInDays = (unlock.context["unit"] ?? "day") == "day"
        let candidates = templates.filter { template in
            template.retroactive == unlock.retroactive && template.tiers.contains(tier)
                && (template.milestoneTypes?.contains(unlock.milestoneType) ?? true)
                && (template.amountTier == nil || template.amountTier == amountTier)
                && template.placeholders.isSubset(of: values.keys)
                && (template.category == MessageTemplate.genericCategory || template.fits(category: unlock.category))
                && (!template.countsDays || countsInDays)
        }
        let recent = recentTemplateIDs.suffix(max(0, recentLimit))
        // A counted `{value}` takes its plural form in the catalog's language.
        let form = unlock.value.map { translation.pluralCategory(for: $0) } ?? .other
        func level(_ template: MessageTemplate) -> Int {
            (template.category == MessageTemplate.genericCategory ? 2 : 0) + (template.milestoneTypes == nil ? 1 : 0)
        }
        for rank in 0..<4 {
            let allowed = candidates.filter { level($0) == rank && !recent.contains($0.id) }
            guard !allowed.isEmpty else { continue }
            let chosen = allowed[Int(AffirmationCatalog.stableHash(unlock.id) % UInt64(allowed.count))]
            return message(chosen.id, chosen.render(values, form: form), title: unlock.title)
        }
        if let chosen = candidates.min(by: {
            (recentTemplateIDs.lastIndex(of: $0.id) ?? -1) < (recentTemplateIDs.lastIndex(of: $1.id) ?? -1)
        }) {
            // Every candidate is in `recent`; the one whose last use is earliest was seen longest ago.
            return message(chosen.id, chosen.render(values, form: form), title: unlock.title)
        }
        let text =
            values["when"].map { translation.text(MessageText.titleWhen, ["title": unlock.title, "when": $0]) }
            ?? unlock.title
        return message("", text, title: unlock.title)
    }

    /// The placeholder values an unlock provides, numbers and days written in `translation`.
    static func values(
        for unlock: Unlock, subject: Subject?, today: LocalDay, translation: Translation = .english
    ) -> [String: String] {
        var values: [String: String] = [:]
        for key in ["habit", "item", "goal", "stage", "duration", "name"] {
            if let value = Memory.nonBlank(unlock.context[key]) { values[key] = value }
        }
        if let name = Memory.nonBlank(subject?.name) { values["name"] = name }
        if let title = Memory.nonBlank(unlock.title) { values["title"] = title }
        if let value = unlock.value, value.isFinite {
            values["value"] = translation.number(value)
        } else if let value = Memory.nonBlank(unlock.context["value"]) {
            values["value"] = value
        }
        if unlock.retroactive {
            values["when"] = relativePhrase(for: unlock.achievedDay, today: today, translation: translation)
        }
        return values
    }

    private func message(_ templateID: String, _ text: String, title: String) -> Message {
        // The celebration catalog owns the emoji-stripping rule; an all-emoji message is
        // announced as the achievement's title.
        var announcer = CelebrationCatalog.standard
        announcer.defaultAnnouncement = title
        return Message(templateID: templateID, text: text, announcement: announcer.announcement(for: text))
    }
}
