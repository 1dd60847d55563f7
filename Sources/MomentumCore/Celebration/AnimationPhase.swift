/// One step of a celebration's animation timeline: what happens, when and for how long.
public struct AnimationPhase: Hashable, Sendable, Codable {
    /// The named steps of seed 000's tiers.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// Tier 1's micro-animation (icon scale, colour pulse, shimmer).
        case micro
        /// Tier 2's card entry.
        case entry
        /// Particles: tier 2's burst, tier 3's multi-burst sequence.
        case confetti
        /// Tier 2's card dismissal.
        case dismissal
        /// Tier 3's fade-in of the overlay.
        case buildUp
        /// Tier 3's reveal of the main element.
        case reveal
        /// Tier 3's transition to the interactive state.
        case settle
    }

    /// What the phase is.
    public var kind: Kind
    /// When the phase starts, in seconds from the start of the celebration.
    public var start: Double
    /// How long the phase lasts, in seconds.
    public var duration: Double
    /// How its elements move.
    public var motion: AnimationMotion

    /// Creates a phase.
    public init(_ kind: Kind, start: Double, duration: Double, motion: AnimationMotion) {
        self.kind = kind
        self.start = start
        self.duration = duration
        self.motion = motion
    }

    /// When the phase ends, in seconds from the start, rounded to the millisecond so that
    /// sums of decimal durations compare exactly (0.4 + 1.5 + 0.3 is 2.2, not 2.1999…).
    public var end: Double { ((start + duration) * 1000).rounded() / 1000 }
}
