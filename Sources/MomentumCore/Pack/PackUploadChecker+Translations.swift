import Foundation

/// An upload's translations: known languages, keys of the pack's texts, and the English
/// texts' placeholders kept.
extension PackUploadChecker {
    mutating func checkTranslations(_ raw: Any?, pack: RulePack?) -> [String: [String: String]] {
        guard let raw else { return [:] }
        guard let languages = raw as? [String: Any] else {
            report("translations", "must be an object of texts by language")
            return [:]
        }
        let english = pack.map(Self.texts(of:))
        let spoken = Translation.availableLanguages.filter { $0 != Translation.english.language }
        var result: [String: [String: String]] = [:]
        for tag in languages.keys.sorted() {
            let at = "translations.\(tag)"
            guard tag != Translation.english.language, let translation = Translation.named(tag),
                translation.language == tag
            else {
                report(
                    at,
                    "unknown language '\(tag)'; the pack's texts are English, translated to \(spoken.joined(separator: ", "))"
                )
                continue
            }
            guard let entries = languages[tag] as? [String: Any] else {
                report(at, "must be an object of texts by key")
                continue
            }
            var kept: [String: String] = [:]
            for key in entries.keys.sorted() {
                let path = "\(at).\(key)"
                guard let text = entries[key] as? String else {
                    report(path, "must be a string")
                    continue
                }
                guard let english else { continue }
                guard let (source, plural) = Self.source(of: key, in: english, translation) else {
                    report(path, "is not a text of pack '\(pack?.name ?? "")'")
                    continue
                }
                let wanted = Self.placeholders(source)
                let written = Self.placeholders(text)
                for missing in wanted.subtracting(written).sorted() where !(plural && missing == "{value}") {
                    report(path, "misses the placeholder \(missing) of the English text")
                }
                for added in written.subtracting(wanted).sorted() {
                    report(path, "adds the placeholder \(added), which the English text does not have")
                }
                kept[key] = text
            }
            result[tag] = kept
        }
        return result
    }

    /// Every text of a pack a person reads, by key, in English.
    private static func texts(of pack: RulePack) -> [String: String] {
        var texts: [String: String] = [:]
        _ = pack.mapTexts { key, text in
            texts[key] = text
            return text
        }
        return texts
    }

    /// The English text a translated key stands for, and whether it is a form of a counted
    /// title (which may leave out `{value}`); `nil` when the pack has no such text.
    private static func source(
        of key: String, in english: [String: String], _ translation: Translation
    ) -> (
        String, Bool
    )? {
        if let text = english[key] {
            let counted = PluralCategory.allCases.contains { key.hasSuffix(".title.\($0.rawValue)") }
            return (text, counted && key.hasPrefix("pack.") && key.contains(".rule."))
        }
        guard let dot = key.lastIndex(of: ".") else { return nil }
        let group = key[..<dot]
        let category = key[key.index(after: dot)...]
        guard translation.plurals.categories.contains(where: { $0.rawValue == category }),
            let other = english["\(group).other"]
        else { return nil }
        return (other, true)
    }

    /// The placeholders of a text: `{habit}`, `{value}`, …
    static func placeholders(_ text: String) -> Set<String> {
        var found: Set<String> = []
        var current: String?
        for character in text {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current {
                if !name.isEmpty { found.insert("{\(name)}") }
                current = nil
            } else if current != nil {
                if character.isLetter || character.isNumber || character == "_" {
                    current?.append(character)
                } else {
                    current = nil
                }
            }
        }
        return found
    }
}
