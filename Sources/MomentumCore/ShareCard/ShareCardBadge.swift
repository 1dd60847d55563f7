/// The round achievement badge, pinned to a corner of the photo.
public struct ShareCardBadge: Hashable, Sendable, Codable {
    /// The badge's disc, ring included.
    public var circle: ShareCardCircle
    /// The disc's colour.
    public var fill: ShareCardColor
    /// The ring drawn around the disc's edge (inside ``circle``).
    public var ringColor: ShareCardColor
    /// The ring's width.
    public var ringWidth: Double
    /// The badge's emoji or short text, centred in the disc; no lines when the badge text is empty.
    public var label: ShareCardTextBlock

    /// Creates a badge.
    ///
    /// - Parameters:
    ///   - circle: The disc, ring included.
    ///   - fill: The disc's colour.
    ///   - ringColor: The ring's colour.
    ///   - ringWidth: The ring's width.
    ///   - label: The text in the disc.
    public init(
        circle: ShareCardCircle, fill: ShareCardColor, ringColor: ShareCardColor, ringWidth: Double,
        label: ShareCardTextBlock
    ) {
        self.circle = circle
        self.fill = fill
        self.ringColor = ringColor
        self.ringWidth = ringWidth
        self.label = label
    }
}
