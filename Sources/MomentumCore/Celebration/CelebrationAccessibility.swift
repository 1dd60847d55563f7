/// The device's accessibility settings that shape a celebration.
///
/// Passed in by the app (the library reads no system settings), so the same unlock gives
/// the same ``CelebrationConfig`` on every device with the same settings.
public struct CelebrationAccessibility: Hashable, Sendable, Codable {
    /// Reduce Motion: no particles, and every transition becomes a fade (seed 002).
    public var reduceMotion: Bool
    /// Increase Contrast: the high-contrast colour set, and the accent wash at half opacity
    /// (seed 002).
    public var highContrast: Bool

    /// Creates a set of accessibility settings; both are off by default.
    public init(reduceMotion: Bool = false, highContrast: Bool = false) {
        self.reduceMotion = reduceMotion
        self.highContrast = highContrast
    }

    /// No accessibility setting that affects celebrations is on.
    public static let standard = CelebrationAccessibility()
}
