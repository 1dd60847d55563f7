extension Memory {
    /// The auto caption of a milestone: a short, factual sentence for the scrapbook.
    ///
    /// Captions never mention when the milestone was noticed, so a retroactive memory reads
    /// like any other. A first is told by its title ("Ollie's first overnight stay away from
    /// home"). With a name: "Ollie's first outdoor potty", "7 days of outdoor potty in
    /// a row for Ollie", "Ollie's 50th walk"; without: "First outdoor potty", "7 days of
    /// outdoor potty in a row", "50th walk". The activity is the context's `habit` when there
    /// is one, else the category's (`potty…` → "outdoor potty", `lifestyle` → "walk", …).
    /// Milestones without a phrase of their own, or without the number their phrase needs,
    /// use the title; with no title either, the category and milestone type. A milestone of
    /// the user's own (category `custom`) is its title, as they wrote it.
    ///
    /// The JSONL form relies on this function: a line without `caption` gets the caption it
    /// returns without a name or context, so changing a phrase changes how such lines read.
    ///
    /// - Parameters:
    ///   - category: The achievement category.
    ///   - milestoneType: Seed 000's `milestone_type`.
    ///   - value: The milestone's number, if any.
    ///   - title: The achievement's title, if known.
    ///   - name: The subject's name, if known.
    ///   - context: The unlock's context values (`habit`, `goal`, `stage`, `duration`).
    /// - Returns: The caption.
    public static func caption(
        category: String, milestoneType: String, value: Double?, title: String?, name: String?,
        context: [String: String] = [:]
    ) -> String {
        let name = nonBlank(name)
        let given = nonBlank(title)
        let nouns = activity(category: category, habit: nonBlank(context["habit"]))
        let words = { (text: String) in text.replacingOccurrences(of: "_", with: " ") }
        let title = nonBlank(title) ?? capitalized("\(words(category)) \(words(milestoneType))")
        let number = value.map(MilestoneNumber.text)
        let days = value.map { $0 == 1 ? "1 day" : "\(MilestoneNumber.text($0)) days" }
        func named(_ with: (String) -> String, _ without: String) -> String {
            name.map(with) ?? capitalized(without)
        }
        let forName = name.map { " for \($0)" } ?? ""
        // A milestone of the user's own is told in their words.
        if category == CustomMilestone.category, ["moment", "first", "count", "streak"].contains(milestoneType),
            let given
        {
            return given
        }
        switch milestoneType {
        case "first":
            // A category holds several firsts (a first walk, a first night away): the
            // achievement's own title says which.
            if let given, given.lowercased().hasPrefix("first ") {
                let lowered = given.prefix(1).lowercased() + given.dropFirst()
                return named({ "\($0)'s \(lowered)" }, given)
            }
            return named({ "\($0)'s first \(nouns.single)" }, "first \(nouns.single)")
        case "streak":
            if let days { return "\(days) of \(nouns.run) in a row" + forName }
        case "streak_record":
            if let days {
                return named({ "\($0)'s longest streak yet: " }, "New record: ") + "\(days) of \(nouns.run) in a row"
            }
        case "count":
            if let value, value == value.rounded(), abs(value) < 1e15 {
                let ordinal = MilestoneNumber.ordinal(Int(value))
                return named({ "\($0)'s \(ordinal) \(nouns.single)" }, "\(ordinal) \(nouns.single)")
            }
        case "recovery":
            return named({ "\($0) is back on track with \(nouns.run)" }, "back on track with \(nouns.run)")
        case "consistency":
            if let days { return "\(days) of complete logs" + forName }
        case "amount":
            if let number { return named({ "\($0) saved \(number)" }, "\(number) saved") }
        case "goal_completed":
            let goal = nonBlank(context["goal"]) ?? words(category)
            return named({ "\($0) reached the \(goal) goal" }, "\(goal) goal reached")
        case "stage_reached":
            let stage = nonBlank(context["stage"]) ?? title
            return named({ "\($0) reached \(stage)" }, "reached \(stage)")
        case "age":
            if let duration = nonBlank(context["duration"]) {
                return named({ "\($0) is \(duration) old" }, "\(duration) old")
            }
        case "set_completed":
            return named({ "\($0) completed \(title)" }, "completed: \(title)")
        case "anniversary":
            return named({ "\($0)'s \(title)" }, title)
        default:
            break
        }
        return named({ "\($0): \(title)" }, title)
    }

    /// The title a memory gets when its JSONL line has none: the caption without a name,
    /// context or title.
    static func derivedTitle(category: String, milestoneType: String, value: Double?) -> String {
        caption(category: category, milestoneType: milestoneType, value: value, title: nil, name: nil)
    }

    /// The activity of a category: a countable noun ("walk", for "first walk" and "50th walk")
    /// and the name of a run of days ("walks", for "7 days of walks in a row").
    private static func activity(category: String, habit: String?) -> (single: String, run: String) {
        if let habit { return (habit, habit) }
        let base = category.split(separator: "_").first.map(String.init) ?? category
        switch base {
        case "potty": return ("outdoor potty", "outdoor potty")
        case "commands", "training": return ("command", "training")
        case "socialization": return ("new friend", "socializing")
        case "health": return ("vet visit", "healthy habits")
        case "lifestyle", "walks", "walk": return ("walk", "walks")
        case "streaks": return ("check-in", "check-ins")
        case "savings": return ("deposit", "saving")
        case "growth": return ("session", "practice")
        default:
            let words = category.replacingOccurrences(of: "_", with: " ")
            return (words, words)
        }
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
