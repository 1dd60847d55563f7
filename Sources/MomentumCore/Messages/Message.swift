/// A celebration message chosen from a ``MessageCatalog``, ready to show and to announce.
public struct Message: Hashable, Sendable, Codable {
    /// The id of the template used; record it to keep the next messages varied. Empty when no
    /// template fitted and the message is the achievement's title.
    public let templateID: String
    /// The message, with every placeholder filled in ("Looks like Ollie hit a 7-day streak
    /// last week! 🎉").
    public let text: String
    /// The text for screen readers: the message without emoji, its spaces tidied ("Looks
    /// like Ollie hit a 7-day streak last week!").
    public let announcement: String

    /// Creates a message.
    public init(templateID: String, text: String, announcement: String) {
        self.templateID = templateID
        self.text = text
        self.announcement = announcement
    }
}
