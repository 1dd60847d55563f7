extension CelebrationCatalog {
    /// The celebration of a completed goal of a category: seed 002's
    /// `CelebrationFactory.config(for: GoalCategory)`.
    ///
    /// - Parameters:
    ///   - category: The goal's category; one the catalog does not list gets ``fallback``.
    ///   - tier: The tier the unlock earned.
    ///   - style: The user's celebration style.
    ///   - accessibility: The device's accessibility settings.
    ///   - message: A message to show instead of the theme's (personalized by the caller).
    /// - Returns: The config, or `nil` when the style is ``CelebrationStyle/off``.
    public func config(
        category: CelebrationCategory, tier: CelebrationTier, style: CelebrationStyle = .full,
        accessibility: CelebrationAccessibility = .standard, message: String? = nil
    ) -> CelebrationConfig? {
        config(theme: theme(for: category), tier: tier, style: style, accessibility: accessibility, message: message)
    }

    /// The celebration of an unlock: the theme of its category, or, for an amount milestone
    /// whose category has no theme of its own (the `savings` pack's "First milestone!
    /// 1000 saved"), seed 002's milestone theme for the amount (coins, with more of them as
    /// the amount grows); otherwise ``fallback``, with the achievement's badge as its emoji.
    ///
    /// - Parameters:
    ///   - unlock: The unlock.
    ///   - style: The user's celebration style.
    ///   - accessibility: The device's accessibility settings.
    ///   - message: A message to show instead of the theme's (personalized by the caller).
    /// - Returns: The config, or `nil` when the style is ``CelebrationStyle/off``.
    public func config(
        for unlock: Unlock, style: CelebrationStyle = .full, accessibility: CelebrationAccessibility = .standard,
        message: String? = nil
    ) -> CelebrationConfig? {
        let category = CelebrationCategory(unlock.category)
        if categories[category] == nil, unlock.milestoneType == "amount", let amount = unlock.value {
            return config(
                milestone: MilestoneTier.tier(for: amount), tier: unlock.tier, style: style,
                accessibility: accessibility, message: message)
        }
        var theme = theme(for: category)
        if categories[category] == nil, let badge = unlock.badge, !badge.isEmpty {
            // A category without a theme of its own (a streak, a first potty outside) shows
            // its achievement's badge, not the fallback's checkmark on every card.
            theme.icon = CelebrationIcon(symbol: theme.icon.symbol, emoji: badge)
        }
        return config(theme: theme, tier: unlock.tier, style: style, accessibility: accessibility, message: message)
    }

    /// The celebration of a savings milestone: seed 002's
    /// `CelebrationFactory.config(for: MilestoneTier)`.
    ///
    /// - Parameters:
    ///   - milestone: The milestone tier, usually ``MilestoneTier/tier(for:)`` of the balance.
    ///   - tier: The tier the unlock earned.
    ///   - style: The user's celebration style.
    ///   - accessibility: The device's accessibility settings.
    ///   - message: A message to show instead of the theme's (personalized by the caller).
    /// - Returns: The config, or `nil` when the style is ``CelebrationStyle/off``.
    public func config(
        milestone: MilestoneTier, tier: CelebrationTier, style: CelebrationStyle = .full,
        accessibility: CelebrationAccessibility = .standard, message: String? = nil
    ) -> CelebrationConfig? {
        config(theme: theme(for: milestone), tier: tier, style: style, accessibility: accessibility, message: message)
    }

    /// The celebration of a theme.
    ///
    /// The style picks the presented tier (subtle lowers 2 to 1 and 3 to 2, minimal presents
    /// everything as tier 1 in the refined style without particles, off shows nothing); the
    /// tier gives the timeline, haptic and sound; Reduce Motion removes the particles and
    /// turns every transition into a fade; high contrast picks the high-contrast colours and
    /// halves the accent's opacity.
    ///
    /// - Parameters:
    ///   - theme: The theme.
    ///   - tier: The tier the unlock earned.
    ///   - style: The user's celebration style.
    ///   - accessibility: The device's accessibility settings.
    ///   - message: A message to show instead of the theme's.
    /// - Returns: The config, or `nil` when the style is ``CelebrationStyle/off``.
    public func config(
        theme: CelebrationTheme, tier: CelebrationTier, style: CelebrationStyle = .full,
        accessibility: CelebrationAccessibility = .standard, message: String? = nil
    ) -> CelebrationConfig? {
        guard let presented = style.presentedTier(for: tier) else { return nil }
        let presentation = presentation(for: presented)
        let contrast = accessibility.highContrast
        let drawsParticles = presentation.showsParticles && !style.ignoresParticles && !accessibility.reduceMotion
        let particles = theme.particles.flatMap { particles in
            drawsParticles
                ? ParticleConfig(
                    type: particles.type, intensity: particles.intensity,
                    colors: particles.colors.map { $0.hex(highContrast: contrast) })
                : nil
        }
        let message = message ?? theme.message
        return CelebrationConfig(
            tier: presented,
            visualStyle: style.ignoresParticles ? .refined : theme.visualStyle,
            particles: particles,
            accentColor: theme.accentColor.hex(highContrast: contrast),
            accentOpacity: contrast ? 0.5 : 1,
            icon: theme.icon,
            message: message,
            duration: theme.duration,
            haptic: presentation.haptic ?? theme.haptic,
            sound: presentation.sound,
            timeline: accessibility.reduceMotion ? presentation.timeline.reducingMotion() : presentation.timeline,
            accessibility: CelebrationConfig.AccessibilityHandling(
                showsParticles: particles != nil, fadeOnly: accessibility.reduceMotion, highContrast: contrast,
                hidesOverlayFromAccessibility: true, announcement: announcement(for: message)))
    }

    /// ``config(category:tier:style:accessibility:message:)-swift.method`` of the ``standard`` catalog.
    ///
    /// - Parameters:
    ///   - category: The goal's category.
    ///   - tier: The tier the unlock earned.
    ///   - style: The user's celebration style.
    ///   - accessibility: The device's accessibility settings.
    ///   - message: A message to show instead of the theme's.
    /// - Returns: The config, or `nil` when the style is ``CelebrationStyle/off``.
    public static func config(
        category: CelebrationCategory, tier: CelebrationTier, style: CelebrationStyle = .full,
        accessibility: CelebrationAccessibility = .standard, message: String? = nil
    ) -> CelebrationConfig? {
        standard.config(category: category, tier: tier, style: style, accessibility: accessibility, message: message)
    }

    /// ``config(milestone:tier:style:accessibility:message:)-swift.method`` of the ``standard`` catalog.
    ///
    /// - Parameters:
    ///   - milestone: The milestone tier.
    ///   - tier: The tier the unlock earned.
    ///   - style: The user's celebration style.
    ///   - accessibility: The device's accessibility settings.
    ///   - message: A message to show instead of the theme's.
    /// - Returns: The config, or `nil` when the style is ``CelebrationStyle/off``.
    public static func config(
        milestone: MilestoneTier, tier: CelebrationTier, style: CelebrationStyle = .full,
        accessibility: CelebrationAccessibility = .standard, message: String? = nil
    ) -> CelebrationConfig? {
        standard.config(milestone: milestone, tier: tier, style: style, accessibility: accessibility, message: message)
    }

    /// What assistive technologies announce for a message: the message without emoji and
    /// with its spaces tidied, or ``defaultAnnouncement`` when nothing is left.
    func announcement(for message: String?) -> String {
        let words = (message ?? "").filter { !$0.isPictographic }.split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? defaultAnnouncement : words.joined(separator: " ")
    }
}

extension Character {
    /// Whether the character is drawn as a picture: an emoji presentation, anything asking for
    /// one (U+FE0F), a keycap or a tag sequence. Text-style symbols such as © and ™ are kept.
    fileprivate var isPictographic: Bool {
        unicodeScalars.contains { scalar in
            scalar.properties.isEmojiPresentation || scalar.value == 0xFE0F || scalar.value == 0x20E3
                || (0xE0020...0xE007F).contains(scalar.value)
        }
    }
}
