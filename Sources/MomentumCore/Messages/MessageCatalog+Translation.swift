extension MessageCatalog {
    /// The catalog in another language: the same templates, ids and order, each text
    /// translated by its id (`message.<id>`), and numbers and relative days written in that
    /// language.
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
        var catalog = mapTexts { key, text in
            let translated = translation.text(key, default: text)
            return MessageTemplate.placeholders(in: translated) == MessageTemplate.placeholders(in: text)
                ? translated : text
        }
        catalog.translation = translation
        return catalog
    }

    /// The catalog with every template's text replaced.
    ///
    /// - Parameter transform: The new text of a template, from its key (`message.<id>`) and
    ///   its current text.
    func mapTexts(_ transform: (_ key: String, _ text: String) -> String) -> MessageCatalog {
        var catalog = self
        for index in catalog.templates.indices {
            let template = catalog.templates[index]
            catalog.templates[index].text = transform("message.\(template.id)", template.text)
        }
        return catalog
    }
}
