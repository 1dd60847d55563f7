/// The choreography of a celebration: its phases in order, each with a start offset and a
/// duration (seed 000, "Animation Specifications").
public struct AnimationTimeline: Hashable, Sendable, Codable {
    /// The phases, ordered by start offset.
    public var phases: [AnimationPhase]

    /// Creates a timeline.
    public init(phases: [AnimationPhase]) {
        self.phases = phases
    }

    /// When the last phase ends, in seconds; 0 for an empty timeline.
    public var totalDuration: Double { phases.map(\.end).max() ?? 0 }

    /// Whether every phase only fades or holds still.
    public var isFadeOnly: Bool { phases.allSatisfy { $0.motion == .fade || $0.motion == .hold } }

    /// The same timeline under Reduce Motion: particle phases hold still and every other
    /// transition fades. Offsets and durations are unchanged.
    public func reducingMotion() -> AnimationTimeline {
        AnimationTimeline(
            phases: phases.map {
                AnimationPhase($0.kind, start: $0.start, duration: $0.duration, motion: $0.motion.reduced)
            })
    }

    /// Tier 1: one 0.4 s micro-animation, a spring with a subtle bounce.
    ///
    /// The seed gives a range, 0.3–0.5 s; Momentum uses its midpoint so that the timeline is
    /// a single value.
    public static let acknowledgment = AnimationTimeline(phases: [
        AnimationPhase(.micro, start: 0, duration: 0.4, motion: .spring)
    ])

    /// Tier 2: a 0.4 s slide-up entry with a spring, a 1.5 s confetti burst, a 0.3 s
    /// dismissal; 2.2 s in all.
    ///
    /// The seed gives the three durations; Momentum runs them one after another (the burst
    /// starts once the card has landed) and dismisses with a fade, one of the seed's two
    /// options ("fade or slide-down"), because it also suits Reduce Motion.
    public static let notable = AnimationTimeline(phases: [
        AnimationPhase(.entry, start: 0, duration: 0.4, motion: .slideUpSpring),
        AnimationPhase(.confetti, start: 0.4, duration: 1.5, motion: .particleBurst),
        AnimationPhase(.dismissal, start: 1.9, duration: 0.3, motion: .fade),
    ])

    /// Tier 3: a 0.5 s build-up (fade-in of the overlay), a 0.8 s reveal (scale and bounce),
    /// a 3 s confetti multi-burst and a 0.5 s settle; 4.8 s in all, the seed's "~5 seconds
    /// before user input expected".
    ///
    /// The phases run in the seed's order ("build-up → reveal → celebration → settle"), one
    /// after another. The seed gives no motion for the settle; Momentum fades.
    public static let major = AnimationTimeline(phases: [
        AnimationPhase(.buildUp, start: 0, duration: 0.5, motion: .fade),
        AnimationPhase(.reveal, start: 0.5, duration: 0.8, motion: .scaleBounce),
        AnimationPhase(.confetti, start: 1.3, duration: 3, motion: .particleMultiBurst),
        AnimationPhase(.settle, start: 4.3, duration: 0.5, motion: .fade),
    ])

    /// Seed 000's timeline for a tier.
    ///
    /// - Parameter tier: The presented tier.
    /// - Returns: ``acknowledgment``, ``notable`` or ``major``.
    public static func standard(for tier: CelebrationTier) -> AnimationTimeline {
        switch tier {
        case .acknowledgment: acknowledgment
        case .notable: notable
        case .major: major
        }
    }
}
