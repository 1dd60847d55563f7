/// What a share card says: the input to ``ShareCardLayout``.
///
/// The content is plain data, independent of the card's format. Text is drawn as given (a
/// title of `"7-DAY STREAK"` stays upper case); the layout only wraps, shrinks and, as a
/// last resort, truncates it so it fits.
///
/// ```swift
/// let content = ShareCardContent(
///     title: "7-DAY STREAK",
///     achievementText: "Ollie mastered outdoor potty for a week!",
///     badge: "7",
///     date: LocalDay(year: 2026, month: 2, day: 27)!,
///     subjectName: "Ollie", ageText: "12 weeks old",
///     categoryColor: ShareCardColor(hex: "#2E9E6B")!)
/// let svg = ShareCardRenderer.svg(ShareCardLayout(content: content, format: .square))
/// ```
public struct ShareCardContent: Hashable, Sendable {
    /// The branding drawn when none is given.
    public static let defaultBranding = "momentum"

    /// The headline, for example `"7-DAY STREAK"`.
    public var title: String
    /// The sentence that tells the story, for example `"Ollie mastered outdoor potty for a week!"`.
    public var achievementText: String
    /// What the badge shows: an emoji (`"🏆"`) or a short text (`"7"`).
    public var badge: String
    /// The day the achievement really happened (for retroactive ones, not the day it was noticed).
    public var date: LocalDay
    /// The subject's name, for example the puppy's (`"Ollie"`), or `nil` to leave it out.
    public var subjectName: String?
    /// The subject's age, already worded (`"12 weeks old"`), or `nil` to leave it out.
    public var ageText: String?
    /// The achievement category's colour; the card's palette is derived from it.
    public var categoryColor: ShareCardColor
    /// The photo to show, as an image reference, or `nil` to draw a placeholder.
    ///
    /// Two kinds of reference are accepted: a `data:image/…` URI, or a relative path (no
    /// scheme, not starting with `/`, no `..` component), resolved by whoever renders the
    /// SVG, for example `memories/2026-02-27-potty-streak.jpg`. Any other reference
    /// (`http:`, `file:`, `javascript:`, an absolute path) is treated as no photo, so a card
    /// never makes its renderer fetch something it should not.
    public var photo: String?
    /// The small brand mark in the bottom corner.
    public var branding: String
    /// The picture drawn when there is no photo, or `nil` for the paw-print placeholder.
    public var illustration: Illustration?

    /// Creates the content of a share card.
    ///
    /// - Parameters:
    ///   - title: The headline, for example `"7-DAY STREAK"`.
    ///   - achievementText: The sentence that tells the story.
    ///   - badge: An emoji or a short text for the badge.
    ///   - date: The day the achievement happened.
    ///   - subjectName: The subject's name, or `nil`.
    ///   - ageText: The subject's age, already worded, or `nil`.
    ///   - categoryColor: The achievement category's colour.
    ///   - photo: A `data:image/…` URI or a relative path, or `nil` for the placeholder.
    ///   - branding: The brand mark; ``defaultBranding`` unless given.
    ///   - illustration: The picture drawn when there is no photo, or `nil` for the
    ///     paw-print placeholder.
    public init(
        title: String, achievementText: String, badge: String, date: LocalDay, subjectName: String? = nil,
        ageText: String? = nil, categoryColor: ShareCardColor, photo: String? = nil,
        branding: String = ShareCardContent.defaultBranding, illustration: Illustration? = nil
    ) {
        self.title = title
        self.achievementText = achievementText
        self.badge = badge
        self.date = date
        self.subjectName = subjectName
        self.ageText = ageText
        self.categoryColor = categoryColor
        self.photo = photo
        self.branding = branding
        self.illustration = illustration
    }

    /// The date in English, whatever the device's locale: `"February 27, 2026"`.
    public var formattedDate: String { Self.englishDate(date) }

