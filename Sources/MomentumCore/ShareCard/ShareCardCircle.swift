/// A circle on a share card, in pixels from the card's top-left corner.
public struct ShareCardCircle: Hashable, Sendable, Codable {
    /// The horizontal position of the centre.
    public var centerX: Double
    /// The vertical position of the centre.
    public var centerY: Double
    /// The radius.
    public var radius: Double

    /// Creates a circle from its centre and radius.
    ///
    /// - Parameters:
    ///   - centerX: The horizontal position of the centre.
    ///   - centerY: The vertical position of the centre.
    ///   - radius: The radius.
    public init(centerX: Double, centerY: Double, radius: Double) {
        self.centerX = centerX
        self.centerY = centerY
        self.radius = radius
    }

    /// The square the circle is inscribed in.
    public var bounds: ShareCardRect {
        ShareCardRect(x: centerX - radius, y: centerY - radius, width: 2 * radius, height: 2 * radius)
    }
}
