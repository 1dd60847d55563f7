import Foundation
import Testing

@testable import MomentumCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Issue 45, item 3: every achievement has a picture composed from a base character, a prop
/// and a backdrop (seed 000's illustration style guide), drawn as SVG the same way every
/// time, in light, dark or both.
@Suite struct IllustrationTests {
    /// The character of each bundled pack.
    static let bases: [String: IllustrationBase] = [
        "habits": .flame, "ollie": .puppy, "savings": .piggyBank, "growth": .sprout,
    ]

    /// Every rule of every bundled pack has a picture of its own, with its pack's character:
    /// a rule added to a pack without one fails here.
    @Test func everyBundledAchievementHasItsPacksCharacterAndAPictureOfItsOwn() throws {
        for name in RulePack.bundledOrder {
            let pack = try #require(RulePack.named(name))
            let base = try #require(Self.bases[name])
            var props: Set<IllustrationProp> = []
            for rule in pack.achievements {
                let art = Illustration(
                    rule: rule.id, category: rule.category, milestoneType: Self.milestoneType(rule.kind), packs: [name])
                #expect(art.base == base, "\(name) rule \(rule.id) draws a \(art.base)")
                if rule.kind == .goalCompleted {
                    // A goal reached is drawn by its goal's category, each with the piggy bank.
                    for category in CelebrationCategory.emotional + CelebrationCategory.standardFallbacks {
                        let goal = Illustration(
                            rule: rule.id, category: category.rawValue, milestoneType: "goal_completed",
                            packs: [name])
                        #expect(goal.base == .piggyBank)
                        props.insert(goal.prop)
                    }
                } else {
                    #expect(Illustration.rulePicks[rule.id] != nil, "\(name) rule \(rule.id) has no picture of its own")
                    if rule.tier >= .notable { props.insert(art.prop) }
                }
            }
            #expect(props.count >= 3, "\(name)'s memories show only \(props.sorted { $0.rawValue < $1.rawValue })")
        }
    }

    /// The pictures the seeds describe: a puppy in a graduation cap when potty trained, a
    /// trophy for a 100-day streak, a stethoscope at the vet, paw prints for a dog met, a
    /// calendar for an anniversary; the category's colour.
    @Test func achievementsGetTheirProps() {
        func art(_ rule: String, _ category: String, _ type: String) -> Illustration {
            Illustration(rule: rule, category: category, milestoneType: type)
        }
        #expect(art("potty-trained", "potty", "streak").prop == .graduationCap)
        #expect(art("commands-5", "commands", "count").prop == .graduationCap)
        #expect(art("streak-milestone", "streaks", "streak").prop == .trophy)
        #expect(art("streak-milestone", "streaks", "streak").base == .flame)
        #expect(art("health-first-vet", "health", "first").prop == .stethoscope)
        #expect(art("social-first-dog", "socialization", "first").prop == .pawPrints)
        #expect(art("gotcha-day", "time", "age").prop == .calendar)
        #expect(art("overnight-first", "lifestyle", "first").backdrop == .night)
        #expect(art("goal-completed", "vacation", "goal_completed").prop == .suitcase)
        #expect(art("journaling-stage", "growth", "stage_reached").prop == .book)
        #expect(art("potty-trained", "potty", "streak").color == ShareCardColor(hex: "#2E9E6B"))
        #expect(art("goal-completed", "vacation", "goal_completed").color == ShareCardColor(hex: "#007AFF"))
        #expect(art("goal-completed", "car", "goal_completed").color == Illustration.color(forCategory: "savings"))
    }

