/// Everything an app needs to render one celebration: pure data, built by a
/// ``CelebrationCatalog`` from a theme, the presented tier, the user's style and the
/// device's accessibility settings.
///
/// Seed 002's `CelebrationConfig`, with the colours as hex strings, an emoji fallback for the
/// icon, seed 000's tier, timeline and sound, and the accessibility decisions made up front so
/// that every client renders them alike.
public struct CelebrationConfig: Hashable, Sendable, Codable {
    /// The accessibility decisions of a celebration (seed 002, "Accessibility").
    public struct AccessibilityHandling: Hashable, Sendable, Codable {
        /// Whether particles are drawn; `false` under Reduce Motion, in minimal mode and at
        /// tier 1.
        public var showsParticles: Bool
        /// Whether every transition is a fade (Reduce Motion).
        public var fadeOnly: Bool
        /// Whether the colours are the high-contrast set.
        public var highContrast: Bool
        /// Whether the overlay is hidden from assistive technologies; always `true` in
        /// Momentum's factory (seed 002: `accessibilityHidden(true)` on every overlay), so that
        /// the celebration never interrupts VoiceOver: ``announcement`` is posted instead.
        public var hidesOverlayFromAccessibility: Bool
        /// What assistive technologies announce: the message without its emoji (VoiceOver
        /// would read "beach with umbrella"), or the catalog's default announcement.
        public var announcement: String

        /// Creates the accessibility decisions.
        public init(
            showsParticles: Bool, fadeOnly: Bool, highContrast: Bool, hidesOverlayFromAccessibility: Bool,
            announcement: String
        ) {
            self.showsParticles = showsParticles
            self.fadeOnly = fadeOnly
            self.highContrast = highContrast
            self.hidesOverlayFromAccessibility = hidesOverlayFromAccessibility
            self.announcement = announcement
        }
    }

    /// The tier the celebration is presented as, after the user's style.
    public var tier: CelebrationTier
    /// The look of the overlay.
    public var visualStyle: CelebrationVisualStyle
    /// The particles to draw; `nil` when none are drawn.
    public var particles: ParticleConfig?
    /// The accent colour as a `#RRGGBB` hex string.
    public var accentColor: String
    /// The opacity of the accent wash: 1, or 0.5 with high contrast (seed 002: "`accentColor`
    /// opacity reduced 50%"), which keeps text on it legible.
    public var accentOpacity: Double
    /// The icon.
    public var icon: CelebrationIcon
    /// The message; `nil` for none.
    public var message: String?
    /// How long the overlay stays before it dismisses itself, in seconds (seed 002). The
    /// choreography is ``timeline``; tier 3's runs longer and ends in an interactive state.
    public var duration: Double
    /// The haptic.
    public var haptic: HapticPattern
    /// The sound effect, if any.
    public var sound: CelebrationSound?
    /// The tier's animation timeline (seed 000), fade-only under Reduce Motion.
    public var timeline: AnimationTimeline
    /// The accessibility decisions.
    public var accessibility: AccessibilityHandling

    /// Creates a config.
    public init(
        tier: CelebrationTier, visualStyle: CelebrationVisualStyle, particles: ParticleConfig?, accentColor: String,
        accentOpacity: Double, icon: CelebrationIcon, message: String?, duration: Double, haptic: HapticPattern,
        sound: CelebrationSound?, timeline: AnimationTimeline, accessibility: AccessibilityHandling
    ) {
        self.tier = tier
        self.visualStyle = visualStyle
        self.particles = particles
        self.accentColor = accentColor
        self.accentOpacity = accentOpacity
        self.icon = icon
        self.message = message
        self.duration = duration
        self.haptic = haptic
        self.sound = sound
        self.timeline = timeline
        self.accessibility = accessibility
    }
}
