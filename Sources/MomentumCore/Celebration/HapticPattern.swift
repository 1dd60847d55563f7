/// The haptic played with a celebration.
///
/// Seed 002 names only `.achievement`, the default of its `CelebrationView`; ``light`` is
/// Momentum's name for seed 000's "optional subtle haptic feedback" of tier 1.
public enum HapticPattern: String, Hashable, Sendable, Codable, CaseIterable {
    /// A single light tap: tier 1 acknowledgments.
    case light
    /// The achievement pattern: seed 002's default for every themed celebration.
    case achievement
}
