/// What every celebration of one tier shares, whatever its theme: the timeline, whether
/// particles may be drawn, and the haptic and sound.
public struct CelebrationTierPresentation: Hashable, Sendable, Codable {
    /// The tier's animation timeline.
    public var timeline: AnimationTimeline
    /// Whether the theme's particles are drawn at this tier.
    public var showsParticles: Bool
    /// The haptic for this tier, replacing the theme's; `nil` keeps the theme's.
    public var haptic: HapticPattern?
    /// The sound effect, if any.
    public var sound: CelebrationSound?

    /// Creates a tier presentation.
    public init(
        timeline: AnimationTimeline, showsParticles: Bool, haptic: HapticPattern? = nil, sound: CelebrationSound? = nil
    ) {
        self.timeline = timeline
        self.showsParticles = showsParticles
        self.haptic = haptic
        self.sound = sound
    }

    /// Seed 000's presentation of a tier.
    ///
    /// - Tier 1: the micro-animation, no particles (the seed's "subtle glow or shimmer"), a
    ///   light haptic (its "optional subtle haptic feedback"), no sound.
    /// - Tier 2: the card timeline, the theme's particles and haptic, no sound (the seed
    ///   offers sound for tier 3 only).
    /// - Tier 3: the full timeline, the theme's particles and haptic, and a fanfare (the seed's
    ///   "sound effect option"; the sound itself is Momentum's choice).
    ///
    /// - Parameter tier: The presented tier.
    /// - Returns: The presentation.
    public static func standard(for tier: CelebrationTier) -> CelebrationTierPresentation {
        switch tier {
        case .acknowledgment:
            CelebrationTierPresentation(timeline: .acknowledgment, showsParticles: false, haptic: .light)
        case .notable:
            CelebrationTierPresentation(timeline: .notable, showsParticles: true)
        case .major:
            CelebrationTierPresentation(timeline: .major, showsParticles: true, sound: .fanfare)
        }
    }
}
