extension CelebrationCatalog {
    /// Seed 002's celebrations (the `savings` pack) with seed 000's tiers.
    ///
    /// From the seed, verbatim: each emotional category's particle type, intensity, colours,
    /// SF Symbol and message; the refined style of the standard categories (car, investment,
    /// emergency, other); the milestones' coins in gold, amber and yellow with their
    /// intensities, durations (1.5 / 2.0 / 2.0 / 3.0 s) and messages; and, where the tables
    /// are silent, the defaults of the seed's `CelebrationView`: 2.0 s and the achievement
    /// haptic.
    ///
    /// Momentum's choices, where the seed says nothing:
    /// - the hex values of the named colours (see ``CelebrationColor``);
    /// - each theme's accent colour: its first particle colour, and system blue (the iOS
    ///   default tint) for the refined fallbacks;
    /// - the emoji fallback of each icon, matching the SF Symbol (✈️ for `airplane`);
    /// - the joyful visual style for the emotional categories and the milestones;
    /// - the SF Symbols of the standard categories (`car.fill`, `chart.line.uptrend.xyaxis`,
    ///   `cross.case.fill`, `checkmark.circle.fill`) and of the milestones (`sparkles`,
    ///   `figure.strengthtraining.traditional`, `star.circle.fill`, `trophy.fill`, matching
    ///   their messages' emoji);
    /// - the announcement "Goal complete" for celebrations without a message.
    public static let standard = CelebrationCatalog(
        categories: [
            .vacation: CelebrationTheme(
                visualStyle: .joyful,
                particles: .init(type: .confetti, intensity: .medium, colors: [.blue, .cyan, .yellow]),
                accentColor: .blue, icon: CelebrationIcon(symbol: "airplane", emoji: "✈️"),
                message: "Bon voyage! 🏖️"),
            .house: CelebrationTheme(
                visualStyle: .joyful,
                particles: .init(type: .sparkle, intensity: .medium, colors: [.green, .gold]),
                accentColor: .green, icon: CelebrationIcon(symbol: "house.fill", emoji: "🏠"),
                message: "Welcome home! 🏠"),
            .wedding: CelebrationTheme(
                visualStyle: .joyful,
                particles: .init(type: .hearts, intensity: .medium, colors: [.pink, .rose, .gold]),
                accentColor: .pink, icon: CelebrationIcon(symbol: "heart.fill", emoji: "❤️"),
                message: "Congratulations! 💍"),
            .retirement: CelebrationTheme(
                visualStyle: .joyful,
                particles: .init(type: .stars, intensity: .medium, colors: [.gold, .bronze]),
                accentColor: .gold, icon: CelebrationIcon(symbol: "star.fill", emoji: "⭐"),
                message: "Enjoy your freedom! 🌟"),
            .education: CelebrationTheme(
                visualStyle: .joyful,
                particles: .init(type: .sparkle, intensity: .medium, colors: [.purple, .blue]),
                accentColor: .purple, icon: CelebrationIcon(symbol: "graduationcap.fill", emoji: "🎓"),
                message: "Knowledge achieved! 🎓"),
            .car: refined(symbol: "car.fill", emoji: "🚗"),
            .investment: refined(symbol: "chart.line.uptrend.xyaxis", emoji: "📈"),
            .emergency: refined(symbol: "cross.case.fill", emoji: "🩹"),
            .other: refined(symbol: "checkmark.circle.fill", emoji: "✅"),
        ],
        fallback: refined(symbol: "checkmark.circle.fill", emoji: "✅"),
        milestones: [
            .small: coins(.light, duration: 1.5, "First milestone! ✨", symbol: "sparkles", emoji: "✨"),
            .medium: coins(
                .medium, duration: 2.0, "Growing strong! 💪", symbol: "figure.strengthtraining.traditional", emoji: "💪"),
            .large: coins(.medium, duration: 2.0, "Quarter century! 🌟", symbol: "star.circle.fill", emoji: "🌟"),
            .epic: coins(.epic, duration: 3.0, "Incredible savings! 🏆", symbol: "trophy.fill", emoji: "🏆"),
        ],
        tiers: standardTiers,
        defaultAnnouncement: "Goal complete")

    /// Seed 002's refined fallback: no particles, no message, the `CelebrationView` defaults.
    private static func refined(symbol: String, emoji: String) -> CelebrationTheme {
        CelebrationTheme(visualStyle: .refined, accentColor: .blue, icon: CelebrationIcon(symbol: symbol, emoji: emoji))
    }

    /// A seed 002 milestone: coins in gold, amber and yellow.
    private static func coins(
        _ intensity: ParticleIntensity, duration: Double, _ message: String, symbol: String, emoji: String
    ) -> CelebrationTheme {
        CelebrationTheme(
            visualStyle: .joyful,
            particles: .init(type: .coins, intensity: intensity, colors: [.gold, .amber, .yellow]),
            accentColor: .gold, icon: CelebrationIcon(symbol: symbol, emoji: emoji), message: message,
            duration: duration)
    }
}
