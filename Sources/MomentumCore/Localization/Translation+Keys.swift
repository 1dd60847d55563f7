extension Translation {
    /// Every key the engine looks up, with its English text: the one list every language file
    /// is checked against (`TranslationTests`).
    ///
    /// Built from the sources themselves, so it cannot drift from them: the fixed texts of
    /// each area (``EngineText`` enums, the calendar, units and numbers), and every text of
    /// the standard catalogs (``MessageCatalog/standard``, ``AffirmationCatalog/standard``,
    /// ``CelebrationCatalog/standard``) and of every bundled pack, walked by the same
    /// functions that translate them.
    static let keys: [String: String] = Dictionary(
        entries.map { ($0.key, $0.english) }, uniquingKeysWith: { first, _ in first })

    /// The keys of every plural group the engine uses (see ``Translation``, "Counts"): a
    /// language has `<key>.<category>` for each category of its rules, where English has
    /// `<key>.one` and `<key>.other`.
    static let pluralKeys: Set<String> = {
        var keys = Set(
            wordPluralKeys + MessageText.pluralKeys + ProgressionText.pluralKeys + AchievementText.pluralKeys
                + CoachingText.pluralKeys + NotificationText.pluralKeys + CaptionText.pluralKeys
                + MessageCatalog.standard.pluralKeys)
        for name in RulePack.bundledOrder {
            for rule in RulePack.bundled[name]?.achievements ?? [] where rule.titleForms != nil {
                keys.insert("pack.\(name).rule.\(rule.id).title")
            }
        }
        return keys
    }()

    /// Every key a language needs, with the English text it translates: ``keys``, each plural
    /// group with one key per category of the language's rules (a category English lacks,
    /// such as `many`, translates English's `other`).
    ///
    /// - Parameter translation: The language.
    /// - Returns: The English text of each key.
    static func keys(for translation: Translation) -> [String: String] {
        var keys = self.keys
        for group in pluralKeys {
            let english = keys.removeValue(forKey: "\(group).other") ?? ""
            let one = keys.removeValue(forKey: "\(group).one")
            for category in translation.plurals.categories {
                keys["\(group).\(category.rawValue)"] = category == .one ? one ?? english : english
            }
        }
        return keys
    }

    /// The keys whose translation must have exactly the placeholders of the English text,
    /// because the choice of a template depends on them: message and affirmation templates.
    static let exactPlaceholderKeys: Set<String> = {
        var keys: Set<String> = []
        _ = MessageCatalog.standard.mapTexts { key, text in
            keys.insert(key)
            return text
        }
        for template in AffirmationCatalog.standard.templates { keys.insert("affirmation.\(template.id)") }
        // Every form of a counting template, in any language's categories.
        for group in MessageCatalog.standard.pluralKeys {
            for category in PluralCategory.allCases { keys.insert("\(group).\(category.rawValue)") }
        }
        return keys
    }()

    /// Placeholders a text is given beyond those its English text uses, which a translation
    /// may use as well (a translation may leave out any placeholder of a text that is not in
    /// ``exactPlaceholderKeys``).
    static let extraPlaceholders: [String: Set<String>] = [
        CaptionText.firstTitledNamed.rawValue: ["title"]
    ]

    /// Every key with its English text, in a stable order (keys may repeat only by mistake,
    /// which `TranslationTests` catches).
    static var entries: [(key: String, english: String)] {
        var entries =
            wordEntries + MessageText.entries + ProgressionText.entries + AchievementText.entries
            + CoachingText.entries + NotificationText.entries + CaptionText.entries + CaptionText.activityEntries
        func record(_ key: String, _ text: String) -> String {
            entries.append((key, text))
            return text
        }
        _ = MessageCatalog.standard.mapTexts(record)
        _ = AffirmationCatalog.standard.mapTexts(record)
        _ = CelebrationCatalog.standard.mapTexts(record)
        for name in RulePack.bundledOrder { _ = RulePack.bundled[name]?.mapTexts(record) }
        return entries
    }
}
