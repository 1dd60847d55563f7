/// The particle overlay of a celebration, ready to render (seed 002's `ParticleConfig`).
///
/// A ``CelebrationConfig`` carries one only when particles are to be drawn: never at tier 1,
/// in minimal mode or with Reduce Motion.
public struct ParticleConfig: Hashable, Sendable, Codable {
    /// The kind of particle.
    public var type: ParticleType
    /// How many particles, by size of the achievement.
    public var intensity: ParticleIntensity
    /// The particle colours as `#RRGGBB` hex strings, already resolved for contrast.
    public var colors: [String]

    /// Creates a particle overlay.
    public init(type: ParticleType, intensity: ParticleIntensity, colors: [String]) {
        self.type = type
        self.intensity = intensity
        self.colors = colors
    }
}
