import Foundation

/// The engine's texts in one language, and how that language writes numbers.
///
/// English is the language of the source: every text the engine writes for people is in
/// code, in English, under a stable key (`message.potty.streak.1`,
/// `pack.habits.rule.streak-7.title`, `relative.yesterday`), and ``english`` returns every
/// default as written. Every other language is a file bundled with the module,
/// `Resources/Languages/<tag>.json`:
///
/// ```json
/// {"meta": {"name": "Português (Brasil)", "groupingSeparator": ".", "decimalSeparator": ",",
///           "plurals": {"one": "i = 0..1", "many": "e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5"}},
///  "texts": {"relative.yesterday": "ontem", "count.day.one": "{count} dia", "count.day.other": "{count} dias"}}
/// ```
///
/// Adding a language is adding its file. A text the file lacks (or leaves blank) is written
/// in English; `TranslationTests` fails until every language has every key the engine uses,
/// and no other. Placeholders (`{name}`, `{value}`) stay in braces, untranslated.
///
/// **Counts.** A text that shows a count (`{count}`, or a milestone's `{value}`) is a plural
/// group: one text per plural category of the language, under the group's key and the
/// category (`count.day.one`, `count.day.many`, `count.day.other`). The language's rules
/// (`meta.plurals`, CLDR's conditions, read by ``PluralRules``) pick the category of the
/// number as the language writes it; a language needs every category its rules name, and
/// English has `one` and `other`.
///
/// Everything that writes a text takes a translation, English by default: the catalogs'
/// `translated(_:)` (``MessageCatalog/translated(_:)``, ``RulePack/translated(_:)``,
/// ``AffirmationCatalog/translated(_:)``, ``CelebrationCatalog/translated(_:)``) and a
/// `translation` parameter on coaching, notifications, summaries, captions and dates.
///
/// Pure and total: no clock and no system locale. The files are read once, the first time a
/// language other than English is asked for; a missing or broken file means its language is
/// not available, never a crash.
public struct Translation: Hashable, Sendable {
    /// BCP 47 tag: "en", "pt-BR".
    public let language: String
    /// The language's name in itself ("Português (Brasil)").
    let name: String
    /// What separates groups of three digits ("," in English).
    let groupingSeparator: String
    /// What separates the whole part from the fraction ("." in English).
    let decimalSeparator: String
    /// The translated texts by key; never blank.
    let texts: [String: String]
    /// The language's plural rules, which pick the form of a counted text.
    public let plurals: PluralRules

    init(
        language: String, name: String, groupingSeparator: String, decimalSeparator: String, texts: [String: String],
        plurals: PluralRules = .english
    ) {
        self.language = language
        self.name = name
        self.groupingSeparator = groupingSeparator
        self.decimalSeparator = decimalSeparator
        self.texts = texts
        self.plurals = plurals
    }

    /// English, the language of the source: every lookup returns its default.
    public static let english = Translation(
        language: "en", name: "English", groupingSeparator: ",", decimalSeparator: ".", texts: [:])

    /// The plural category of a number as this language writes it (see ``number(_:fractionDigits:)``):
    /// `one` for 1 in English, for 0 and 1 in Brazilian Portuguese.
    ///
    /// - Parameters:
    ///   - value: The number.
    ///   - fractionDigits: The most decimals it is written with, 0 to 6.
    /// - Returns: The category.
    public func pluralCategory(for value: Double, fractionDigits: Int = 2) -> PluralCategory {
        plurals.category(for: value, fractionDigits: fractionDigits)
    }

    /// The languages with a translation: "en" first, then every `Resources/Languages/<tag>.json`, sorted.
    public static let availableLanguages: [String] = ["en"] + bundled.keys.sorted()

    /// The translation for a tag, matched case-insensitively ("pt-br" → "pt-BR"); nil when none.
    ///
    /// An underscore counts as a hyphen (`pt_BR`), as system locale identifiers write it.
    ///
    /// - Parameter tag: A BCP 47 language tag.
    /// - Returns: The translation, or `nil` when no language has that tag.
    public static func named(_ tag: String) -> Translation? {
        let wanted = normalized(tag).lowercased()
        guard !wanted.isEmpty else { return nil }
        if wanted == english.language { return english }
        return bundled.first { $0.key.lowercased() == wanted }?.value
    }

