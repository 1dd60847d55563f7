/// An axis-aligned rectangle on a share card, in pixels from the card's top-left corner.
public struct ShareCardRect: Hashable, Sendable, Codable {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a rectangle from its top-left corner and size.
    ///
    /// - Parameters:
    ///   - x: The left edge.
    ///   - y: The top edge.
    ///   - width: The width.
    ///   - height: The height.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }
    /// The horizontal centre.
    public var midX: Double { x + width / 2 }
    /// The vertical centre.
    public var midY: Double { y + height / 2 }

    /// This rectangle shrunk by the same amount on every side.
    ///
    /// - Parameter amount: How far each edge moves inwards.
    /// - Returns: The smaller rectangle, never narrower or shorter than zero.
    public func insetBy(_ amount: Double) -> ShareCardRect {
        ShareCardRect(
            x: x + amount, y: y + amount, width: max(0, width - 2 * amount), height: max(0, height - 2 * amount))
    }

    /// Whether another rectangle lies entirely inside this one (edges may touch).
    ///
    /// - Parameter other: The rectangle to test.
    public func contains(_ other: ShareCardRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }
}
