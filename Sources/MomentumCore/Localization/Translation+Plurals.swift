extension Translation {
    /// The form of a plural group for a number: the text at `<key>.<category>` for the
    /// number's category in this language, else the language's `other` form, else English's
    /// form of that category, else English's `other`.
    ///
    /// - Parameters:
    ///   - key: The group's key (`count.day`).
    ///   - count: The number, as it is shown (with up to `fractionDigits` decimals).
    ///   - english: The English forms, by category (`one` and `other`).
    ///   - fractionDigits: The most decimals the number is written with.
    /// - Returns: The text, its placeholders unfilled.
    public func text(
        _ key: String, count: Double, english: [PluralCategory: String], fractionDigits: Int = 2
    ) -> String {
        let category = pluralCategory(for: count, fractionDigits: fractionDigits)
        return texts["\(key).\(category.rawValue)"] ?? texts["\(key).other"] ?? english[category] ?? english[.other]
            ?? key
    }

    /// The keys a language file needs for a plural group: one per category of its rules.
    ///
    /// - Parameter key: The group's key.
    /// - Returns: `<key>.<category>` for each category, `other` last.
    public func pluralKeys(of key: String) -> [String] {
        plurals.categories.map { "\(key).\($0.rawValue)" }
    }

    /// A plural group's forms in this language, one per category of its rules: the
    /// language's own, else English's of that category, else the language's `other`, else
    /// English's `other`.
    ///
    /// - Parameters:
    ///   - key: The group's key.
    ///   - english: The English forms, by category (`one` and `other`).
    /// - Returns: The forms, by category, `other` included.
    public func forms(of key: String, english: [PluralCategory: String]) -> [PluralCategory: String] {
        let other = texts["\(key).other"] ?? english[.other] ?? key
        return Dictionary(
            uniqueKeysWithValues: plurals.categories.map {
                ($0, texts["\(key).\($0.rawValue)"] ?? english[$0] ?? other)
            })
    }
}