    /// The best available language for a list of preferred tags in order (from a profile or an
    /// Accept-Language header): exact match first, then same primary language ("pt-PT", "pt" → "pt-BR",
    /// "en-GB" → "en"); nil when none matches.
    ///
    /// Tags are tried one after another, each first exactly (case-insensitively), then by its
    /// primary language, so a reader who prefers `pt-PT` to `en` gets `pt-BR`. Among several
    /// languages with the same primary language, the one whose tag is that primary language
    /// alone wins, then the first in ``availableLanguages``. A quality suffix (`;q=0.8`) is
    /// ignored (order the tags by it first); `*` and blank tags match nothing.
    ///
    /// - Parameter preferred: Language tags, most preferred first.
    /// - Returns: A tag of ``availableLanguages``, or `nil`.
    public static func bestMatch(for preferred: [String]) -> String? {
        for raw in preferred {
            let tag = normalized(raw).lowercased()
            guard !tag.isEmpty, tag != "*" else { continue }
            if let exact = availableLanguages.first(where: { $0.lowercased() == tag }) { return exact }
            let primary = primaryLanguage(tag)
            let same = availableLanguages.filter { primaryLanguage($0.lowercased()) == primary }
            if let match = same.first(where: { $0.lowercased() == primary }) ?? same.first { return match }
        }
        return nil
    }

    /// The translated text for a key, or `english` when this language lacks it (English has no texts).
    ///
    /// - Parameters:
    ///   - key: The text's key (`relative.yesterday`).
    ///   - english: The English text, written in code.
    /// - Returns: The text in this language.
    public func text(_ key: String, default english: String) -> String {
        texts[key] ?? english
    }

    /// A whole number or decimal written the language's way ("1,000" / "1.000"; "2.5" / "2,5").
    ///
    /// Whole numbers get a separator between groups of three digits; other numbers are
    /// rounded to `fractionDigits` decimals, without trailing zeros (`12.5`, `0.33`). With
    /// the default two decimals, English writes exactly what ``MilestoneNumber/text(_:)``
    /// writes. Total: a value that is not finite, or too large to round, is written as Swift
    /// writes it.
    ///
    /// - Parameters:
    ///   - value: The number.
    ///   - fractionDigits: The most decimals written, 0 to 6.
    /// - Returns: The number as text.
    public func number(_ value: Double, fractionDigits: Int = 2) -> String {
        guard value.isFinite else { return "\(value)" }
        let digits = min(max(fractionDigits, 0), 6)
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard scaled < 9e15 else { return "\(value)" }
        let units = Int(scaled)
        var whole = String(units / scale)
        var grouped = ""
        while whole.count > 3 {
            grouped = groupingSeparator + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        grouped = whole + grouped
        var fraction = ""
        if units % scale != 0 {
            let digitsText = String(units % scale)
            fraction = String(repeating: "0", count: digits - digitsText.count) + digitsText
            while fraction.hasSuffix("0") { fraction.removeLast() }
            fraction = decimalSeparator + fraction
        }
        return (value < 0 && units > 0 ? "-" : "") + grouped + fraction
    }

    /// Two translations are equal when they write the same texts the same way.
    public static func == (lhs: Translation, rhs: Translation) -> Bool {
        lhs.language == rhs.language && lhs.groupingSeparator == rhs.groupingSeparator
            && lhs.decimalSeparator == rhs.decimalSeparator && lhs.name == rhs.name && lhs.texts == rhs.texts
            && lhs.plurals == rhs.plurals
    }

    /// Hashes the language's tag (equal translations share it; hashing every text would be slow).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(language)
    }

    /// A tag as written by people and systems, tidied: spaces and a quality suffix removed,
    /// underscores as hyphens.
    private static func normalized(_ tag: String) -> String {
        let head = tag.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return head.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
    }

    /// The primary language subtag of a lowercased tag (`pt` of `pt-br`).
    private static func primaryLanguage(_ tag: String) -> String {
        String(tag.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
