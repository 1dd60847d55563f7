/// The kind of particle a themed celebration emits (seed 002).
public enum ParticleType: String, Hashable, Sendable, Codable, CaseIterable {
    /// Confetti: vacation goals.
    case confetti
    /// Sparkles: house and education goals.
    case sparkle
    /// Coins: savings milestones.
    case coins
    /// Hearts: wedding goals.
    case hearts
    /// Stars: retirement goals.
    case stars
}
