extension AffirmationCatalog {
    /// The catalog in another language: the same templates, ids and order, each text
    /// translated by its id (`affirmation.<id>`), the titles by occasion
    /// (`affirmation.title.<kind>`), and durations written in that language.
    ///
    /// A translated template must have exactly the placeholders of its own text, or it is
    /// ignored: which templates can be used depends on them, so the same advance gets the
    /// same template id in every language.
    ///
    /// Translate an English catalog, such as ``standard``: a text the language lacks keeps
    /// the catalog's own.
    ///
    /// - Parameter translation: The language.
    /// - Returns: The translated catalog.
    public func translated(_ translation: Translation) -> AffirmationCatalog {
        if translation == self.translation, translation == .english { return self }
        var catalog = mapTexts { key, text in
            let translated = translation.text(key, default: text)
            let placeholders = AffirmationTemplate.placeholders(in: translated)
            guard key.hasPrefix("affirmation.title.") else {
                return placeholders == AffirmationTemplate.placeholders(in: text) ? translated : text
            }
            return placeholders.isSubset(of: AffirmationTemplate.placeholders(in: text)) ? translated : text
        }
        catalog.translation = translation
        return catalog
    }

    /// The catalog with every template's text and every title replaced.
    ///
    /// - Parameter transform: The new text, from its key (`affirmation.<id>`,
    ///   `affirmation.title.<kind>`) and its current text.
    func mapTexts(_ transform: (_ key: String, _ text: String) -> String) -> AffirmationCatalog {
        var catalog = self
        for index in catalog.templates.indices {
            let template = catalog.templates[index]
            catalog.templates[index].text = transform("affirmation.\(template.id)", template.text)
        }
        for kind in AffirmationTemplate.Kind.allCases {
            if let title = titles[kind] {
                catalog.titles[kind] = transform("affirmation.title.\(kind.rawValue)", title)
            }
        }
        return catalog
    }
}
