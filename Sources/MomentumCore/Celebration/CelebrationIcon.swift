/// The icon of a celebration: an SF Symbol, with an emoji for platforms without SF Symbols
/// (the web, Android, share cards rendered on the server).
public struct CelebrationIcon: Hashable, Sendable, Codable {
    /// The SF Symbol name (`airplane`, `house.fill`).
    public var symbol: String
    /// The emoji shown where SF Symbols are unavailable.
    public var emoji: String

    /// Creates an icon.
    public init(symbol: String, emoji: String) {
        self.symbol = symbol
        self.emoji = emoji
    }
}
