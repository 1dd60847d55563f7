import Foundation

extension Translation {
    /// Every bundled language but English, by tag, read once from `Resources/Languages`.
    static let bundled: [String: Translation] = load(
        directory: Bundle.module.url(forResource: "Resources/Languages", withExtension: nil))

    /// The languages in a directory of `<tag>.json` files. A file that cannot be read or
    /// decoded, or whose name is not a language tag, is left out; so is `en.json` (English is
    /// the code) and a second file for the same tag in another case.
    ///
    /// - Parameter directory: The directory, or `nil` for none.
    /// - Returns: The translations by tag.
    static func load(directory: URL?) -> [String: Translation] {
        guard let directory, let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            return [:]
        }
        var loaded: [String: Translation] = [:]
        for file in files.sorted() where file.hasSuffix(".json") {
            let tag = String(file.dropLast(".json".count))
            guard isLanguageTag(tag), tag.lowercased() != english.language,
                !loaded.keys.contains(where: { $0.lowercased() == tag.lowercased() }),
                let data = try? Data(contentsOf: directory.appendingPathComponent(file)),
                let translation = Translation(language: tag, json: data)
            else { continue }
            loaded[tag] = translation
        }
        return loaded
    }

    /// A language file decoded, or `nil` when it is not one: it must be a JSON object with a
    /// `texts` object of strings; `meta` may name the language, its separators and its plural
    /// rules (`plurals`, CLDR's condition for each category but `other`), which default to
    /// the tag and English's. Blank texts count as missing; rules that cannot be read make
    /// the file not a language.
    ///
    /// - Parameters:
    ///   - language: The language's tag.
    ///   - json: The file's contents.
    init?(language: String, json: Data) {
        guard let file = try? JSONDecoder().decode(LanguageFile.self, from: json) else { return nil }
        let meta = file.meta
        var plurals = PluralRules.english
        if let written = meta?.plurals {
            guard let rules = PluralRules(written) else { return nil }
            plurals = rules
        }
        self.init(
            language: language, name: Self.nonBlank(meta?.name) ?? language,
            groupingSeparator: meta?.groupingSeparator ?? Self.english.groupingSeparator,
            decimalSeparator: Self.nonBlank(meta?.decimalSeparator) ?? Self.english.decimalSeparator,
            texts: file.texts.filter { Self.nonBlank($0.value) != nil }, plurals: plurals)
    }

    /// Whether a file name is a BCP 47 tag as Momentum writes them: a primary language of 2
    /// to 8 letters, then subtags of 1 to 8 letters or digits (`pt-BR`, `zh-Hant-TW`).
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = parts.first, (2...8).contains(primary.count),
            primary.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.letters.contains($0) })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count)
                && part.unicodeScalars.allSatisfy { $0.isASCII && CharacterSet.alphanumerics.contains($0) }
        }
    }

    private static func nonBlank(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }

    /// The shape of `Resources/Languages/<tag>.json`.
    private struct LanguageFile: Decodable {
        struct Meta: Decodable {
            var name: String?
            var groupingSeparator: String?
            var decimalSeparator: String?
            var plurals: [PluralCategory: String]?
        }

        var meta: Meta?
        var texts: [String: String]
    }
}
