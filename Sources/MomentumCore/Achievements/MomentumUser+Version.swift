extension MomentumUser {
    /// The engine's version, a semantic version (``SemanticVersion``).
    ///
    /// It changes with any change to what the engine computes from a log — a streak, a
    /// freeze, a reward, a celebration, an unlock, a calendar day: the patch for a fix that
    /// changes a result, the minor for something computed that was not before, the major
    /// when a log means something else than it did. A change that computes the same
    /// results (speed, memory, wording of an error) leaves it. A state travels with the
    /// versions that computed it (``RuleVersions``), so that a device whose engine is older
    /// than the server's shows the server's state rather than computing another streak.
    public static let engineVersion = "1.2.0"
}
