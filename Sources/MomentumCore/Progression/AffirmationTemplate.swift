/// A message with placeholders, for celebrating one kind of progression (AC4).
///
/// Placeholders are names in braces: `{name}` (the user's or subject's name), `{method}`,
/// `{from}`, `{to}` (stage names), `{duration}` (the time at the previous stage, as
/// ``StageDuration/description`` phrases it), `{stage_number}` and `{stage_count}`. A
/// template is only used when every placeholder it contains has a value: `{name}` needs a
/// name, and `{from}` and `{duration}` need a previous stage, which the start of a method
/// lacks. Braces around anything else (`{unknown}`) are plain text and left as written.
///
/// JSON: `{"id": "final.1", "kind": "finalStage", "text": "You've reached {to}, the final stage of {method}."}`.
public struct AffirmationTemplate: Hashable, Sendable, Codable, Identifiable {
    /// The occasion a template is written for.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
        /// The user started a method.
        case start
        /// The user moved to a later stage.
        case advance
        /// The user moved to a later stage soon after reaching the previous one (see
        /// ``AffirmationCatalog/fastAdvanceDays``).
        case fastAdvance
        /// The user reached a method's final stage; this wins over ``fastAdvance``.
        case finalStage
        /// The user went back to an earlier stage.
        case regression
    }

    /// The template's id, unique within its catalog; recorded to avoid repeating it.
    public var id: String
    /// The occasion it is written for.
    public var kind: Kind
    /// The text with placeholders.
    public var text: String

    /// Creates a template.
    ///
    /// - Parameters:
    ///   - id: The template's id, unique within its catalog.
    ///   - kind: The occasion it is written for.
    ///   - text: The text with placeholders.
    public init(id: String, kind: Kind, text: String) {
        self.id = id
        self.kind = kind
        self.text = text
    }

    /// The placeholder names a template may use.
    public static let placeholderNames: Set<String> = [
        "name", "method", "from", "to", "duration", "stage_number", "stage_count",
    ]

    /// The names of the placeholders in ``text`` (`["method", "to"]`).
    public var placeholders: Set<String> { Self.placeholders(in: text) }

    /// The names of the placeholders in a text.
    static func placeholders(in text: String) -> Set<String> {
        Set(segments(of: text).compactMap { $0.placeholder.map(String.init) })
    }

    /// The text with each placeholder that has a value replaced by it.
    ///
    /// - Parameter values: Values by placeholder name (`["to": "Intermediate"]`).
    /// - Returns: The text; placeholders without a value are left as written.
    public func render(_ values: [String: String]) -> String {
        Self.render(text, values)
    }

    /// Replaces the placeholders of `text` that have a value.
    static func render(_ text: String, _ values: [String: String]) -> String {
        TemplateText.render(text, values) { Self.placeholderNames.contains(String($0)) }
    }

    /// `text` cut into literal runs and `{placeholder}`s named in ``placeholderNames``.
    private static func segments(of text: String) -> [(text: Substring, placeholder: Substring?)] {
        TemplateText.segments(of: text) { placeholderNames.contains(String($0)) }
    }
}
