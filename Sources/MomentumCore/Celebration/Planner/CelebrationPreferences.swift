/// A user's celebration settings, as the ``CelebrationPlanner`` applies them.
///
/// The style and the accessibility settings shape *how* a celebration looks when it is shown
/// (they are read when ``CelebrationPlanner/next(at:catalog:)`` builds its config, so a change
/// applies to what is still queued); Do Not Disturb decides *whether* an interruption may be
/// shown now.
public struct CelebrationPreferences: Hashable, Sendable, Codable {
    /// The user's "Celebration style" setting (seed 000, "User Preferences").
    public var style: CelebrationStyle
    /// The device's accessibility settings (Reduce Motion, Increase Contrast).
    public var accessibility: CelebrationAccessibility
    /// Whether Do Not Disturb or a Focus mode is on: cards and full-screen celebrations are
    /// held until it is turned off; inline acknowledgments are not interruptions and still
    /// show.
    public var doNotDisturb: Bool

    /// Creates a set of celebration settings.
    ///
    /// - Parameters:
    ///   - style: The celebration style; full celebrations by default.
    ///   - accessibility: The accessibility settings; none by default.
    ///   - doNotDisturb: Whether Do Not Disturb is on; off by default.
    public init(
        style: CelebrationStyle = .full, accessibility: CelebrationAccessibility = .standard,
        doNotDisturb: Bool = false
    ) {
        self.style = style
        self.accessibility = accessibility
        self.doNotDisturb = doNotDisturb
    }

    /// Full celebrations, no accessibility setting, Do Not Disturb off.
    public static let standard = CelebrationPreferences()
}
