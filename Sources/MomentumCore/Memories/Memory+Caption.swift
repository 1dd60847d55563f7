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
    /// returns in English without a name or context, so changing a phrase changes how such
    /// lines read.
    ///
    /// - Parameters:
    ///   - category: The achievement category.
    ///   - milestoneType: Seed 000's `milestone_type`.
    ///   - value: The milestone's number, if any.
    ///   - title: The achievement's title, if known.
    ///   - name: The subject's name, if known.
    ///   - context: The unlock's context values (`habit`, `goal`, `stage`, `duration`).
    ///   - translation: The language of the caption's own words (`caption.*`); the title,
    ///     the name and the context are used as given.
    /// - Returns: The caption.
    public static func caption(
        category: String, milestoneType: String, value: Double?, title: String?, name: String?,
        context: [String: String] = [:], translation: Translation = .english
    ) -> String {
        let name = nonBlank(name)
        let given = nonBlank(title)
        let nouns = activity(category: category, habit: nonBlank(context["habit"]), translation: translation)
        let words = { (text: String) in text.replacingOccurrences(of: "_", with: " ") }
        let title = nonBlank(title) ?? capitalized("\(words(category)) \(words(milestoneType))")
        let number = value.map { translation.number($0) }
        let days = value.map { translation.count(translation.number($0), value: $0, "day") }
        var values = ["activity": nouns.single, "run": nouns.run, "title": title]
        values["name"] = name
        values["days"] = days
        // The phrase with the subject's name, or the bare one capitalized.
        func named(_ with: CaptionText, _ without: CaptionText) -> String {
            name == nil ? capitalized(translation.text(without, values)) : translation.text(with, values)
        }
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
            if let given, given.lowercased().hasPrefix(translation.text(CaptionText.firstPrefix).lowercased()) {
                values["title"] = given
                values["lowercasedTitle"] = given.prefix(1).lowercased() + given.dropFirst()
                return name == nil ? capitalized(given) : translation.text(CaptionText.firstTitledNamed, values)
            }
            return named(.firstNamed, .first)
        case "streak":
            if days != nil { return translation.text(name == nil ? CaptionText.streak : .streakNamed, values) }
        case "streak_record":
            if days != nil { return named(.recordNamed, .record) }
        case "count":
            if let value, value == value.rounded(), abs(value) < 1e15 {
                values["ordinal"] = translation.ordinal(Int(value))
                return named(.countNamed, .count)
            }
        case "recovery":
            return named(.recoveryNamed, .recovery)
        case "consistency":
            if days != nil {
                return translation.text(name == nil ? CaptionText.consistency : .consistencyNamed, values)
            }
        case "amount":
            if let number {
                values["amount"] = number
                return named(.amountNamed, .amount)
            }
        case "goal_completed":
            values["goal"] = nonBlank(context["goal"]) ?? words(category)
            return named(.goalNamed, .goal)
        case "stage_reached":
            values["stage"] = nonBlank(context["stage"]) ?? title
            return named(.stageNamed, .stage)
        case "age":
            if let duration = nonBlank(context["duration"]) {
                values["duration"] = duration
                return named(.ageNamed, .age)
            }
        case "set_completed":
            return named(.setNamed, .set)
        case "anniversary":
            return name == nil ? capitalized(title) : translation.text(CaptionText.anniversaryNamed, values)
        default:
            break
        }
        return name == nil ? capitalized(title) : translation.text(CaptionText.titledNamed, values)
    }

    /// The title a memory gets when its JSONL line has none: the caption without a name,
    /// context or title.
    static func derivedTitle(category: String, milestoneType: String, value: Double?) -> String {
        caption(category: category, milestoneType: milestoneType, value: value, title: nil, name: nil)
    }

    /// The activity of a category: a countable noun ("walk", for "first walk" and "50th walk")
    /// and the name of a run of days ("walks", for "7 days of walks in a row").
    private static func activity(
        category: String, habit: String?, translation: Translation
    ) -> (single: String, run: String) {
        if let habit { return (habit, habit) }
        let base = category.split(separator: "_").first.map(String.init) ?? category
        let canonical =
            switch base {
            case "training": "commands"
            case "walks", "walk": "lifestyle"
            default: base
            }
        guard let nouns = CaptionText.activities.first(where: { $0.category == canonical }) else {
            let words = category.replacingOccurrences(of: "_", with: " ")
            return (words, words)
        }
        return (
            translation.text("caption.activity.\(canonical).single", default: nouns.single),
            translation.text("caption.activity.\(canonical).run", default: nouns.run)
        )
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
