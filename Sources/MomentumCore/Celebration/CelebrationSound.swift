/// A sound effect played with a celebration.
///
/// Seed 000 offers a "sound effect option (if app has audio, otherwise haptics)" for tier 3
/// only and names no sounds; both names here are Momentum's. The app decides whether to play
/// them (the user's sound setting, silent mode).
public enum CelebrationSound: String, Hashable, Sendable, Codable, CaseIterable {
    /// A short chime; not used by the standard catalog, available to rule packs.
    case chime
    /// A celebratory fanfare: tier 3 in the standard catalog.
    case fanfare
}
