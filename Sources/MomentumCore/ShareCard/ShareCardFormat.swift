/// The shape and pixel size of a share card.
///
/// Each format matches where the card is usually posted. The raw value is the format's name
/// on the wire (`"square"`, `"story"`, `"landscape"`).
public enum ShareCardFormat: String, CaseIterable, Codable, Hashable, Sendable {
    /// 1:1, 1080 × 1080 pixels: feed posts and general sharing.
    case square
    /// 9:16, 1080 × 1920 pixels: Instagram and Facebook Stories.
    case story
    /// 16:9, 1920 × 1080 pixels: Twitter/X and messaging apps.
    case landscape

    /// The width of the card in pixels.
    public var width: Int {
        switch self {
        case .square, .story: 1080
        case .landscape: 1920
        }
    }

    /// The height of the card in pixels.
    public var height: Int {
        switch self {
        case .square, .landscape: 1080
        case .story: 1920
        }
    }
}
