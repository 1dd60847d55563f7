import Foundation
import Testing

@testable import MomentumCore

/// Counts in the engine's words follow each language's CLDR plural rules: "1 day", "2 days";
/// "0 dia", "1 dia", "2 dias", "1.000.000 de dias" (issue 45, "1 days").
@Suite struct PluralTests {
    static let portuguese = Translation.named("pt-BR")!
    static let languages =
        [Translation.english] + Translation.availableLanguages.dropFirst().compactMap(Translation.named)

    // MARK: - The rules

    /// CLDR's own samples (`plurals.xml`, `@integer` and `@decimal`) for English and Portuguese.
    @Test func theRulesGiveCLDRsSamples() throws {
        let english: [PluralCategory: [Double]] = [
            .one: [1], .other: [0, 2, 3, 16, 100, 1000, 10_000, 100_000, 1_000_000, 0.1, 0.9, 1.1, 1.5, 10.5],
        ]
        let portuguese: [PluralCategory: [Double]] = [
            .one: [0, 1, 0.1, 0.5, 1.5], .many: [1_000_000, 2_000_000, 6_000_000],
            .other: [2, 3, 17, 100, 1000, 10_000, 100_000, 1_000_001, 2.5, 3.5, 10.5],
        ]
        for (rules, samples) in [(PluralRules.english, english), (Self.portuguese.plurals, portuguese)] {
            for (category, numbers) in samples {
                for number in numbers {
                    #expect(rules.category(for: number) == category, "\(rules.source) \(number)")
                }
            }
        }
        #expect(PluralRules.english.categories == [.one, .other])
        #expect(Self.portuguese.plurals.categories == [.one, .many, .other])
        // A number is classified as it is written: 1.001 shows as 1 with two decimals.
        #expect(PluralRules.english.category(for: 1.001) == .one)
        #expect(PluralRules.english.category(for: 1.001, fractionDigits: 3) == .other)
        #expect(PluralRules.english.category(for: .nan) == .other)
        #expect(PluralRules.english.category(for: -1) == .one)
    }

