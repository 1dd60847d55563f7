import Foundation
import MomentumCore
import Synchronization

/// The web app's words in one language, and how it writes dates, numbers and amounts.
///
/// Each language is a folder, `Resources/locales/<tag>/`, of JSON files: `meta.json`
/// (the language's name, its Foundation locale, currency and date patterns) and one file per
/// area of the app (`today.json`, `js.json`, …) holding nested objects of strings. A string
/// is found by its area and path, `today.title`; templates write `{{t.today.title}}`, Swift
/// views `L("today.title")`, the browser's script `t("…")` on the `js` area, which every
/// page carries as JSON. Values go in braces: `L("push.family.body", ["name": name])` fills
/// `{name}`. A count picks the form of its plural category in the language (`<key>.one`,
/// `<key>.many`, `<key>.other`; CLDR's rules, which the language's file under MomentumCore's
/// `Resources/Languages` names) and fills `{count}`; every form a language's rules name is
/// there (`WebStringsTests`), and a missing one reads as `<key>.other`.
///
/// English (`en`) is complete by definition; another language falls back to English for a
/// string it lacks, and `WebStringsTests` fails until every language has every string.
/// Adding a language is adding its folder here and its file under MomentumCore's
/// `Resources/Languages`.
public final class Wording: @unchecked Sendable {
    // Unchecked: every stored property is immutable after loading except `formatters`,
    // which guards itself with a mutex.

    /// The language of the page being rendered; English outside one.
    @TaskLocal public static var current: Wording = english

    /// The language's tag (`en`, `pt-BR`).
    public let language: String
    /// The language's name in itself, as the profile's choice shows it.
    public let name: String
    /// The Foundation locale that writes its dates and numbers.
    public let locale: Locale
    /// The currency code of a savings amount written in this language.
    public let currency: String
    /// The language's plural rules (the engine's, from the same language's file): "1 day",
    /// "0 dia", "1.000.000 de dias".
    public let plurals: PluralRules
    /// Every string, by its dotted key (`today.title`), English filling the gaps.
    public let texts: [String: String]
    /// The same strings as nested dictionaries, for templates (`t.today.title`).
    public let tree: [String: Any]
    /// The `js` area as JSON, safe inside a `<script type="application/json">` element.
    public let script: String
    /// Date patterns by name (`long`, `short`, `month`, `weekday`).
    public let datePatterns: [String: String]
    private let formatters = Mutex<[String: DateFormatterBox]>([:])

    /// Every bundled language, by tag.
    public static let all: [String: Wording] = {
        do {
            return try load()
        } catch {
            fatalError("the web app's bundled strings could not be loaded: \(error)")
        }
    }()

    /// English, the language every other one falls back to.
    public static let english: Wording = {
        guard let english = all["en"] else { fatalError("the web app has no English strings") }
        return english
    }()

    /// The tags of the bundled languages, English first.
    public static var languages: [String] { ["en"] + all.keys.filter { $0 != "en" }.sorted() }

    private init(
        language: String, meta: [String: Any], texts: [String: String], tree: [String: Any], script: String
    ) {
        self.language = language
        name = meta["name"] as? String ?? language
        locale = Locale(identifier: meta["locale"] as? String ?? language.replacingOccurrences(of: "-", with: "_"))
        currency = meta["currency"] as? String ?? "USD"
        plurals = Translation.named(language)?.plurals ?? .english
        datePatterns = meta["dates"] as? [String: String] ?? [:]
        self.texts = texts
        self.tree = tree
        self.script = script
    }

    // MARK: Words

    /// The string at `key` with its `{placeholders}` filled; the key itself when no
    /// language has it (a test keeps that from shipping).
    public func callAsFunction(_ key: String, _ values: [String: String] = [:]) -> String {
        Self.fill(texts[key] ?? key, values)
    }

    /// The form of `<key>` for a count's plural category in this language, with `{count}`
    /// written in this language.
    public func count(_ key: String, _ count: Int, _ values: [String: String] = [:]) -> String {
        var values = values
        values["count"] = number(Double(count))
        return self(form(key, Double(count)), values)
    }

    /// The key of a plural group's form for a number: `<key>.<category>`, or `<key>.other`
    /// when the language has no text for that category.
    public func form(_ key: String, _ count: Double) -> String {
        let exact = "\(key).\(plurals.category(for: count).rawValue)"
        return texts[exact] != nil ? exact : "\(key).other"
    }

    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, text.contains("{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = values[name] {
                result += value
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    // MARK: Numbers and dates

    /// A number with this language's separators (`1,234.5`, `1.234,5`).
    public func number(_ value: Double, fractionDigits: Int = 0) -> String {
        guard value.isFinite else { return "–" }
        return value.formatted(.number.precision(.fractionLength(0...max(0, fractionDigits))).locale(locale))
    }

    /// An amount of money in this language's currency (`$1,234.50`, `R$ 1.234,50`).
    public func money(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        return value.formatted(.currency(code: currency).locale(locale))
    }

    /// A day written with one of the language's date patterns (`long`: "Tue 24 Nov 2026").
    public func day(_ day: LocalDay, _ pattern: String = "long") -> String {
        let format = datePatterns[pattern] ?? "yyyy-MM-dd"
        let (year, month, date) = day.civil
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour) = (year, month, date, 12)
        return formatters.withLock { cache in
            let box = cache[format] ?? DateFormatterBox(format: format, locale: locale)
            cache[format] = box
            guard let instant = box.formatter.calendar.date(from: components) else { return day.description }
            return box.formatter.string(from: instant)
        }
    }

