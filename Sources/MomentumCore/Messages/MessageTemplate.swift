/// A celebration message with placeholders, and the unlocks it suits.
///
/// Placeholders are names in braces, filled from the unlock, its context and the subject:
/// `{name}` (the subject's name), `{value}` (the milestone's number, `1,000`), `{habit}`,
/// `{item}`, `{goal}`, `{stage}`, `{duration}` (context values), `{title}` (the
/// achievement's title) and, in retroactive templates, `{when}` ("last week"). A template is
/// only used when every placeholder it contains has a value. Braces around anything else are
/// plain text and left as written.
///
/// A template that shows `{value}` counts it: ``text`` is its plural `other` form and
/// ``forms`` holds the others (English's `one`: "{value} day of {habit} in a row! 🏆"); the
/// unlock's number picks the form by the catalog's language (``Translation``, "Counts").
///
/// JSON: `{"id": "potty.streak.1", "category": "potty", "tiers": [2, 3], "milestoneTypes":
/// ["streak"], "text": "{value} days of outdoor potty in a row! 🎉", "forms": {"one": "{value}
/// day of outdoor potty in a row! 🎉"}}`. `tiers` defaults to all three, `retroactive` to
/// `false`; `milestoneTypes`, `amountTier` and `forms` are optional.
public struct MessageTemplate: Hashable, Sendable, Codable, Identifiable {
    /// The category of the fallback templates, used when no template of the unlock's own
    /// category fits.
    public static let genericCategory = "generic"

    /// The template's id, unique within its catalog; recorded to avoid repeating it.
    public var id: String
    /// The achievement category it is written for, or ``genericCategory``. A category also
    /// fits its subcategories: `potty` fits `potty_outdoor`.
    public var category: String
    /// The celebration tiers it suits.
    public var tiers: [CelebrationTier]
    /// The milestone types it is written for (`streak`, `first`, …); `nil` for any.
    public var milestoneTypes: [String]?
    /// For amount milestones, the only savings tier it suits (seed 002's "First milestone! ✨"
    /// is for `$1k`); `nil` for any.
    public var amountTier: MilestoneTier?
    /// Whether it is for retroactive unlocks ("Looks like …"), which use only these.
    public var retroactive: Bool
    /// The text with placeholders; for a template that counts `{value}`, its `other` form.
    public var text: String
    /// For a template that counts `{value}`, its forms for the other plural categories of
    /// the catalog's language, with the placeholders of ``text``; empty otherwise.
    public var forms: [PluralCategory: String]

    /// Creates a template.
    ///
    /// - Parameters:
    ///   - id: The template's id, unique within its catalog.
    ///   - category: The achievement category, or ``genericCategory``.
    ///   - tiers: The celebration tiers it suits.
    ///   - milestoneTypes: The milestone types it is written for; `nil` for any.
    ///   - amountTier: For amount milestones, the savings tier it suits; `nil` for any.
    ///   - retroactive: Whether it is for retroactive unlocks.
    ///   - text: The text with placeholders.
    ///   - one: For a template that counts `{value}`, its `one` form.
    ///   - countsDays: Whether the text counts `{value}` in days; by default, whether it says
    ///     so (`{value} days`, `{value}-day`).
    public init(
        id: String, category: String, tiers: [CelebrationTier] = CelebrationTier.allCases,
        milestoneTypes: [String]? = nil, amountTier: MilestoneTier? = nil, retroactive: Bool = false, text: String,
        one: String? = nil, countsDays: Bool? = nil
    ) {
        self.init(
            id: id, category: category, tiers: tiers, milestoneTypes: milestoneTypes, amountTier: amountTier,
            retroactive: retroactive, text: text, forms: one.map { [.one: $0] } ?? [:], countsDays: countsDays)
    }