    /// A milestone of the user's own (category `custom`) takes its character from its kind
    /// and the user's packs.
    @Test func ownMilestonesTakeTheirCharacterFromTheUsersPacks() {
        let beach = Illustration(rule: "custom:beach", category: "custom", milestoneType: "moment", packs: ["ollie"])
        #expect(beach.base == .puppy)
        #expect(beach.prop == .heart)
        let run = Illustration(
            rule: "custom:run", category: "custom", milestoneType: "streak", packs: ["habits", "ollie"])
        #expect(run.base == .flame)
        let walks = Illustration(
            rule: "custom:walks", category: "custom", milestoneType: "count", packs: ["habits", "ollie"])
        #expect(walks.base == .puppy)
        #expect(
            Illustration(rule: "custom:x", category: "custom", milestoneType: "moment", packs: ["growth"]).base
                == .sprout)
        #expect(Illustration(rule: "x", category: "unheard-of", milestoneType: "new-kind").prop == .star)
        let memory = Memory(
            unlockID: "potty-trained", rule: "potty-trained", title: "Potty trained!", category: "potty",
            milestoneType: "streak", time: Date(timeIntervalSince1970: 0), offsetSeconds: 0,
            day: LocalDay(year: 2026, month: 2, day: 27)!, caption: "")
        #expect(
            Illustration(memory: memory)
                == Illustration(rule: "potty-trained", category: "potty", milestoneType: "streak"))
    }

    /// Every combination of parts, in every appearance, is a well-formed SVG document of
    /// shapes only (no text, script, id or external reference), the same bytes every time.
    @Test(arguments: IllustrationAppearance.allCases)
    func everyCombinationIsWellFormedDeterministicSVG(appearance: IllustrationAppearance) {
        for base in IllustrationBase.allCases {
            for prop in IllustrationProp.allCases {
                for backdrop in IllustrationBackdrop.allCases {
                    let art = Illustration(
                        base: base, prop: prop, backdrop: backdrop, color: Illustration.color(forCategory: "potty"))
                    let svg = IllustrationRenderer.svg(art, appearance: appearance)
                    #expect(svg == IllustrationRenderer.svg(art, appearance: appearance))
                    #expect(Self.isWellFormedXML(svg), "\(base) \(prop) \(backdrop) \(appearance)")
                    for forbidden in ["<text", "<script", " id=", "href", "NaN", "inf"] {
                        #expect(!svg.contains(forbidden), "\(base) \(prop) \(backdrop) has \(forbidden)")
                    }
                    #expect(svg.contains(#"viewBox="0 0 200 200""#))
                    switch appearance {
                    case .adaptive:
                        #expect(svg.contains("@media (prefers-color-scheme: dark){"))
                        #expect(!svg.contains(" fill=\"#"))
                    case .light, .dark:
                        #expect(!svg.contains("class=") && !svg.contains("<style"))
                    }
                }
            }
        }
    }

    /// The dark scheme draws the backdrop dark and the character as it is; the adaptive
    /// document holds both.
    @Test func darkBackdropsAreDarkAndCharactersKeepTheirColours() throws {
        let art = Illustration(rule: "potty-trained", category: "potty", milestoneType: "streak")
        let light = IllustrationRenderer.svg(art, appearance: .light)
        let dark = IllustrationRenderer.svg(art, appearance: .dark)
        let lightSky = IllustrationInk.sky.color(for: art.color, dark: false)
        let darkSky = IllustrationInk.sky.color(for: art.color, dark: true)
        #expect(lightSky.relativeLuminance > 0.7)
        #expect(darkSky.relativeLuminance < 0.05)
        #expect(light.contains(lightSky.hex) && !light.contains(darkSky.hex))
        #expect(dark.contains(darkSky.hex))
        let fur = IllustrationInk.fur.color(for: art.color, dark: false).hex
        #expect(light.contains(fur) && dark.contains(fur))
        let adaptive = IllustrationRenderer.svg(art, appearance: .adaptive)
        #expect(adaptive.contains(".f-sky{fill:\(lightSky.hex)}"))
        #expect(adaptive.contains(".f-sky{fill:\(darkSky.hex)}"))
        let titled = IllustrationRenderer.svg(art, size: 96, title: "A puppy in a graduation cap & gown")
        #expect(titled.contains(#"width="96" height="96""#))
        #expect(
            titled.contains(#"role="img""#) && titled.contains("<title>A puppy in a graduation cap &amp; gown</title>"))
        #expect(adaptive.contains(#"aria-hidden="true""#))
    }

    /// A share card without a photo draws the illustration in the photo's place, clipped to
    /// its rounded corners; a photo still wins; the layout keeps it through JSON.
    @Test(arguments: ShareCardFormat.allCases)
    func aShareCardWithoutAPhotoDrawsItsIllustration(format: ShareCardFormat) throws {
        let art = Illustration(rule: "potty-trained", category: "potty", milestoneType: "streak")
        var content = ShareCardTests.ollie()
        content.illustration = art
        let layout = ShareCardLayout(content: content, format: format)
        #expect(layout.photo.content == .illustration(art))
        #expect(layout.photo.isPlaceholder)
        let svg = ShareCardRenderer.svg(layout)
        let fur = IllustrationInk.fur.color(for: art.color, dark: false).hex
        #expect(svg.contains(#"<g clip-path="url(#momentum-card-photo-clip)">"#))
        #expect(svg.contains(fur))
        #expect(ShareCardTests.isWellFormedXML(svg))
        #expect(svg == ShareCardRenderer.svg(ShareCardLayout(content: content, format: format)))
        let decoded = try JSONDecoder().decode(ShareCardLayout.self, from: JSONEncoder().encode(layout))
        #expect(decoded == layout)
        let contentJSON = try JSONEncoder().encode(content)
        #expect(try JSONDecoder().decode(ShareCardContent.self, from: contentJSON) == content)

        content.photo = ShareCardTests.tinyPNG
        let photographed = ShareCardRenderer.svg(ShareCardLayout(content: content, format: format))
        #expect(photographed.contains("<image") && !photographed.contains(fur))
    }

    static func milestoneType(_ kind: AchievementRule.Kind) -> String {
        switch kind {
        case .first: "first"
        case .count, .distinctCount: "count"
        case .streak: "streak"
        case .personalBest: "streak_record"
        case .recovery: "recovery"
        case .setCompleted: "set_completed"
        case .amount: "amount"
        case .goalCompleted: "goal_completed"
        case .stageReached: "stage_reached"
        case .age, .combination: "age"
        case .consistency: "consistency"
        case .moment: "moment"
        }
    }

    static func isWellFormedXML(_ text: String) -> Bool {
        XMLParser(data: Data(text.utf8)).parse()
    }
}
