extension MessageCatalog {
    /// The catalog in another language: the same templates, ids and order, each text
    /// translated by its id (`message.<id>`; a counting template's forms as
    /// `message.<id>.<category>`, one for each plural category of the language), and numbers
    /// and relative days written in that language.
    ///
    /// A translated text must have exactly the placeholders of the template's own; one that
    /// does not is ignored and the template keeps its text. That is what makes the choice of
    /// a message independent of the language: the same unlock gets the same template id in
    /// every language, so the record of recent templates is shared by all of them.
    ///
    /// Translate an English catalog, such as ``standard``: a text the language lacks keeps
    /// the catalog's own.
    ///
    /// - Parameter translation: The language.
    /// - Returns: The translated catalog.
    public func translated(_ translation: Translation) -> MessageCatalog {
        if translation == self.translation, translation == .english { return self }
        var catalog = self
        for index in catalog.templates.indices {
            let template = catalog.templates[index]
            let own = template.placeholders
            func fits(_ text: String) -> Bool { MessageTemplate.placeholders(in: text) == own }
            let key = "message.\(template.id)"
            guard !template.forms.isEmpty else {
                let translated = translation.text(key, default: template.text)
                catalog.templates[index].text = fits(translated) ? translated : template.text
                continue
            }
            // A counting template takes a form for each plural category of the language.
            var english = template.forms
            english[.other] = template.text
            var forms = translation.forms(of: key, english: english)
            for (category, text) in forms where !fits(text) { forms[category] = english[category] ?? template.text }
            catalog.templates[index].text = forms.removeValue(forKey: .other) ?? template.text
            catalog.templates[index].forms = forms
        }
        catalog.translation = translation
        return catalog
    }

    /// The catalog with every template's text replaced.
    ///
    /// - Parameter transform: The new text of a template, from its key and its current text:
    ///   `message.<id>`, or for each form of a counting template `message.<id>.<category>`
    ///   (`.other` for ``MessageTemplate/text``).
    func mapTexts(_ transform: (_ key: String, _ text: String) -> String) -> MessageCatalog {
        var catalog = self
        for index in catalog.templates.indices {
            let template = catalog.templates[index]
            let key = "message.\(template.id)"
            guard !template.forms.isEmpty else {
                catalog.templates[index].text = transform(key, template.text)
                continue
            }
            catalog.templates[index].text = transform("\(key).other", template.text)
            for (category, text) in template.forms.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                catalog.templates[index].forms[category] = transform("\(key).\(category.rawValue)", text)
            }
        }
        return catalog
    }

    /// The keys of the counting templates' plural groups (`message.<id>`).
    var pluralKeys: [String] {
        templates.filter { !$0.forms.isEmpty }.map { "message.\($0.id)" }
    }
}
