/// How the elements of an animation phase move (seed 000, "Animation Specifications").
public enum AnimationMotion: String, Hashable, Sendable, Codable, CaseIterable {
    /// A spring with a subtle bounce: tier 1's icon scale, colour pulse and shimmer.
    case spring
    /// A slide up from the bottom with a spring: tier 2's card entry.
    case slideUpSpring
    /// An opacity fade; the only transition left under Reduce Motion.
    case fade
    /// A scale with a bounce: tier 3's reveal of the main element.
    case scaleBounce
    /// One burst of gravity-affected particles: tier 2's confetti.
    case particleBurst
    /// A sequence of particle bursts: tier 3's confetti.
    case particleMultiBurst
    /// Nothing moves; the content stays on screen for the phase. Replaces particle phases
    /// under Reduce Motion so that the timing, and the time to read, stay the same.
    case hold

    /// Whether the motion emits particles.
    public var emitsParticles: Bool { self == .particleBurst || self == .particleMultiBurst }

    /// The motion to use instead under Reduce Motion: particle phases hold still, every other
    /// transition fades.
    public var reduced: AnimationMotion {
        switch self {
        case .particleBurst, .particleMultiBurst, .hold: .hold
        case .spring, .slideUpSpring, .fade, .scaleBounce: .fade
        }
    }
}
