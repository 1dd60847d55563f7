/// How one category or milestone is celebrated, before the tier, the user's style and the
/// device's accessibility settings are applied: one row of seed 002's tables.
///
/// The initializer's defaults are those of seed 002's `CelebrationView` (refined style,
/// 2.0 s, the achievement haptic), which the seed's tables leave implicit.
public struct CelebrationTheme: Hashable, Sendable, Codable {
    /// A theme's particle overlay, with colours still named.
    public struct Particles: Hashable, Sendable, Codable {
        /// The kind of particle.
        public var type: ParticleType
        /// How many particles.
        public var intensity: ParticleIntensity
        /// The particle colours, in the seed's order.
        public var colors: [CelebrationColor]

        /// Creates a particle overlay.
        public init(type: ParticleType, intensity: ParticleIntensity, colors: [CelebrationColor]) {
            self.type = type
            self.intensity = intensity
            self.colors = colors
        }
    }

    /// The look of the overlay.
    public var visualStyle: CelebrationVisualStyle
    /// The particle overlay; `nil` for none (the refined fallback).
    public var particles: Particles?
    /// The accent colour.
    public var accentColor: CelebrationColor
    /// The icon.
    public var icon: CelebrationIcon
    /// The message; `nil` for none.
    public var message: String?
    /// How long the overlay stays before it dismisses itself, in seconds.
    public var duration: Double
    /// The haptic.
    public var haptic: HapticPattern

    /// Creates a theme.
    public init(
        visualStyle: CelebrationVisualStyle = .refined, particles: Particles? = nil, accentColor: CelebrationColor,
        icon: CelebrationIcon, message: String? = nil, duration: Double = 2.0, haptic: HapticPattern = .achievement
    ) {
        self.visualStyle = visualStyle
        self.particles = particles
        self.accentColor = accentColor
        self.icon = icon
        self.message = message
        self.duration = duration
        self.haptic = haptic
    }
}