    // MARK: Choosing a language

    /// The language of a request: the profile's, else the first of the browser's
    /// `Accept-Language` that Momentum has (`pt-PT` and `pt` find `pt-BR`), else English;
    /// matched as the engine matches (`Translation.bestMatch`), whose languages are these.
    public static func negotiate(profile: String?, acceptLanguage: String?) -> Wording {
        let wanted = (profile.map { [$0] } ?? []) + preferred(acceptLanguage)
        return Translation.bestMatch(for: wanted).flatMap { all[$0] } ?? english
    }

    /// The tags of an `Accept-Language` header by preference (quality, then order); at most
    /// 20 are read, and ones with quality 0 are refused.
    public static func preferred(_ header: String?) -> [String] {
        guard let header, header.utf8.count <= 1_024 else { return [] }
        let entries = header.split(separator: ",").prefix(20).enumerated().compactMap {
            index, part -> (tag: String, quality: Double, index: Int)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty, tag.count <= 35 else { return nil }
            var quality = 1.0
            for piece in pieces.dropFirst() where piece.hasPrefix("q=") {
                quality = Double(piece.dropFirst(2)).flatMap { $0.isFinite ? $0 : nil } ?? 0
            }
            return quality > 0 ? (tag, quality, index) : nil
        }
        return entries.sorted { ($0.quality, -$0.index) > ($1.quality, -$1.index) }.map(\.tag)
    }

    // MARK: Loading

    private static func load() throws -> [String: Wording] {
        guard let root = Bundle.module.url(forResource: "Resources/locales", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        var raw: [String: (meta: [String: Any], areas: [String: Any])] = [:]
        for tag in try FileManager.default.contentsOfDirectory(atPath: root.path) where !tag.hasPrefix(".") {
            let folder = root.appending(path: tag)
            var meta: [String: Any] = [:]
            var areas: [String: Any] = [:]
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".json") {
                let data = try Data(contentsOf: folder.appending(path: file))
                guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                    throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: "\(tag)/\(file)"])
                }
                let area = String(file.dropLast(".json".count))
                if area == "meta" { meta = object } else { areas[area] = object }
            }
            raw[tag] = (meta, areas)
        }
        guard let english = raw["en"] else { throw CocoaError(.fileNoSuchFile) }
        let englishTexts = flatten(english.areas)
        var all: [String: Wording] = [:]
        for (tag, entry) in raw {
            let texts = englishTexts.merging(flatten(entry.areas)) { _, own in own }
            all[tag] = Wording(
                language: tag, meta: entry.meta, texts: texts, tree: nest(texts),
                script: scriptJSON(texts.filter { $0.key.hasPrefix("js.") }))
        }
        return all
    }

    /// Nested objects of strings as dotted keys (`["today": ["title": …]]` → `today.title`).
    public static func flatten(_ object: [String: Any], prefix: String = "") -> [String: String] {
        var texts: [String: String] = [:]
        for (key, value) in object {
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            if let text = value as? String {
                texts[path] = text
            } else if let nested = value as? [String: Any] {
                texts.merge(flatten(nested, prefix: path)) { _, new in new }
            }
        }
        return texts
    }

    private static func nest(_ texts: [String: String]) -> [String: Any] {
        var tree: [String: Any] = [:]
        func insert(_ path: ArraySlice<Substring>, _ text: String, into node: inout [String: Any]) {
            guard let first = path.first.map(String.init) else { return }
            if path.count == 1 {
                node[first] = text
            } else {
                var child = node[first] as? [String: Any] ?? [:]
                insert(path.dropFirst(), text, into: &child)
                node[first] = child
            }
        }
        for (key, text) in texts { insert(key.split(separator: ".")[...], text, into: &tree) }
        return tree
    }

    private static func scriptJSON(_ texts: [String: String]) -> String {
        let stripped = Dictionary(uniqueKeysWithValues: texts.map { (String($0.key.dropFirst("js.".count)), $0.value) })
        guard let data = try? JSONSerialization.data(withJSONObject: stripped, options: [.sortedKeys]),
            let json = String(data: data, encoding: .utf8)
        else { return "{}" }
        // `</script>` inside a string must not end the element.
        return json.replacingOccurrences(of: "<", with: "\\u003c")
    }
}

/// A date formatter, used only under the lock of the ``Wording`` that owns it.
private final class DateFormatterBox: @unchecked Sendable {
    let formatter: DateFormatter

    init(format: String, locale: Locale) {
        formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = TimeZone(identifier: "UTC")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        formatter.calendar = calendar
        formatter.dateFormat = format
    }
}

/// The string at `key` in the language of the page being rendered, placeholders filled.
/// (One capital letter, as gettext's `_` and Foundation's `NSLocalizedString` are short:
/// the views call it hundreds of times.)
// swift-format-ignore: AlwaysUseLowerCamelCase, AllPublicDeclarationsHaveDocumentation
public func L(_ key: String, _ values: [String: String] = [:]) -> String {
    Wording.current(key, values)
}
