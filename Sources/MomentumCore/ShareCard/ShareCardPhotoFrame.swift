/// The rounded frame that holds the photo, or an illustration or a placeholder when there is none.
///
/// The frame is a rounded rectangle with a light border; the picture fills ``imageRect``
/// (cropped to fill it, keeping its aspect ratio) with its own, slightly smaller corner radius.
public struct ShareCardPhotoFrame: Hashable, Sendable, Codable {
    /// What the frame shows.
    public enum Content: Hashable, Sendable, Codable {
        /// A photo, by a reference accepted by ``ShareCardContent/isAcceptedPhotoReference(_:)``.
        case photo(href: String)
        /// No photo: a soft circle in the category colour with a paw print drawn in it.
        case placeholder(Placeholder)
        /// No photo: the achievement's illustration, filling the picture's area.
        case illustration(Illustration)

        private enum PlaceholderCodingKeys: String, CodingKey {
            case _0 = "style"
        }

        private enum IllustrationCodingKeys: String, CodingKey {
            case _0 = "picture"
        }
    }

    /// How the placeholder is drawn.
    public struct Placeholder: Hashable, Sendable, Codable {
        /// The colour that fills ``ShareCardPhotoFrame/imageRect``.
        public var fill: ShareCardColor
        /// The soft circle in the middle; the paw print fits inside it.
        public var circle: ShareCardCircle
        /// The circle's colour.
        public var circleColor: ShareCardColor
        /// The circle's opacity, 0 through 1.
        public var circleOpacity: Double
        /// The colour of the paw print.
        public var pawColor: ShareCardColor

        /// Creates a placeholder description.
        ///
        /// - Parameters:
        ///   - fill: The colour behind everything.
        ///   - circle: The soft circle.
        ///   - circleColor: The circle's colour.
        ///   - circleOpacity: The circle's opacity.
        ///   - pawColor: The paw print's colour.
        public init(
            fill: ShareCardColor, circle: ShareCardCircle, circleColor: ShareCardColor, circleOpacity: Double,
            pawColor: ShareCardColor
        ) {
            self.fill = fill
            self.circle = circle
            self.circleColor = circleColor
            self.circleOpacity = circleOpacity
            self.pawColor = pawColor
        }
    }

    /// The outer edge of the frame, border included.
    public var frame: ShareCardRect
    /// The corner radius of ``frame``.
    public var cornerRadius: Double
    /// The border's width; ``imageRect`` is ``frame`` inset by it.
    public var borderWidth: Double
    /// The border's colour.
    public var borderColor: ShareCardColor
    /// The area the picture fills.
    public var imageRect: ShareCardRect
    /// The corner radius of ``imageRect``.
    public var imageCornerRadius: Double
    /// The photo, the illustration or the placeholder.
    public var content: Content

    /// Creates a photo frame.
    ///
    /// - Parameters:
    ///   - frame: The outer edge.
    ///   - cornerRadius: The outer corner radius.
    ///   - borderWidth: The border's width.
    ///   - borderColor: The border's colour.
    ///   - content: The photo, or the placeholder.
    public init(
        frame: ShareCardRect, cornerRadius: Double, borderWidth: Double, borderColor: ShareCardColor, content: Content
    ) {
        self.frame = frame
        self.cornerRadius = cornerRadius
        self.borderWidth = borderWidth
        self.borderColor = borderColor
        self.imageRect = frame.insetBy(borderWidth)
        self.imageCornerRadius = max(0, cornerRadius - borderWidth)
        self.content = content
    }

    /// Whether the frame shows something else than a photo: the placeholder or an illustration.
    public var isPlaceholder: Bool {
        if case .photo = content { return false }
        return true
    }
}
