import Foundation
import Testing

@testable import MomentumCore
@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The web app's languages: every language has every string, every string the app asks
/// for exists, and a request finds its language.
struct WordingTests {
    /// The repository's `Sources`, found from this file.
    static let sources = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Sources")
    /// The web module's sources: its pages, templates and scripts.
    static let webSources = sources.appending(path: "MomentumWeb")

    static func files(in folder: URL, ending suffix: String) throws -> [(name: String, text: String)] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var files: [(String, String)] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.lastPathComponent.hasSuffix(suffix) else { continue }
            files.append((url.lastPathComponent, try String(contentsOf: url, encoding: .utf8)))
        }
        return files
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    static func placeholders(_ text: String) throws -> Set<String> {
        Set(try matches(#"\{(\w+)\}"#, in: text))
    }

    @Test func everyLanguageHasEveryStringWithTheSamePlaceholders() throws {
        let english = Wording.english.texts
        #expect(Wording.languages.count >= 2)
        #expect(english.count > 10)
        for tag in Wording.languages where tag != "en" {
            let raw = try Self.rawTexts(tag)
            // A plural group has the forms of the language's own categories (see below).
            let expected = Self.expectedKeys(tag)
            let missing = expected.subtracting(raw.keys).sorted()
            let unknown = Set(raw.keys).subtracting(expected).sorted()
            #expect(missing.isEmpty, "\(tag) lacks \(missing.count) strings: \(missing.prefix(40))")
            #expect(unknown.isEmpty, "\(tag) has strings English does not: \(unknown.prefix(40))")
            for (key, text) in raw {
                guard let source = english[key] ?? english[Self.otherForm(of: key)] else { continue }
                #expect(
                    try Self.placeholders(text) == Self.placeholders(source),
                    "\(tag) \(key): placeholders differ from English")
                #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(tag) \(key) is blank")
            }
        }
    }

    /// The plural groups of the web app: the keys whose English strings have a `one` and an
    /// `other` form (`journey.units.day`).
    static var pluralGroups: Set<String> {
        let keys = Wording.english.texts.keys
        return Set(
            keys.filter { $0.hasSuffix(".one") }.map { String($0.dropLast(".one".count)) }
                .filter { keys.contains("\($0).other") })
    }

    /// The `other` form of a plural form's key (`….many` → `….other`), or the key itself.
    static func otherForm(of key: String) -> String {
        guard let dot = key.lastIndex(of: "."), pluralGroups.contains(String(key[..<dot])) else { return key }
        return String(key[..<dot]) + ".other"
    }

    /// The keys a language needs: English's, each plural group with the categories of the
    /// language's rules.
    static func expectedKeys(_ tag: String) -> Set<String> {
        let categories = Wording.all[tag]?.plurals.categories ?? PluralRules.english.categories
        var keys = Set(Wording.english.texts.keys)
        for group in pluralGroups {
            keys.subtract(PluralCategory.allCases.map { "\(group).\($0.rawValue)" })
            keys.formUnion(categories.map { "\(group).\($0.rawValue)" })
        }
        return keys
    }

    /// The scan: in every language, a string that shows `{count}` is a form of a plural group,
    /// every group has a form for each category of the language's CLDR rules (`one` and
    /// `other` in English; `one`, `many` and `other` in Brazilian Portuguese), and a `one`
    /// form never says the plural noun of its `other` form ("1 days", issue 45).
    @Test func everyCountedStringHasThePluralFormsOfItsLanguage() throws {
        #expect(Self.pluralGroups.count > 50)
        for tag in Wording.languages {
            let raw = try Self.rawTexts(tag)
            let strings = try #require(Wording.all[tag])
            #expect(strings.plurals == Translation.named(tag)?.plurals, "\(tag): the engine's rules")
            for (key, text) in raw where text.contains("{count}") {
                let group = key.split(separator: ".").dropLast().joined(separator: ".")
                #expect(Self.pluralGroups.contains(group), "\(tag) \(key) shows a count without plural forms")
            }
            for group in Self.pluralGroups {
                for category in strings.plurals.categories {
                    #expect(raw["\(group).\(category.rawValue)"] != nil, "\(tag) lacks \(group).\(category.rawValue)")
                }
                guard let one = raw["\(group).one"], let other = raw["\(group).other"] else { continue }
                for noun in try Self.matches(#"\{count\} (\p{L}+s)\b"#, in: other) {
                    #expect(!one.contains("{count} \(noun)"), "\(tag) \(group).one: \(one)")
                }
            }
        }
    }

    @Test func countsTakeTheirLanguagesForm() throws {
        let english = Wording.english
        let portuguese = try #require(Wording.all["pt-BR"])
        // Each group in turn: 1 and 2 in English, 0, 1, 2 and a million in Portuguese.
        for group in Self.pluralGroups {
            #expect(english.form(group, 1) == "\(group).one")
            #expect(english.form(group, 2) == "\(group).other")
            #expect(english.form(group, 0) == "\(group).other")
            #expect(portuguese.form(group, 0) == "\(group).one")
            #expect(portuguese.form(group, 1) == "\(group).one")
            #expect(portuguese.form(group, 2) == "\(group).other")
            #expect(portuguese.form(group, 1_000_000) == "\(group).many")
        }
        #expect(english.count("journey.units.day", 1) == "1 day")
        #expect(english.count("journey.units.day", 2) == "2 days")
        #expect(english.count("journey.rule.streak", 1, ["what": "Walk", "broken": ""]) == "1 day in a row of Walk")
        #expect(english.count("js.app.store.freezes", 1) == "1 freeze")
        #expect(portuguese.count("journey.units.day", 0) == "0 dia")
        #expect(portuguese.count("journey.units.day", 1) == "1 dia")
        #expect(portuguese.count("journey.units.day", 2) == "2 dias")
        #expect(portuguese.count("journey.units.day", 1_000_000) == "1.000.000 de dias")
        #expect(english.count("push.reaction.title", 1, ["name": "Ana"]) == "Ana cheered you on")
        #expect(portuguese.count("push.reaction.body", 3, ["who": "Ana, Bia e mais 1 pessoa"]).contains("reagiram"))
        // A language without a form for a category reads its `other` form.
        #expect(english.form("no.such.group", 1) == "no.such.group.other")
    }

    /// A language's own strings, before English fills its gaps.
    static func rawTexts(_ tag: String) throws -> [String: String] {
        let folder = sources.appending(path: "MomentumServices/Resources/locales/\(tag)")
        var texts: [String: String] = [:]
        for (name, text) in try files(in: folder, ending: ".json") where name != "meta.json" {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            texts.merge(Wording.flatten(object, prefix: String(name.dropLast(".json".count)))) { a, _ in a }
        }
        return texts
    }

    @Test func everyStringTheAppAsksForExists() throws {
        let english = Wording.english.texts
        var asked: [(key: String, place: String)] = []
        for (name, text) in try Self.files(
            in: Self.webSources.appending(path: "Resources/templates"), ending: ".mustache")
        {
            asked += try Self.matches(#"\{\{\{?\s*t\.([\w.]+)\s*\}?\}\}"#, in: text).map { ($0, name) }
        }
        let swift = try ["MomentumServices", "MomentumServer", "MomentumWeb"].flatMap {
            try Self.files(in: Self.sources.appending(path: $0), ending: ".swift")
        }
        for (name, text) in swift {
            asked += try Self.matches(#"\bL\(\s*"([\w.]+)""#, in: text).map { ($0, name) }
            asked += try Self.matches(#"\.count\(\s*"([\w.]+)""#, in: text).flatMap { ["\($0).one", "\($0).other"] }
                .map { ($0, name) }
            asked += try Self.matches(#"(?:Wording\.current|\bstrings)\(\s*"([\w.]+)""#, in: text).map { ($0, name) }
        }
        for (name, text) in try Self.files(
            in: Self.webSources.appending(path: "Resources/static"), ending: ".js")
        {
            asked += try Self.matches(#"\bt\(\s*['"`]([\w.]+)['"`]"#, in: text).map { ("js.\($0)", name) }
            asked += try Self.matches(#"\btn\(\s*['"`]([\w.]+)['"`]"#, in: text).flatMap {
                ["js.\($0).one", "js.\($0).other"]
            }.map { ($0, name) }
        }
        #expect(asked.count > 20)
        let missing = asked.filter { english[$0.key] == nil }.map { "\($0.place): \($0.key)" }
        #expect(missing.isEmpty, "strings asked for but not in English: \(missing)")
    }

    @Test func theWebAndTheEngineSpeakTheSameLanguages() {
        #expect(Wording.languages == Translation.availableLanguages)
        for tag in Wording.languages {
            #expect(Translation.named(tag)?.language == tag)
        }
    }

    @Test func aRequestFindsItsLanguage() {
        func negotiated(_ profile: String?, _ header: String?) -> String {
            Wording.negotiate(profile: profile, acceptLanguage: header).language
        }
        #expect(negotiated("pt-BR", "en-US,en;q=0.9") == "pt-BR")
        #expect(negotiated(nil, "pt-BR,pt;q=0.9,en;q=0.8") == "pt-BR")
        #expect(negotiated(nil, "pt-PT") == "pt-BR")
        #expect(negotiated(nil, "fr-FR, de;q=0.8") == "en")
        #expect(negotiated(nil, "en;q=0.1, pt-br;q=0.9") == "pt-BR")
        #expect(negotiated(nil, "pt;q=0, en") == "en")
        #expect(negotiated(nil, "*") == "en")
        #expect(negotiated(nil, nil) == "en")
        #expect(negotiated(nil, String(repeating: "pt-BR,", count: 1_000)) == "en")
        #expect(negotiated(nil, ";;;,,q=,pt;q=abc,pt;q=nan") == "en")
        #expect(negotiated("xx", "pt") == "pt-BR")
        #expect(Wording.preferred("a;q=0.5, b, c;q=0.9") == ["b", "c", "a"])
    }

    @Test func datesNumbersAndMoneyAreWrittenTheLanguagesWay() throws {
        let day = try #require(LocalDay(iso8601: "2026-11-24"))
        let english = Wording.english
        let portuguese = try #require(Wording.all["pt-BR"])
        #expect(english.day(day) == day.readable)
        #expect(english.day(day) == "Tue 24 Nov 2026")
        #expect(portuguese.day(day) == "ter., 24 de nov. de 2026")
        #expect(portuguese.day(day, "month") == "novembro de 2026")
        #expect(english.number(1_234_567) == "1,234,567")
        #expect(portuguese.number(1_234.5, fractionDigits: 1) == "1.234,5")
        #expect(english.money(1_234.5) == "$1,234.50")
        #expect(portuguese.money(1_234.5).replacingOccurrences(of: "\u{00A0}", with: " ") == "R$ 1.234,50")
        #expect(english.number(.infinity) == "–")
        #expect(portuguese.count("common.unread", 0) == "0 não lida")
        #expect(english.count("common.unread", 2) == "2 unread")
        #expect(english("common.store.freezes.other", ["count": "3"]) == "3 freezes")
        #expect(english("no.such.key") == "no.such.key")
    }

    @Test func refusalsAreToldInThePagesLanguage() throws {
        let portuguese = try #require(Wording.all["pt-BR"])
        let credentials = ServiceError(.unauthenticated, "invalid_credentials", "wrong email or password")
        let fields = ServiceError(
            .invalid, "invalid_input", "…",
            fields: [
                .init(field: "displayName", issue: "must have 1 to 100 characters"),
                .init(field: "habit", issue: "is not one of yours"),
            ])
        let unknown = ServiceError(.conflict, "something_new", "a new refusal")
        Wording.$current.withValue(portuguese) {
            #expect(WebController<MomentumContext>.sentences(credentials) == "E-mail ou senha incorretos.")
            // A field the page knows is told in Portuguese; one it does not, as the API says.
            #expect(
                WebController<MomentumContext>.sentences(fields)
                    == "O nome precisa ter de 1 a 100 caracteres. Habit is not one of yours.")
            #expect(WebController<MomentumContext>.sentences(unknown) == "A new refusal.")
        }
        #expect(WebController<MomentumContext>.sentences(credentials) == "Wrong email or password.")
        #expect(
            WebController<MomentumContext>.sentences(fields)
                == "Display name must have 1 to 100 characters. Habit is not one of yours.")
    }

    @Test func fillingPlaceholdersIsTotal() {
        #expect(Wording.fill("{a} and {b}", ["a": "1"]) == "1 and {b}")
        #expect(Wording.fill("{unclosed", ["unclosed": "x"]) == "{unclosed")
        #expect(Wording.fill("}{}{", ["": "e"]) == "}e{")
        #expect(Wording.fill("{a}", ["a": "{a}"]) == "{a}")
    }

    @Test func theScriptsStringsCannotEndTheirElement() throws {
        for tag in Wording.languages {
            let script = try #require(Wording.all[tag]).script
            #expect(!script.contains("</"))
            let object = try JSONSerialization.jsonObject(with: Data(script.utf8)) as? [String: String]
            #expect(object?.isEmpty == false)
        }
    }
}