    /// The date in a language, whatever the device's locale (`date.long`): `"February 27,
    /// 2026"` in English, `"27 de fevereiro de 2026"` in Brazilian Portuguese.
    ///
    /// - Parameter translation: The language.
    /// - Returns: The date.
    public func formattedDate(translation: Translation) -> String { translation.longDate(date) }

    /// The subject's name and age on one line (`"Ollie · 12 weeks old"`), either alone, or `nil` if neither is given.
    public var subjectLine: String? {
        let parts = [subjectName, ageText].compactMap { $0.map(Self.trimmingWhitespace) }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// The photo reference if it is one the card may use (see ``photo``), otherwise `nil`.
    public var acceptedPhoto: String? {
        guard let photo, Self.isAcceptedPhotoReference(photo) else { return nil }
        return photo
    }

    /// Formats a day as English text independent of any locale, for example `"February 27, 2026"`.
    ///
    /// - Parameter day: The day to format.
    /// - Returns: The month's full name, the day of the month, a comma and the year.
    public static func englishDate(_ day: LocalDay) -> String {
        Translation.english.longDate(day)
    }

    /// Whether an image reference is a `data:image/` URI or a safe relative path.
    ///
    /// - Parameter reference: The reference to check.
    /// - Returns: `true` for `data:image/…` URIs and for relative paths without a scheme,
    ///   a leading `/` or `\`, a `..` component, or whitespace and control characters.
    public static func isAcceptedPhotoReference(_ reference: String) -> Bool {
        if reference.lowercased().hasPrefix("data:image/") { return true }
        guard !reference.isEmpty, !reference.hasPrefix("/"), !reference.hasPrefix("\\") else { return false }
        for scalar in reference.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F { return false }
        }
        if let colon = reference.firstIndex(of: ":") {
            // A colon before the first slash makes the reference a URI with a scheme.
            let slash = reference.firstIndex(of: "/") ?? reference.endIndex
            if colon < slash { return false }
        }
        let components = reference.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        return !components.contains("..")
    }

    private static func trimmingWhitespace(_ text: String) -> String {
        var characters = Substring(text)
        while let first = characters.first, first.isWhitespace { characters.removeFirst() }
        while let last = characters.last, last.isWhitespace { characters.removeLast() }
        return String(characters)
    }
}

extension ShareCardContent: Codable {
    private enum CodingKeys: String, CodingKey {
        case title, achievementText, badge, date, subjectName, ageText, categoryColor, photo, branding, illustration
    }

    /// Decodes content from JSON; a missing `branding` means ``defaultBranding``, a missing
    /// `illustration` none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decode(String.self, forKey: .title),
            achievementText: try c.decode(String.self, forKey: .achievementText),
            badge: try c.decode(String.self, forKey: .badge),
            date: try c.decode(LocalDay.self, forKey: .date),
            subjectName: try c.decodeIfPresent(String.self, forKey: .subjectName),
            ageText: try c.decodeIfPresent(String.self, forKey: .ageText),
            categoryColor: try c.decode(ShareCardColor.self, forKey: .categoryColor),
            photo: try c.decodeIfPresent(String.self, forKey: .photo),
            branding: try c.decodeIfPresent(String.self, forKey: .branding) ?? Self.defaultBranding,
            illustration: try c.decodeIfPresent(Illustration.self, forKey: .illustration))
    }

    /// Encodes content as JSON, leaving out absent optional fields.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(title, forKey: .title)
        try c.encode(achievementText, forKey: .achievementText)
        try c.encode(badge, forKey: .badge)
        try c.encode(date, forKey: .date)
        try c.encodeIfPresent(subjectName, forKey: .subjectName)
        try c.encodeIfPresent(ageText, forKey: .ageText)
        try c.encode(categoryColor, forKey: .categoryColor)
        try c.encodeIfPresent(photo, forKey: .photo)
        try c.encode(branding, forKey: .branding)
        try c.encodeIfPresent(illustration, forKey: .illustration)
    }
}
