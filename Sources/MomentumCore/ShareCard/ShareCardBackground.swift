/// The card's background: a gentle vertical gradient in tints of the category colour, and a
/// few large, faint circles for depth.
public struct ShareCardBackground: Hashable, Sendable, Codable {
    /// A faint decorative circle, usually partly off the card.
    public struct Accent: Hashable, Sendable, Codable {
        /// Where the circle is.
        public var circle: ShareCardCircle
        /// Its colour.
        public var color: ShareCardColor
        /// Its opacity, 0 through 1.
        public var opacity: Double

        /// Creates an accent.
        ///
        /// - Parameters:
        ///   - circle: Where the circle is.
        ///   - color: Its colour.
        ///   - opacity: Its opacity.
        public init(circle: ShareCardCircle, color: ShareCardColor, opacity: Double) {
            self.circle = circle
            self.color = color
            self.opacity = opacity
        }
    }

    /// The colour at the top edge.
    public var topColor: ShareCardColor
    /// The colour at the bottom edge.
    public var bottomColor: ShareCardColor
    /// The decorative circles, drawn in order over the gradient.
    public var accents: [Accent]

    /// Creates a background.
    ///
    /// - Parameters:
    ///   - topColor: The colour at the top edge.
    ///   - bottomColor: The colour at the bottom edge.
    ///   - accents: The decorative circles.
    public init(topColor: ShareCardColor, bottomColor: ShareCardColor, accents: [Accent]) {
        self.topColor = topColor
        self.bottomColor = bottomColor
        self.accents = accents
    }
}
