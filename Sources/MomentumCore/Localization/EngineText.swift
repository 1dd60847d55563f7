/// A fixed sentence or phrase the engine writes for people: its key (the raw value) and its
/// English text, which is the source every language file translates.
///
/// Each area of the engine lists its texts in one enum (``CoachingText``,
/// ``NotificationText``, …); being `CaseIterable`, every case is in ``Translation/keys``
/// without a second list to keep in step.
///
/// A text that shows `{count}` is a plural group (see ``Translation``): ``english`` is its
/// `other` form and ``englishOne`` its `one` form, and its keys are the raw value with the
/// category (`relative.weeksAgo.one`, `relative.weeksAgo.other`).
protocol EngineText: CaseIterable, RawRepresentable<String>, Sendable {
    /// The English text, with `{placeholders}`; for a counted text, its `other` form.
    var english: String { get }
    /// For a counted text, its English `one` form; `nil` for a text without a count.
    var englishOne: String? { get }
}

extension EngineText {
    var englishOne: String? { nil }

    /// Every text of the enum, as key and English text; a counted text as its two English
    /// forms.
    static var entries: [(key: String, english: String)] {
        allCases.flatMap { text -> [(key: String, english: String)] in
            guard let one = text.englishOne else { return [(text.rawValue, text.english)] }
            return [("\(text.rawValue).one", one), ("\(text.rawValue).other", text.english)]
        }
    }

    /// The keys of the enum's counted texts (without a category).
    static var pluralKeys: [String] { allCases.filter { $0.englishOne != nil }.map(\.rawValue) }
}

extension Translation {
    /// A fixed text in this language, its placeholders filled.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - values: Values by placeholder name.
    /// - Returns: The text; a placeholder without a value stays as written.
    ///
    /// A counted text takes the form of `values["count"]` (a number written with digits
    /// only; anything else takes the `other` form).
    func text<Text: EngineText>(_ text: Text, _ values: [String: String] = [:]) -> String {
        guard let one = text.englishOne else {
            return Self.fill(self.text(text.rawValue, default: text.english), values)
        }
        let count = values["count"].flatMap { Double($0) } ?? .nan
        return Self.fill(self.text(text.rawValue, count: count, english: [.one: one, .other: text.english]), values)
    }

    /// A counted text in the form of `count`, its other placeholders filled.
    ///
    /// - Parameters:
    ///   - text: A counted text (one without ``EngineText/englishOne`` reads as it is).
    ///   - count: The number that picks the form.
    ///   - values: Values by placeholder name.
    /// - Returns: The text.
    func text<Text: EngineText>(_ text: Text, count: Double, _ values: [String: String] = [:]) -> String {
        guard let one = text.englishOne else {
            return Self.fill(self.text(text.rawValue, default: text.english), values)
        }
        return Self.fill(self.text(text.rawValue, count: count, english: [.one: one, .other: text.english]), values)
    }

    /// Replaces the `{placeholders}` named in `values`, as written: unlike message templates,
    /// a value keeps its own punctuation, so an English text reads exactly as the
    /// interpolated string it replaced.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty else { return text }
        return TemplateText.render(text, values, isPlaceholder: { values[String($0)] != nil }, tidiesPunctuation: false)
    }
}
