import Foundation

extension RulePack {
    /// The pack in another language: every title, label, hint, option, suggestion and
    /// placeholder a person reads, and the names of its methods and stages; ids, values,
    /// kinds and numbers are unchanged, so events and unlocks are the same in every language.
    ///
    /// Keys name the pack and the id of what they translate:
    /// - `pack.<pack>.title`, and `pack.<pack>.rule.<rule id>.title` for each achievement;
    /// - `pack.<pack>.form.<form id>.title` and `.hint`; for each field
    ///   `pack.<pack>.form.<form id>.field.<field name>.label`, `.placeholder` and `.unit`,
    ///   `….option.<value>.label` (`….option.<group>.<value>.label` in a checklist) and
    ///   `….suggestion.<suggestion, lowercased, spaces as hyphens>`;
    /// - `pack.<pack>.method.<method id>.name`, `….stage.<stage id>.name` and `.description`.
    ///
    /// A placeholder that is a number (`8.5`) is not a text: it only takes the language's
    /// decimal separator. A combination translates each of its members. An engine built on
    /// the translated pack writes its unlocks' titles in that language, with numbers,
    /// amounts, ages and units (`pack.unit.<unit>`) too; ``title(for:)`` writes the title of
    /// an unlock granted in another language.
    ///
    /// - Parameter translation: The language.
    /// - Returns: The translated pack.
    public func translated(_ translation: Translation) -> RulePack {
        if translation == .english, members.allSatisfy({ $0.translation == .english && $0.englishSource.isEmpty }) {
            return self
        }
        if members.count > 1 {
            var combined = RulePack.combining(members.map { $0.translated(translation) })
            combined.translation = translation
            return combined
        }
        let english = englishSource.first ?? self
        var pack = english.mapTexts({ translation.text($0, default: $1) }) { number in
            number.replacingOccurrences(of: ".", with: translation.decimalSeparator)
        }
        // A counted title takes a form for each plural category of the language.
        for index in pack.achievements.indices {
            let rule = english.achievements[index]
            guard let forms = rule.titleForms else { continue }
            var englishForms = forms
            englishForms[.other] = rule.title
            var translated = translation.forms(of: "pack.\(name).rule.\(rule.id).title", english: englishForms)
            pack.achievements[index].title = translated.removeValue(forKey: .other) ?? rule.title
            pack.achievements[index].titleForms = translated
        }
        pack.translation = translation
        pack.englishSource = translation == .english ? [] : [english]
        return pack
    }

    /// The pack with every text a person reads replaced (see ``translated(_:)`` for the keys).
    ///
    /// - Parameters:
    ///   - transform: The new text, from its key and its current text.
    ///   - number: The new text of a placeholder that is a number (not a text, so without a key).
    func mapTexts(
        _ transform: (_ key: String, _ text: String) -> String, number: (String) -> String = { $0 }
    ) -> RulePack {
        var pack = self
        let prefix = "pack.\(name)"
        pack.title = transform("\(prefix).title", title)
        for index in pack.achievements.indices {
            let rule = pack.achievements[index]
            let key = "\(prefix).rule.\(rule.id).title"
            guard let forms = rule.titleForms else {
                pack.achievements[index].title = transform(key, rule.title)
                continue
            }
            // A counted title is a plural group: each form under its category.
            pack.achievements[index].title = transform("\(key).other", rule.title)
            pack.achievements[index].titleForms = Dictionary(
                uniqueKeysWithValues: forms.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                    ($0.key, transform("\(key).\($0.key.rawValue)", $0.value))
                })
        }
        for index in pack.forms.indices {
            pack.forms[index] = Self.mapTexts(of: pack.forms[index], "\(prefix).form", transform, number: number)
        }
        pack.methods = methods.map { method in
            let key = "\(prefix).method.\(method.id)"
            return ProgressionMethod(
                id: method.id, name: transform("\(key).name", method.name),
                stages: method.stages.map { stage in
                    var stage = stage
                    stage.name = transform("\(key).stage.\(stage.id).name", stage.name)
                    stage.description = stage.description.map { transform("\(key).stage.\(stage.id).description", $0) }
                    return stage
                })
        }
        return pack
    }

    private static func mapTexts(
        of form: LogForm, _ prefix: String, _ transform: (String, String) -> String, number: (String) -> String
    ) -> LogForm {
        var form = form
        let key = "\(prefix).\(form.id)"
        form.title = transform("\(key).title", form.title)
        form.hint = form.hint.map { transform("\(key).hint", $0) }
        for index in form.fields.indices {
            var field = form.fields[index]
            let fieldKey = "\(key).field.\(field.name)"
            field.label = transform("\(fieldKey).label", field.label)
            // A unit is a word too ("min"), or a currency ("$" is "R$" in Brazil).
            field.unit = field.unit.map { transform("\(fieldKey).unit", $0) }
            field.placeholder = field.placeholder.map {
                isNumber($0) ? number($0) : transform("\(fieldKey).placeholder", $0)
            }
            field.options = field.options.map { option in
                var option = option
                let value = option.group.map { "\($0).\(option.value)" } ?? option.value
                option.label = transform("\(fieldKey).option.\(value).label", option.label)
                return option
            }
            field.suggestions = field.suggestions.map {
                transform("\(fieldKey).suggestion.\($0.lowercased().replacingOccurrences(of: " ", with: "-"))", $0)
            }
            form.fields[index] = field
        }
        return form
    }

    /// Whether a placeholder is a plain number (`20`, `8.5`), written the same in every
    /// language but for its decimal separator.
    private static func isNumber(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && Double(text) != nil
    }
}