    @Test func rulesCLDRWritesAreReadAndOthersRefused() throws {
        // Other languages' rules, to show that a new language needs only its file.
        let czech = try #require(
            PluralRules([.one: "i = 1 and v = 0", .few: "i = 2..4 and v = 0", .many: "v != 0"]))
        #expect([1.0, 2, 4, 5, 1.5].map { czech.category(for: $0) } == [.one, .few, .few, .other, .many])
        let polish = try #require(
            PluralRules([
                .one: "i = 1 and v = 0", .few: "v = 0 and i % 10 = 2..4 and i % 100 != 12..14",
                .many: "v = 0 and i != 1 and i % 10 = 0..1 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 12..14",
            ]))
        #expect([1.0, 2, 12, 22, 25, 0].map { polish.category(for: $0) } == [.one, .few, .many, .few, .many, .many])
        let arabic = try #require(
            PluralRules([
                .zero: "n = 0", .one: "n = 1", .two: "n = 2", .few: "n % 100 = 3..10", .many: "n % 100 = 11..99",
            ]))
        #expect([0.0, 1, 2, 3, 11, 100].map { arabic.category(for: $0) } == [.zero, .one, .two, .few, .many, .other])
        #expect(PluralRules([.one: "i = 0,1 @integer 0, 1 @decimal 0.0~1.5"])?.category(for: 1.5) == .one)

        for broken in ["", "i", "i = ", "x = 1", "i == 1", "i = 1 and", "i = 2..1", "i mod 0 = 1", "i = one"] {
            #expect(PluralRules([.one: broken]) == nil, "\(broken)")
        }
        #expect(PluralRules([.other: "i = 1"]) == nil)
        let file = #"{"meta": {"plurals": {"one": "i = "}}, "texts": {"a": "A"}}"#
        #expect(Translation(language: "xx", json: Data(file.utf8)) == nil)
        let unknown = #"{"meta": {"plurals": {"several": "i = 2"}}, "texts": {"a": "A"}}"#
        #expect(Translation(language: "xx", json: Data(unknown.utf8)) == nil)
    }

    // MARK: - Every counted text has its forms

    /// The scan: in every language, a text that shows a count (`{count}`, or a milestone's
    /// `{value}`) is one form of a plural group, and every group has a text for each category
    /// of the language's rules. (Ordinals are forms of English's ordinal rule.)
    @Test func everyCountedTextHasItsPluralForms() throws {
        let counted = try Regex(#"\{(count|value)\}"#)
        for language in Self.languages {
            let keys = Translation.keys(for: language)
            for (key, english) in keys.sorted(by: { $0.key < $1.key }) {
                let text = language.text(key, default: english)
                guard text.contains(counted), !key.hasPrefix("ordinal.") else { continue }
                let group = key.split(separator: ".").dropLast().joined(separator: ".")
                #expect(
                    Translation.pluralKeys.contains(group), "\(language.language) \(key) counts without plural forms")
            }
            for group in Translation.pluralKeys {
                for key in language.pluralKeys(of: group) {
                    #expect(keys[key] != nil, "\(language.language) lacks \(key)")
                }
            }
        }
        // The catalogs themselves: every template and bundled title that shows `{value}`.
        for template in MessageCatalog.standard.templates where template.text.contains(counted) {
            #expect(template.forms[.one] != nil, "\(template.id) has no one form")
        }
        for (name, pack) in RulePack.bundled {
            for rule in pack.achievements where rule.title.contains(counted) {
                #expect(rule.titleForms?[.one] != nil, "\(name) \(rule.id) has no one form")
            }
        }
    }

    // MARK: - "1 day" and "2 days", in both languages

    static let singularNouns = [
        "day", "week", "command", "adventure", "dog", "walk", "new friend", "experience", "dia", "semana", "comando",
        "aventura", "cachorro", "passeio", "novo amigo", "experiência",
    ]
    static let pluralNouns = [
        "days", "weeks", "commands", "adventures", "dogs", "walks", "new friends", "experiences", "dias", "semanas",
        "comandos", "aventuras", "cachorros", "passeios", "novos amigos", "experiências",
    ]

    /// Whether `text` says `number` followed by one of `nouns` as whole words.
    static func says(_ text: String, _ number: String, _ nouns: [String]) -> Bool {
        nouns.contains { noun in
            var rest = text[...]
            while let found = rest.range(of: "\(number) \(noun)") {
                let before = text[..<found.lowerBound].last
                let after = text[found.upperBound...].first
                if !(before?.isNumber ?? false), before != ".", before != ",", !(after?.isLetter ?? false) {
                    return true
                }
                rest = text[found.upperBound...]
            }
            return false
        }
    }

    /// The wrong form for a number: a plural noun after a `one` number, a singular one after
    /// any other.
    static func wrongForm(_ text: String, _ count: Double, _ translation: Translation) -> Bool {
        let number = translation.number(count)
        let one = translation.pluralCategory(for: count) == .one
        return says(text, number, one ? pluralNouns : singularNouns)
    }

    /// Every counted template and title, written for 0, 1, 2, 5 and a million, takes the form
    /// of the number's category in each language: "1 day" and "2 days", "0 dia" and "0 days",
    /// never "1 days" or "2 dia".
    @Test func everyCountedMessageSaysOneDayAndTwoDays() throws {
        for translation in Self.languages {
            let catalog = MessageCatalog.standard.translated(translation)
            for template in catalog.templates where !template.forms.isEmpty {
                for count in [0.0, 1, 2, 5, 1_000_000] {
                    let values = ["value": translation.number(count), "name": "Ollie", "habit": "Read", "title": "T"]
                    let text = template.render(values, form: translation.pluralCategory(for: count))
                    #expect(
                        !Self.wrongForm(text, count, translation), "\(translation.language) \(template.id): \(text)")
                    if translation.language == "pt-BR", count == 1_000_000, text.contains("dias") {
                        #expect(text.contains("1.000.000 de dias"), "\(template.id): \(text)")
                    }
                }
            }
            for name in RulePack.bundledOrder {
                guard let pack = RulePack.bundled[name]?.translated(translation) else { continue }
                for rule in pack.achievements where rule.titleForms != nil {
                    for count in [1.0, 2] {
                        var values = [
                            "value": AchievementEngine.number(count, translation: translation), "habit": "Read",
                        ]
                        values["unit"] = translation == .english ? "day" : translation.titleUnit("day", count: count)
                        let title = AchievementEngine.fill(rule.title(for: count, plurals: translation.plurals), values)
                        #expect(
                            !Self.wrongForm(title, count, translation), "\(translation.language) \(rule.id): \(title)")
                    }
                }
            }
        }
        // The check itself catches the defect.
        #expect(Self.wrongForm("1 days of Read in a row! 🏆", 1, .english))
        #expect(Self.wrongForm("0 dias seguidos", 0, Self.portuguese))
        #expect(!Self.wrongForm("0 days in a row", 0, .english))
    }

    @Test func theFirstCheckInOfAHabitSaysOneDay() throws {
        // The terminal client's first check-in: the habits pack's first-check-in unlock.
        var user = MomentumUser(pack: .habits)
        let now = RFC3339.parse("2026-03-10T12:00:00Z")!
        _ = try user.append(
            Event(
                id: "h", at: now - 60, timeZone: "UTC",
                payload: .habitCreated(HabitDefinition(id: "read", name: "Read"))),
            now: now)
        let (_, unlocks) = try user.append(
            Event(
                id: "c", at: now, timeZone: "UTC", payload: .completion(habit: "read", day: nil, value: 1, note: nil)),
            now: now)
        let first = try #require(unlocks.first { $0.rule == "first-check-in" })
        #expect(first.value == 1)
        let streak = try #require(MessageCatalog.standard.templates.first { $0.id == "streaks.streak.4" })
        let values = MessageCatalog.values(for: first, subject: nil, today: first.achievedDay)
        #expect(streak.render(values, form: Translation.english.pluralCategory(for: 1)) == "1 day of Read in a row! 🏆")
        #expect(streak.render(values) == "1 days of Read in a row! 🏆", "the other form, as it was")
        // Whichever template the catalog picks, in English and Portuguese, it is singular.
        for translation in [Translation.english, Self.portuguese] {
            let message = MessageCatalog.standard.translated(translation).message(for: first, today: first.achievedDay)
            #expect(!message.text.contains("1 days") && !message.text.contains("1 dias"), "\(message.text)")
        }
    }

    @Test func fixedTextsCountInEachLanguage() throws {
        let portuguese = Self.portuguese
        #expect(Translation.english.count(1, "day") == "1 day")
        #expect(Translation.english.count(2, "day") == "2 days")
        #expect(Translation.english.count(0, "day") == "0 days")
        #expect(portuguese.count(0, "day") == "0 dia")
        #expect(portuguese.count(1, "day") == "1 dia")
        #expect(portuguese.count(2, "week") == "2 semanas")
        #expect(portuguese.count(1_000_000, "day") == "1000000 de dias")
        #expect(portuguese.streakLength(1, "day") == "de 1 dia")
        #expect(portuguese.streakLength(3, "month") == "de 3 meses")
        #expect(Translation.english.text(MessageText.weeksAgo, ["count": "1"]) == "1 week ago")
        #expect(Translation.english.text(MessageText.weeksAgo, ["count": "3"]) == "3 weeks ago")
        #expect(portuguese.text(MessageText.weeksAgo, ["count": "1"]) == "há 1 semana")
        #expect(portuguese.text(MessageText.weeksAgo, ["count": "3"]) == "há 3 semanas")
        #expect(Translation.english.text(ProgressionText.daysAgo, ["count": "1"]) == "1 day ago")
        #expect(portuguese.text(ProgressionText.daysAgo, ["count": "2"]) == "há 2 dias")
        // A pack's title unit follows its value in Portuguese.
        #expect(portuguese.titleUnit("day", count: 1) == "dia")
        #expect(portuguese.titleUnit("day", count: 30) == "dias")
        // A caption's days: "1 dia", "0,5 dia" (one in Portuguese), "2,5 days" in English.
        #expect(portuguese.count(portuguese.number(0.5), value: 0.5, "day") == "0,5 dia")
        #expect(Translation.english.count("2.5", value: 2.5, "day") == "2.5 days")
    }
}
