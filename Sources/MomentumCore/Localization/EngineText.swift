/// A fixed sentence or phrase the engine writes for people: its key (the raw value) and its
/// English text, which is the source every language file translates.
///
/// Each area of the engine lists its texts in one enum (``CoachingText``,
/// ``NotificationText``, …); being `CaseIterable`, every case is in ``Translation/keys``
/// without a second list to keep in step.
protocol EngineText: CaseIterable, RawRepresentable<String>, Sendable {
    /// The English text, with `{placeholders}`.
    var english: String { get }
}

extension EngineText {
    /// Every text of the enum, as key and English text.
    static var entries: [(key: String, english: String)] { allCases.map { ($0.rawValue, $0.english) } }
}

extension Translation {
    /// A fixed text in this language, its placeholders filled.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - values: Values by placeholder name.
    /// - Returns: The text; a placeholder without a value stays as written.
    func text<Text: EngineText>(_ text: Text, _ values: [String: String] = [:]) -> String {
        Self.fill(self.text(text.rawValue, default: text.english), values)
    }

    /// Replaces the `{placeholders}` named in `values`, as written: unlike message templates,
    /// a value keeps its own punctuation, so an English text reads exactly as the
    /// interpolated string it replaced.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty else { return text }
        return TemplateText.render(text, values, isPlaceholder: { values[String($0)] != nil }, tidiesPunctuation: false)
    }
}
