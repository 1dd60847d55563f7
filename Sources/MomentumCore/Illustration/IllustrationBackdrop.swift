/// The background elements of an illustration, behind its character.
///
/// Every backdrop has the same soft halo in the category's colour behind the character
/// and a ground under it; each adds its own elements around them.
public enum IllustrationBackdrop: String, Hashable, Sendable, Codable, CaseIterable {
    /// Four-pointed sparkles and dots (most achievements).
    case sparkles
    /// Confetti in the category's colour, gold, pink, blue and green (the major ones).
    case confetti
    /// A grassy hill, the sun and a cloud (potty, walks, socialization).
    case outdoors
    /// A night sky with the moon and stars (a night away).
    case night
    /// Mountains with snowy peaks (a hard habit sustained, a method mastered).
    case peaks
}
