/// The look of a celebration overlay: seed 002's `CelebrationStyle` (`.refined` /
/// `.minimal` / `.joyful`).
///
/// Renamed here because ``CelebrationStyle`` is the user's setting (full / subtle /
/// minimal / off) from seed 000.
public enum CelebrationVisualStyle: String, Hashable, Sendable, Codable, CaseIterable {
    /// The app's existing, understated celebration; seed 002's fallback for standard
    /// categories and for minimal mode.
    case refined
    /// A quieter look than ``refined``.
    case minimal
    /// A livelier look for themed celebrations.
    case joyful
}
