/// How big a celebration is: seed 000's three tiers.
///
/// The tier of an unlock comes from its rule; the user's ``CelebrationStyle`` may present it
/// smaller (``CelebrationStyle/presentedTier(for:)``). Encoded as its number, 1 to 3.
public enum CelebrationTier: Int, Hashable, Sendable, Codable, CaseIterable, Comparable, CodingKeyRepresentable {
    /// Tier 1: a subtle inline acknowledgment (a shimmer or pulse on the completed item);
    /// no modal, no interruption, no particles.
    case acknowledgment = 1
    /// Tier 2: a card that slides up after the triggering action, with a brief burst of
    /// particles.
    case notable = 2
    /// Tier 3: a full-screen celebration: build-up, reveal, particles, settle.
    case major = 3

    /// Orders tiers from the smallest (tier 1) to the largest (tier 3).
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
