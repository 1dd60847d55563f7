import Foundation
import MomentumCore
import Testing

/// Celebration configs built from seed 002's tables and seed 000's tiers.
@Suite struct CelebrationConfigTests {
    let catalog = CelebrationCatalog.standard

    /// A full-style, tier-3 config of a category with no accessibility settings.
    func major(_ category: CelebrationCategory) throws -> CelebrationConfig {
        try #require(catalog.config(category: category, tier: .major))
    }

    // MARK: Seed 002's ten CelebrationFactoryTests

    @Test func vacationConfigHasConfettiParticles() throws {
        let config = try major(.vacation)
        #expect(
            config.particles
                == ParticleConfig(type: .confetti, intensity: .medium, colors: ["#007AFF", "#32ADE6", "#FFCC00"]))
        #expect(config.icon == CelebrationIcon(symbol: "airplane", emoji: "✈️"))
        #expect(config.message == "Bon voyage! 🏖️")
        #expect(config.duration == 2.0)
        #expect(config.haptic == .achievement)
        #expect(config.accentColor == "#007AFF")
    }

    @Test func weddingConfigHasHeartsParticles() throws {
        let config = try major(.wedding)
        #expect(
            config.particles
                == ParticleConfig(type: .hearts, intensity: .medium, colors: ["#FF2D55", "#FF6F91", "#D4AF37"]))
        #expect(config.icon.symbol == "heart.fill")
        #expect(config.message == "Congratulations! 💍")
    }

    @Test func houseConfigHasSparkleParticles() throws {
        let config = try major(.house)
        #expect(config.particles == ParticleConfig(type: .sparkle, intensity: .medium, colors: ["#34C759", "#D4AF37"]))
        #expect(config.icon.symbol == "house.fill")
        #expect(config.message == "Welcome home! 🏠")
    }

    @Test func retirementConfigHasStarsParticles() throws {
        let config = try major(.retirement)
        #expect(config.particles == ParticleConfig(type: .stars, intensity: .medium, colors: ["#D4AF37", "#CD7F32"]))
        #expect(config.icon.symbol == "star.fill")
        #expect(config.message == "Enjoy your freedom! 🌟")
    }

    @Test func educationConfigHasSparkleParticles() throws {
        let config = try major(.education)
        #expect(config.particles == ParticleConfig(type: .sparkle, intensity: .medium, colors: ["#AF52DE", "#007AFF"]))
        #expect(config.icon.symbol == "graduationcap.fill")
        #expect(config.message == "Knowledge achieved! 🎓")
    }

    @Test func carConfigUsesRefinedFallback() throws {
        let config = try major(.car)
        #expect(config.visualStyle == .refined)
        #expect(config.particles == nil)
        #expect(config.message == nil)
        #expect(config.duration == 2.0)
        #expect(config.haptic == .achievement)
        #expect(config.accessibility.announcement == "Goal complete")
    }

    @Test func smallMilestoneTierAt1000() {
        #expect(MilestoneTier.tier(for: 1000) == .small)
    }

    @Test func mediumMilestoneTierAt5000() {
        #expect(MilestoneTier.tier(for: 5000) == .medium)
    }

    @Test func largeMilestoneTierAt25000() {
        #expect(MilestoneTier.tier(for: 25000) == .large)
    }

    @Test func epicMilestoneTierAt100000() {
        #expect(MilestoneTier.tier(for: 100_000) == .epic)
    }

    // MARK: Seed 002's tables

    @Test func everyEmotionalCategoryHasItsOwnJoyfulTheme() {
        #expect(CelebrationCategory.emotional == [.vacation, .house, .wedding, .retirement, .education])
        for category in CelebrationCategory.emotional {
            let theme = catalog.theme(for: category)
            #expect(theme.visualStyle == .joyful)
            #expect(theme.particles?.intensity == .medium)
            #expect(theme != catalog.fallback)
        }
        #expect(catalog.theme(for: .wedding).particles?.colors.map(\.name) == ["pink", "rose", "gold"])
        #expect(catalog.theme(for: .retirement).particles?.colors.map(\.name) == ["gold", "bronze"])
        #expect(catalog.theme(for: .vacation).particles?.colors.map(\.name) == ["blue", "cyan", "yellow"])
        #expect(catalog.theme(for: .house).particles?.colors.map(\.name) == ["green", "gold"])
        #expect(catalog.theme(for: .education).particles?.colors.map(\.name) == ["purple", "blue"])
    }

    @Test func everyStandardCategoryUsesRefinedFallbackWithoutParticles() throws {
        #expect(CelebrationCategory.standardFallbacks == [.car, .investment, .emergency, .other])
        for category in CelebrationCategory.standardFallbacks {
            let config = try major(category)
            #expect(config.visualStyle == .refined)
            #expect(config.particles == nil)
            #expect(!config.accessibility.showsParticles)
        }
        #expect(try major(.investment).icon.symbol == "chart.line.uptrend.xyaxis")
    }

    @Test func unknownCategoryGetsTheFallback() throws {
        let config = try major("potty_outdoor")
        #expect(config.visualStyle == .refined)
        #expect(config.particles == nil)
        #expect(config.icon == CelebrationIcon(symbol: "checkmark.circle.fill", emoji: "✅"))
    }

    @Test(arguments: [
        (MilestoneTier.small, ParticleIntensity.light, 1.5, "First milestone! ✨"),
        (.medium, .medium, 2.0, "Growing strong! 💪"),
        (.large, .medium, 2.0, "Quarter century! 🌟"),
        (.epic, .epic, 3.0, "Incredible savings! 🏆"),
    ])
    func milestonesUseGoldCoinsScaledByTier(
        milestone: MilestoneTier, intensity: ParticleIntensity, duration: Double, message: String
    ) throws {
        let config = try #require(catalog.config(milestone: milestone, tier: .major))
        #expect(
            config.particles
                == ParticleConfig(type: .coins, intensity: intensity, colors: ["#D4AF37", "#FFBF00", "#FFCC00"]))
        #expect(config.duration == duration)
        #expect(config.message == message)
        #expect(config.accentColor == "#D4AF37")
    }

    @Test(arguments: [
        (0.0, MilestoneTier.small), (999.99, .small), (1000, .small), (4999.99, .small),
        (5000, .medium), (10000, .medium), (24999.99, .medium),
        (25000, .large), (49999.99, .large),
        (50000, .epic), (100_000, .epic), (1_000_000, .epic), (.infinity, .epic),
    ])
    func milestoneTierBoundaries(amount: Double, tier: MilestoneTier) {
        #expect(MilestoneTier.tier(for: amount) == tier)
    }

    @Test func notANumberIsASmallMilestone() {
        #expect(MilestoneTier.tier(for: .nan) == .small)
    }

    // MARK: Styles

    @Test func fullStyleKeepsEveryTier() {
        for tier in CelebrationTier.allCases {
            #expect(CelebrationStyle.full.presentedTier(for: tier) == tier)
            #expect(catalog.config(category: .vacation, tier: tier, style: .full)?.tier == tier)
        }
    }

    @Test func subtleStyleLowersTierTwoToOneAndThreeToTwo() throws {
        #expect(CelebrationStyle.subtle.presentedTier(for: .acknowledgment) == .acknowledgment)
        #expect(CelebrationStyle.subtle.presentedTier(for: .notable) == .acknowledgment)
        #expect(CelebrationStyle.subtle.presentedTier(for: .major) == .notable)
        let config = try #require(catalog.config(category: .vacation, tier: .major, style: .subtle))
        #expect(config.tier == .notable)
        #expect(config.timeline == .notable)
        #expect(config.particles?.type == .confetti)
        #expect(config.sound == nil)
    }

    @Test func minimalStyleMakesEverythingTierOneRefinedWithoutParticles() throws {
        for tier in CelebrationTier.allCases {
            let config = try #require(catalog.config(category: .wedding, tier: tier, style: .minimal))
            #expect(config.tier == .acknowledgment)
            #expect(config.visualStyle == .refined)
            #expect(config.particles == nil)
            #expect(!config.accessibility.showsParticles)
            #expect(config.timeline == .acknowledgment)
            #expect(config.message == "Congratulations! 💍")
        }
        #expect(CelebrationStyle.minimal.ignoresParticles)
    }

    @Test func offStyleShowsNoCelebration() {
        for tier in CelebrationTier.allCases {
            #expect(CelebrationStyle.off.presentedTier(for: tier) == nil)
            #expect(catalog.config(category: .vacation, tier: tier, style: .off) == nil)
            #expect(catalog.config(milestone: .epic, tier: tier, style: .off) == nil)
        }
    }

    @Test func staticFactoryUsesTheStandardCatalog() {
        #expect(
            CelebrationCatalog.config(category: .house, tier: .notable, style: .subtle)
                == catalog.config(category: .house, tier: .notable, style: .subtle))
        #expect(
            CelebrationCatalog.config(milestone: .small, tier: .notable)
                == catalog.config(milestone: .small, tier: .notable))
    }

    // MARK: Tiers

    @Test func tierOneIsInlineWithoutParticlesAndWithALightHaptic() throws {
        let config = try #require(catalog.config(category: .vacation, tier: .acknowledgment))
        #expect(config.particles == nil)
        #expect(config.haptic == .light)
        #expect(config.sound == nil)
        #expect(config.visualStyle == .joyful)
    }

    @Test func tierThreePlaysAFanfare() throws {
        #expect(try major(.vacation).sound == .fanfare)
        #expect(catalog.config(category: .vacation, tier: .notable)?.sound == nil)
    }

    @Test func tiersAreNumberedOneToThreeAndOrdered() {
        #expect(CelebrationTier.allCases.map(\.rawValue) == [1, 2, 3])
        #expect(CelebrationTier.acknowledgment < .notable && CelebrationTier.notable < .major)
    }

    // MARK: Timelines

    @Test func tierOneTimelineIsOneMicroSpring() {
        let timeline = AnimationTimeline.standard(for: .acknowledgment)
        #expect(timeline.phases == [AnimationPhase(.micro, start: 0, duration: 0.4, motion: .spring)])
        #expect((0.3...0.5).contains(timeline.totalDuration))
        #expect(timeline.totalDuration == 0.4)
    }

    @Test func tierTwoTimelineIsEntryConfettiDismissal() {
        let timeline = AnimationTimeline.standard(for: .notable)
        #expect(timeline.phases.map(\.kind) == [.entry, .confetti, .dismissal])
        #expect(timeline.phases.map(\.duration) == [0.4, 1.5, 0.3])
        #expect(timeline.phases.map(\.start) == [0, 0.4, 1.9])
        #expect(timeline.phases.map(\.motion) == [.slideUpSpring, .particleBurst, .fade])
        #expect(timeline.totalDuration == 2.2)
    }

    @Test func tierThreeTimelineBuildsRevealsCelebratesAndSettlesInAboutFiveSeconds() {
        let timeline = AnimationTimeline.standard(for: .major)
        #expect(timeline.phases.map(\.kind) == [.buildUp, .reveal, .confetti, .settle])
        #expect(timeline.phases.map(\.duration) == [0.5, 0.8, 3, 0.5])
        #expect(timeline.phases.map(\.start) == [0, 0.5, 1.3, 4.3])
        #expect(timeline.phases.map(\.motion) == [.fade, .scaleBounce, .particleMultiBurst, .fade])
        #expect(timeline.totalDuration == 4.8)
    }

    @Test func phasesOfEveryTimelineFollowOneAnother() {
        for tier in CelebrationTier.allCases {
            let phases = AnimationTimeline.standard(for: tier).phases
            #expect(phases.first?.start == 0)
            for (previous, next) in zip(phases, phases.dropFirst()) {
                #expect(previous.end == next.start)
            }
        }
    }

    // MARK: Accessibility

    @Test func reduceMotionRemovesParticlesAndFadesOnly() throws {
        let settings = CelebrationAccessibility(reduceMotion: true)
        let config = try #require(catalog.config(category: .vacation, tier: .major, accessibility: settings))
        #expect(config.particles == nil)
        #expect(!config.accessibility.showsParticles)
        #expect(config.accessibility.fadeOnly)
        #expect(config.timeline.isFadeOnly)
        #expect(config.timeline.phases.map(\.motion) == [.fade, .fade, .hold, .fade])
        #expect(config.timeline.phases.map(\.duration) == [0.5, 0.8, 3, 0.5])
        #expect(config.timeline.totalDuration == 4.8)
        #expect(config.message == "Bon voyage! 🏖️")
        #expect(!AnimationTimeline.major.isFadeOnly)
    }

    @Test func reduceMotionFadesEveryTier() throws {
        let settings = CelebrationAccessibility(reduceMotion: true)
        for tier in CelebrationTier.allCases {
            let config = try #require(catalog.config(milestone: .epic, tier: tier, accessibility: settings))
            #expect(config.timeline.isFadeOnly)
            #expect(config.timeline.totalDuration == AnimationTimeline.standard(for: tier).totalDuration)
            #expect(config.particles == nil)
        }
    }

    @Test func highContrastUsesTheHighContrastColoursAndHalvesTheAccent() throws {
        let settings = CelebrationAccessibility(highContrast: true)
        let config = try #require(catalog.config(category: .vacation, tier: .notable, accessibility: settings))
        #expect(config.particles?.colors == ["#0040DD", "#0071A4", "#A05A00"])
        #expect(config.accentColor == "#0040DD")
        #expect(config.accentOpacity == 0.5)
        #expect(config.accessibility.highContrast)
        let normal = try #require(catalog.config(category: .vacation, tier: .notable))
        #expect(normal.accentOpacity == 1)
        #expect(!normal.accessibility.highContrast)
    }

    @Test func overlaysAreHiddenFromVoiceOverWhileTheMessageIsAnnouncedWithoutEmoji() throws {
        for category in CelebrationCategory.emotional + CelebrationCategory.standardFallbacks {
            #expect(try major(category).accessibility.hidesOverlayFromAccessibility)
        }
        #expect(try major(.vacation).accessibility.announcement == "Bon voyage!")
        #expect(try major(.education).accessibility.announcement == "Knowledge achieved!")
        let epic = try #require(catalog.config(milestone: .epic, tier: .major))
        #expect(epic.accessibility.announcement == "Incredible savings!")
    }

    @Test func callerMessageReplacesTheThemeMessage() throws {
        let config = try #require(
            catalog.config(category: .vacation, tier: .notable, message: "Looks like you reached Lisbon last week! ✈️"))
        #expect(config.message == "Looks like you reached Lisbon last week! ✈️")
        #expect(config.accessibility.announcement == "Looks like you reached Lisbon last week!")
    }

    // MARK: Data

    @Test func catalogSurvivesAJSONRoundTrip() throws {
        let data = try MomentumJSON.encoder().encode(catalog)
        let decoded = try MomentumJSON.decoder().decode(CelebrationCatalog.self, from: data)
        #expect(decoded == catalog)
        #expect(decoded.config(category: .wedding, tier: .major) == catalog.config(category: .wedding, tier: .major))
    }

    @Test func configSurvivesAJSONRoundTrip() throws {
        let config = try major(.retirement)
        let data = try MomentumJSON.encoder().encode(config)
        #expect(try MomentumJSON.decoder().decode(CelebrationConfig.self, from: data) == config)
    }

    @Test func aRulePackCanDeclareItsOwnCatalogInJSON() throws {
        let json = """
            {
              "categories": {
                "potty_outdoor": {
                  "visualStyle": "joyful",
                  "particles": {
                    "type": "stars", "intensity": "epic",
                    "colors": [{ "name": "grass", "hex": "#00AA00", "highContrastHex": "#005500" }]
                  },
                  "accentColor": { "name": "grass", "hex": "#00AA00", "highContrastHex": "#005500" },
                  "icon": { "symbol": "pawprint.fill", "emoji": "🐾" },
                  "message": "Potty trained!",
                  "duration": 4,
                  "haptic": "achievement"
                }
              },
              "fallback": {
                "visualStyle": "refined",
                "accentColor": { "name": "blue", "hex": "#007AFF", "highContrastHex": "#0040DD" },
                "icon": { "symbol": "checkmark.circle.fill", "emoji": "✅" },
                "duration": 2,
                "haptic": "achievement"
              },
              "milestones": {},
              "tiers": {
                "3": {
                  "timeline": { "phases": [{ "kind": "reveal", "start": 0, "duration": 1, "motion": "scaleBounce" }] },
                  "showsParticles": true,
                  "sound": "chime"
                }
              },
              "defaultAnnouncement": "Well done"
            }
            """
        let pack = try MomentumJSON.decoder().decode(CelebrationCatalog.self, from: Data(json.utf8))
        let config = try #require(pack.config(category: "potty_outdoor", tier: .major))
        #expect(config.particles == ParticleConfig(type: .stars, intensity: .epic, colors: ["#00AA00"]))
        #expect(config.icon.emoji == "🐾")
        #expect(config.duration == 4)
        #expect(config.sound == .chime)
        #expect(config.timeline.totalDuration == 1)
        let card = try #require(pack.config(category: "potty_outdoor", tier: .notable))
        #expect(card.timeline == .notable)
        #expect(pack.config(milestone: .epic, tier: .major)?.accessibility.announcement == "Well done")
    }

    /// What the savings pack's unlocks celebrate with, as the planner asks for them: a
    /// goal reached by its goal's category, an amount milestone with the coins of its
    /// amount, anything else by its category or the refined fallback.
    @Test func unlocksOfTheSavingsPackCelebrateByGoalCategoryAndAmount() throws {
        var achievements = AchievementEngine(rules: RulePack.savings.achievements)
        var events: [Event] = []
        for (index, goal) in [
            ("bali", "vacation", 2_000.0), ("ring", "wedding", 1_500.0), ("nest", "retirement", 60_000.0),
        ]
        .enumerated() {
            events.append(
                Event(
                    id: "g\(index)", at: Date(timeIntervalSince1970: 1_780_000_000 + Double(index)), timeZone: "UTC",
                    payload: .goal(SavingsGoal(id: goal.0, name: goal.0.capitalized, category: goal.1, target: goal.2)))
            )
        }
        for (index, contribution) in [("bali", 2_000.0), ("ring", 1_500.0), ("nest", 60_000.0)].enumerated() {
            events.append(
                Event(
                    id: "c\(index)", at: Date(timeIntervalSince1970: 1_780_000_100 + Double(index)), timeZone: "UTC",
                    payload: .contribution(goal: contribution.0, amount: contribution.1, day: nil, note: nil)))
        }
        let unlocks = events.flatMap {
            achievements.process($0, detectedAt: Date(timeIntervalSince1970: 1_780_000_200))
        }
        func particles(_ rule: String, _ id: String? = nil) throws -> ParticleConfig? {
            let unlock = try #require(unlocks.first { $0.rule == rule && (id == nil || $0.id == id) }, "\(rule)")
            return try #require(catalog.config(for: unlock)).particles
        }
        #expect(try particles("goal-completed", "goal-completed#bali")?.type == .confetti)
        #expect(try particles("goal-completed", "goal-completed#ring")?.type == .hearts)
        #expect(try particles("goal-completed", "goal-completed#nest")?.type == .stars)
        #expect(
            try particles("savings-small")
                == ParticleConfig(type: .coins, intensity: .light, colors: ["#D4AF37", "#FFBF00", "#FFCC00"]))
        #expect(try particles("savings-epic", "savings-epic#50000")?.intensity == .epic)
        #expect(try particles("savings-large")?.type == .coins)
        // The first contribution is a tier 1 acknowledgment: no particles, its badge as the
        // emblem (its category has no theme of its own), the goal named.
        #expect(try particles("first-contribution") == nil)
        let first = try #require(unlocks.first { $0.rule == "first-contribution" })
        #expect(first.title == "First contribution to Bali")
        #expect(catalog.config(for: first)?.icon.emoji == "🪙")
        let bali = try #require(unlocks.first { $0.id == "goal-completed#bali" })
        #expect(catalog.config(for: bali)?.icon.emoji == "✈️")
    }
}
