/// Lines of text placed on a share card, all in one style.
///
/// Every line's estimated width (``ShareCardTextMetrics/width(of:fontSize:weight:)``) is at
/// most the width of ``box``, and the lines stack inside it, one ``lineHeight`` apart.
public struct ShareCardTextBlock: Hashable, Sendable, Codable {
    /// Where lines sit horizontally in their box.
    public enum Alignment: String, Codable, Hashable, Sendable {
        /// Each line starts at the box's left edge; ``Line/x`` is that edge.
        case leading
        /// Each line is centred; ``Line/x`` is the box's horizontal centre.
        case center
        /// Each line ends at the box's right edge; ``Line/x`` is that edge.
        case trailing
    }

    /// One line of text and where to draw it.
    public struct Line: Hashable, Sendable, Codable {
        /// The text, without line breaks.
        public var text: String
        /// The anchor's horizontal position: the left edge, the centre or the right edge, by ``alignment``.
        public var x: Double
        /// The vertical position of the text's baseline.
        public var baselineY: Double

        /// Creates a line.
        ///
        /// - Parameters:
        ///   - text: The text, without line breaks.
        ///   - x: The anchor's horizontal position.
        ///   - baselineY: The vertical position of the baseline.
        public init(text: String, x: Double, baselineY: Double) {
            self.text = text
            self.x = x
            self.baselineY = baselineY
        }
    }

    /// The lines, top to bottom.
    public var lines: [Line]
    /// The area the lines must stay in: its width is the wrapping width, its height the lines' total height.
    public var box: ShareCardRect
    /// The font size in pixels, after any shrinking.
    public var fontSize: Double
    /// The distance between consecutive baselines, in pixels.
    public var lineHeight: Double
    /// The font weight.
    public var weight: ShareCardFontWeight
    /// Where lines sit horizontally in ``box``.
    public var alignment: Alignment
    /// The text colour.
    public var color: ShareCardColor
    /// The text's opacity, 0 through 1.
    public var opacity: Double
    /// Whether the text was cut short and its last line ends in "…".
    public var isTruncated: Bool

    /// Creates a text block.
    ///
    /// - Parameters:
    ///   - lines: The lines, top to bottom.
    ///   - box: The area the lines stay in.
    ///   - fontSize: The font size in pixels.
    ///   - lineHeight: The distance between baselines.
    ///   - weight: The font weight.
    ///   - alignment: Where lines sit horizontally in `box`.
    ///   - color: The text colour.
    ///   - opacity: The opacity, 0 through 1.
    ///   - isTruncated: Whether the text was cut short.
    public init(
        lines: [Line], box: ShareCardRect, fontSize: Double, lineHeight: Double, weight: ShareCardFontWeight,
        alignment: Alignment, color: ShareCardColor, opacity: Double = 1, isTruncated: Bool = false
    ) {
        self.lines = lines
        self.box = box
        self.fontSize = fontSize
        self.lineHeight = lineHeight
        self.weight = weight
        self.alignment = alignment
        self.color = color
        self.opacity = opacity
        self.isTruncated = isTruncated
    }

    /// The lines joined with spaces: the text as it appears on the card.
    public var text: String { lines.map(\.text).joined(separator: " ") }
}
