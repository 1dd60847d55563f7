/// A rendered affirmation and the template it came from.
public struct Affirmation: Hashable, Sendable, Codable {
    /// The id of the template used; record it to keep the next messages varied.
    public let templateID: String
    /// The occasion the message was chosen for.
    public let kind: AffirmationTemplate.Kind
    /// The message, with every placeholder filled in.
    public let text: String

    /// Creates an affirmation.
    public init(templateID: String, kind: AffirmationTemplate.Kind, text: String) {
        self.templateID = templateID
        self.kind = kind
        self.text = text
    }
}
