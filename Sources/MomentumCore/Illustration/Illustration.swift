/// A picture of an achievement, composed from parts: a character (``base``), what it
/// wears or has beside it (``prop``) and what is behind it (``backdrop``), in the colour
/// of the achievement's category.
///
/// Seed 000's illustration style guide asks for "a small set of base illustrations that
/// can be combined": a happy puppy with props (a graduation cap, a trophy, a stethoscope)
/// and background elements. The other bundled packs get their own character in the same
/// style. An illustration is plain data: ``IllustrationRenderer`` draws it as SVG,
/// always the same for the same value, in light, dark or both (for a web page that
/// follows the reader's colour scheme); share cards draw it where a memory has no photo.
///
/// ```swift
/// let art = Illustration(rule: "potty-trained", category: "potty", milestoneType: "streak")
/// // a puppy in a graduation cap, with confetti, in the potty category's green
/// let svg = IllustrationRenderer.svg(art, appearance: .adaptive)
/// ```
public struct Illustration: Hashable, Sendable, Codable {
    /// The character.
    public var base: IllustrationBase
    /// What the character wears or has beside it.
    public var prop: IllustrationProp
    /// The background elements.
    public var backdrop: IllustrationBackdrop
    /// The category's colour, which the halo, the ground and the props take.
    public var color: ShareCardColor

    /// Creates an illustration from its parts.
    ///
    /// - Parameters:
    ///   - base: The character.
    ///   - prop: What it wears or has beside it.
    ///   - backdrop: The background elements.
    ///   - color: The category's colour.
    public init(
        base: IllustrationBase, prop: IllustrationProp, backdrop: IllustrationBackdrop, color: ShareCardColor
    ) {
        self.base = base
        self.prop = prop
        self.backdrop = backdrop
        self.color = color
    }
}
