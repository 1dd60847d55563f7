extension Illustration {
    /// The illustration of an achievement, from its rule, category and milestone type.
    ///
    /// The character follows the category (the puppy for seed 000's categories, the flame
    /// for streaks and consistency, the piggy bank for savings and every goal category, the
    /// sprout for growth). The prop and backdrop follow the rule for the bundled packs'
    /// rules (a graduation cap for commands and for potty trained, a trophy for the big
    /// streak milestones, a stethoscope for the vet, a calendar for anniversaries), then the
    /// category, then the milestone type. A category no pack knows (a milestone of the
    /// user's own is `custom`) takes its character from the milestone type and the packs
    /// the user has.
    ///
    /// - Parameters:
    ///   - rule: The rule that fired (`potty-trained`).
    ///   - category: The achievement's category (`potty`, `vacation`, `custom`).
    ///   - milestoneType: The milestone's type (`streak`, `first`, `goal_completed`).
    ///   - packs: The names of the user's packs (`["habits", "ollie"]`), for a category no
    ///     pack knows.
    public init(rule: String, category: String, milestoneType: String, packs: [String] = []) {
        let pick: Pick
        if milestoneType == "goal_completed" || rule == "goal-completed" {
            pick = Self.goalPicks[category] ?? Pick(.flag, .confetti)
        } else {
            pick =
                Self.rulePicks[rule] ?? Self.categoryPicks[category] ?? Self.typePicks[milestoneType]
                ?? Pick(.star, .sparkles)
        }
        self.init(
            base: pick.base ?? Self.base(category: category, milestoneType: milestoneType, packs: packs),
            prop: pick.prop, backdrop: pick.backdrop, color: Self.color(forCategory: category))
    }

    /// The illustration of a memory (see ``init(rule:category:milestoneType:packs:)``).
    ///
    /// - Parameters:
    ///   - memory: The memory.
    ///   - packs: The names of the user's packs.
    public init(memory: Memory, packs: [String] = []) {
        self.init(rule: memory.rule, category: memory.category, milestoneType: memory.milestoneType, packs: packs)
    }

    /// The colour of an achievement category, which its illustrations and share cards
    /// take: seed 000's semantic colour for each of its categories and for the other
    /// bundled packs' (potty green, commands purple, health teal, streaks orange, savings
    /// gold, …), seed 002's theme colour for an emotional goal category (vacation blue,
    /// wedding pink), savings gold for the other goal categories, and the celebration
    /// catalog's fallback blue for a category no pack knows.
    ///
    /// - Parameter category: The category (`potty`, `vacation`).
    /// - Returns: Its colour.
    public static func color(forCategory category: String) -> ShareCardColor {
        if let hex = categoryColors[category], let color = ShareCardColor(hex: hex) { return color }
        let celebration = CelebrationCategory(category)
        if CelebrationCategory.standardFallbacks.contains(celebration), let gold = ShareCardColor(hex: savingsGold) {
            return gold
        }
        let theme = CelebrationCatalog.standard.theme(for: celebration)
        return ShareCardColor(hex: theme.accentColor.hex) ?? ShareCardColor(red: 0, green: 122, blue: 255)
    }

    /// Whether a category is one of seed 002's goal categories (`vacation`, `car`, …).
    static func isGoalCategory(_ category: String) -> Bool {
        let celebration = CelebrationCategory(category)
        return CelebrationCategory.emotional.contains(celebration)
            || CelebrationCategory.standardFallbacks.contains(celebration)
    }

    private static let savingsGold = "#D08C00"

    private static let categoryColors: [String: String] = [
        "potty": "#2E9E6B", "commands": "#7B5CD6", "socialization": "#EE7F1B", "health": "#128E92",
        "lifestyle": "#2D8FD5", "time": "#E0508F", "streaks": "#EF6A1A", "consistency": "#3D74E8",
        "savings": savingsGold, "growth": "#45A046", "custom": "#5E5CE6",
    ]

    private static func base(category: String, milestoneType: String, packs: [String]) -> IllustrationBase {
        switch category {
        case "potty", "commands", "socialization", "health", "lifestyle", "time": return .puppy
        case "streaks", "consistency": return .flame
        case "savings": return .piggyBank
        case "growth": return .sprout
        default: break
        }
        if isGoalCategory(category) { return .piggyBank }
        let has = Set(packs)
        if ["streak", "streak_record", "recovery", "consistency"].contains(milestoneType), has.contains("habits") {
            return .flame
        }
        if ["amount", "goal_completed"].contains(milestoneType), has.contains("savings") { return .piggyBank }
        if milestoneType == "stage_reached", has.contains("growth") { return .sprout }
        if has.contains("ollie") { return .puppy }
        for pack in packs {
            switch pack {
            case "habits": return .flame
            case "savings": return .piggyBank
            case "growth": return .sprout
            default: continue
            }
        }
        return .puppy
    }

    /// A prop and a backdrop, and the character where the category does not decide it.
    struct Pick: Hashable, Sendable {
        var prop: IllustrationProp
        var backdrop: IllustrationBackdrop
        var base: IllustrationBase?

        init(_ prop: IllustrationProp, _ backdrop: IllustrationBackdrop, base: IllustrationBase? = nil) {
            self.prop = prop
            self.backdrop = backdrop
            self.base = base
        }
    }

    /// The bundled packs' rules, each with its own picture.
    static let rulePicks: [String: Pick] = [
        // habits
        "first-check-in": Pick(.flag, .sparkles), "streak-7": Pick(.medal, .sparkles),
        "streak-milestone": Pick(.trophy, .confetti), "personal-best": Pick(.star, .sparkles),
        "back-on-track": Pick(.heart, .sparkles), "perfect-week": Pick(.calendar, .sparkles),
        "hard-habit": Pick(.trophy, .peaks),
        // ollie
        "potty-first-outdoor": Pick(.flag, .outdoors), "potty-streak-day": Pick(.medal, .outdoors),
        "potty-streak-3": Pick(.medal, .outdoors), "potty-streak-7": Pick(.medal, .outdoors),
        "potty-trained": Pick(.graduationCap, .confetti), "potty-record": Pick(.star, .outdoors),
        "potty-recovery": Pick(.heart, .outdoors),
        "command-first": Pick(.graduationCap, .sparkles), "command-each": Pick(.graduationCap, .sparkles),
        "commands-5": Pick(.graduationCap, .sparkles), "commands-10": Pick(.graduationCap, .confetti),
        "social-first-dog": Pick(.pawPrints, .outdoors), "social-dogs-10": Pick(.pawPrints, .outdoors),
        "social-items": Pick(.pawPrints, .outdoors), "social-vehicles": Pick(.pawPrints, .outdoors),
        "social-surfaces": Pick(.pawPrints, .outdoors), "social-window": Pick(.pawPrints, .confetti),
        "health-first-vaccination": Pick(.stethoscope, .sparkles), "health-vaccinations": Pick(.shield, .confetti),
        "health-first-vet": Pick(.stethoscope, .sparkles), "health-weight": Pick(.stethoscope, .sparkles),
        "walk-first": Pick(.pawPrints, .outdoors), "walks": Pick(.medal, .outdoors),
        "overnight-first": Pick(.tent, .night), "complete-logs": Pick(.calendar, .sparkles, base: .puppy),
        "weeks-old": Pick(.partyHat, .sparkles), "month-birthday": Pick(.partyHat, .confetti),
        "first-birthday": Pick(.cake, .confetti), "gotcha-day": Pick(.calendar, .confetti),
        // savings
        "first-contribution": Pick(.coins, .sparkles), "savings-small": Pick(.coins, .sparkles),
        "savings-medium": Pick(.coins, .sparkles), "savings-large": Pick(.star, .sparkles),
        "savings-epic": Pick(.trophy, .confetti),
        // growth
        "meditation-stage": Pick(.lotus, .sparkles), "meditation-master": Pick(.trophy, .peaks),
        "journaling-stage": Pick(.book, .sparkles), "journaling-final": Pick(.book, .confetti),
    ]

    /// A goal reached, by the goal's category.
    static let goalPicks: [String: Pick] = [
        "vacation": Pick(.suitcase, .outdoors), "house": Pick(.house, .confetti), "wedding": Pick(.heart, .confetti),
        "retirement": Pick(.star, .confetti), "education": Pick(.graduationCap, .confetti),
    ]

    /// The categories of the bundled packs, for their rules not listed above.
    static let categoryPicks: [String: Pick] = [
        "potty": Pick(.medal, .outdoors), "commands": Pick(.graduationCap, .sparkles),
        "socialization": Pick(.pawPrints, .outdoors), "health": Pick(.stethoscope, .sparkles),
        "lifestyle": Pick(.pawPrints, .outdoors), "time": Pick(.partyHat, .sparkles),
        "streaks": Pick(.medal, .sparkles), "consistency": Pick(.calendar, .sparkles),
        "savings": Pick(.coins, .sparkles), "growth": Pick(.star, .sparkles),
    ]

    /// The milestone types, for any other rule.
    static let typePicks: [String: Pick] = [
        "first": Pick(.flag, .sparkles), "streak": Pick(.medal, .sparkles), "streak_record": Pick(.star, .sparkles),
        "recovery": Pick(.heart, .sparkles), "count": Pick(.medal, .sparkles), "set_completed": Pick(.star, .sparkles),
        "amount": Pick(.coins, .sparkles), "stage_reached": Pick(.star, .sparkles), "moment": Pick(.heart, .confetti),
        "age": Pick(.partyHat, .sparkles), "consistency": Pick(.calendar, .sparkles),
    ]
}