    /// Creates a template with its plural forms.
    ///
    /// - Parameters:
    ///   - id: The template's id, unique within its catalog.
    ///   - category: The achievement category, or ``genericCategory``.
    ///   - tiers: The celebration tiers it suits.
    ///   - milestoneTypes: The milestone types it is written for; `nil` for any.
    ///   - amountTier: For amount milestones, the savings tier it suits; `nil` for any.
    ///   - retroactive: Whether it is for retroactive unlocks.
    ///   - text: The text with placeholders (the `other` form of a counting template).
    ///   - forms: The forms for the other plural categories.
    ///   - countsDays: Whether the text counts `{value}` in days; by default, whether it says so.
    public init(
        id: String, category: String, tiers: [CelebrationTier], milestoneTypes: [String]?, amountTier: MilestoneTier?,
        retroactive: Bool, text: String, forms: [PluralCategory: String], countsDays: Bool? = nil
    ) {
        self.forms = forms.filter { $0.key != .other }
        self.id = id
        self.category = category
        self.tiers = tiers
        self.milestoneTypes = milestoneTypes
        self.amountTier = amountTier
        self.retroactive = retroactive
        self.text = text
        self.countsDays = countsDays ?? Self.countsDays(in: text)
    }

    /// Whether the template counts `{value}` in days ("{value}-day streak"), so that it
    /// suits only an unlock counted in days: a weekly habit's 7-week streak is not a
    /// "7-day streak". Decided from the source text and kept by a translation, so the choice
    /// of template never depends on the language.
    public var countsDays: Bool

    /// Whether a text says `{value}` is a number of days.
    static func countsDays(in text: String) -> Bool {
        ["{value} days", "{value}-day", "{value} outdoor days"].contains { text.contains($0) }
    }

    /// The placeholder names a template may use.
    public static let placeholderNames: Set<String> = [
        "name", "value", "habit", "item", "goal", "stage", "duration", "title", "when",
    ]

    /// The names of the placeholders in ``text``.
    public var placeholders: Set<String> { Self.placeholders(in: text) }

    /// The names of the placeholders in a text.
    static func placeholders(in text: String) -> Set<String> {
        Set(segments(of: text).compactMap { $0.placeholder.map(String.init) })
    }

    /// The text in a plural form with each placeholder that has a value replaced by it.
    ///
    /// - Parameters:
    ///   - values: Values by placeholder name (`["name": "Ollie"]`).
    ///   - form: The plural category of the counted `{value}`; a form the template lacks is
    ///     its ``text``.
    /// - Returns: The text; placeholders without a value are left as written.
    public func render(_ values: [String: String], form: PluralCategory = .other) -> String {
        TemplateText.render(forms[form] ?? text, values) { Self.placeholderNames.contains(String($0)) }
    }

    /// Whether it is written for a category: the same, or a subcategory of it.
    func fits(category unlockCategory: String) -> Bool {
        unlockCategory == category || unlockCategory.hasPrefix(category + "_")
    }

    /// `text` cut into literal runs and `{placeholder}`s named in ``placeholderNames``.
    private static func segments(of text: String) -> [(text: Substring, placeholder: Substring?)] {
        TemplateText.segments(of: text) { placeholderNames.contains(String($0)) }
    }

    private enum CodingKeys: String, CodingKey {
        case id, category, tiers, milestoneTypes, amountTier, retroactive, text, forms, countsDays
    }

    /// Decodes a template; `tiers` defaults to all three and `retroactive` to `false`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            category: try container.decode(String.self, forKey: .category),
            tiers: try container.decodeIfPresent([CelebrationTier].self, forKey: .tiers) ?? CelebrationTier.allCases,
            milestoneTypes: try container.decodeIfPresent([String].self, forKey: .milestoneTypes),
            amountTier: try container.decodeIfPresent(MilestoneTier.self, forKey: .amountTier),
            retroactive: try container.decodeIfPresent(Bool.self, forKey: .retroactive) ?? false,
            text: try container.decode(String.self, forKey: .text),
            forms: try container.decodeIfPresent([PluralCategory: String].self, forKey: .forms) ?? [:],
            countsDays: try container.decodeIfPresent(Bool.self, forKey: .countsDays))
    }
}
