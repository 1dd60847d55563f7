/// `{placeholder}` templates, shared by rule titles, message and affirmation templates.
///
/// Braces are ASCII, so the text is scanned by its UTF-8 bytes; emoji and accents pass
/// through untouched.
enum TemplateText {
    /// `text` cut into literal runs and `{placeholder}`s accepted by `isPlaceholder`; any
    /// other brace is literal text.
    static func segments(
        of text: String, isPlaceholder: (Substring) -> Bool
    ) -> [(text: Substring, placeholder: Substring?)] {
        var result: [(text: Substring, placeholder: Substring?)] = []
        let utf8 = text.utf8
        var literalStart = utf8.startIndex
        var scan = utf8.startIndex
        while let open = utf8[scan...].firstIndex(of: UInt8(ascii: "{")) {
            let afterOpen = utf8.index(after: open)
            guard let close = utf8[afterOpen...].firstIndex(of: UInt8(ascii: "}")) else { break }
            let name = Substring(utf8[afterOpen..<close])
            guard isPlaceholder(name) else {
                scan = afterOpen
                continue
            }
            if literalStart < open { result.append((Substring(utf8[literalStart..<open]), nil)) }
            result.append((Substring(utf8[open...close]), name))
            literalStart = utf8.index(after: close)
            scan = literalStart
        }
        if literalStart < utf8.endIndex { result.append((Substring(utf8[literalStart...]), nil)) }
        return result
    }

    /// The text with its placeholders replaced by their values.
    ///
    /// - Parameters:
    ///   - text: The template.
    ///   - values: Values by placeholder name.
    ///   - isPlaceholder: Which `{names}` are placeholders.
    ///   - keepMissing: Whether a placeholder without a value stays as written (`true`) or
    ///     disappears (`false`).
    ///   - tidiesPunctuation: Whether a value gives up its sentence-ending punctuation to the
    ///     template's own (`true`, for titles and messages) or is kept as written.
    static func render(
        _ text: String, _ values: [String: String], isPlaceholder: (Substring) -> Bool = { _ in true },
        keepMissing: Bool = true, tidiesPunctuation: Bool = true
    ) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        let parts = segments(of: text, isPlaceholder: isPlaceholder)
        for (index, segment) in parts.enumerated() {
            if let name = segment.placeholder {
                guard var value = values[String(name)] else {
                    if keepMissing { result += segment.text }
                    continue
                }
                // A value that ends a sentence ("Ollie is 11 weeks old!") before the
                // template's own punctuation ("{title}, in August!") gives up its own.
                if tidiesPunctuation, let next = parts[(index + 1)...].first?.text.first,
                    sentencePunctuation.contains(next),
                    parts[index + 1].placeholder == nil
                {
                    while let last = value.last, endings.contains(last) { value.removeLast() }
                }
                result += value
            } else {
                result += segment.text
            }
        }
        return result
    }

    private static let endings: Set<Character> = ["!", ".", "?"]
    private static let sentencePunctuation: Set<Character> = ["!", ".", "?", ",", ";", ":"]
}
