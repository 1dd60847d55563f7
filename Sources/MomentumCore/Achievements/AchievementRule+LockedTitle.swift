extension AchievementRule {
    /// The title of an achievement not unlocked yet, for a list of what is still to come.
    ///
    /// A title is written for the moment it fires (`"{name} is {age} old!"`, `"First
    /// contribution to {goal}"`). Before then, what is known fills it: the subject's name,
    /// the first threshold (`"7 walks logged"`), the first age (`"Ollie is 8 weeks old!"`);
    /// what only the firing event can tell is said in general words (`"First contribution
    /// to a goal"`), or left out with the words that introduce it (`"First command learned:
    /// {item}"` reads `"First command learned"`). No `{placeholder}` is ever shown.
    ///
    /// A translated rule (from ``RulePack/translated(_:)``) reads in its language when given
    /// the same translation: the general words (`lockedTitle.*`), numbers, amounts, ages and
    /// the unit are written in it.
    ///
    /// - Parameters:
    ///   - subjectName: The name of the user's first subject (a puppy), if any.
    ///   - translation: The language of the words that fill the title; English by default.
    /// - Returns: The title.
    public func lockedTitle(subjectName: String?, translation: Translation = .english) -> String {
        var values: [String: String] = [
            "name": subjectName ?? translation.text(AchievementText.companion),
            "habit": translation.text(AchievementText.aHabit), "goal": translation.text(AchievementText.aGoal),
            "stage": translation.text(AchievementText.aNewStage),
            "unit": translation.titleUnit("day", count: at?.min() ?? every),
        ]
        if let first = at?.min() ?? every {
            values["value"] = AchievementEngine.number(first, translation: translation)
            if kind == .amount { values["amount"] = translation.money(first) }
            if let unit, first >= 1, first <= 1_200 {
                values["age"] = AchievementEngine.ageText(Int(first), unit, translation: translation)
            }
        }
        var text = title(for: at?.min() ?? every, plurals: translation.plurals)
        // A placeholder nothing can fill before the achievement fires, at the end after a
        // colon, goes with its colon.
        let names = TemplateText.segments(of: text) { _ in true }.compactMap(\.placeholder).map(String.init)
        for name in names where values[name] == nil {
            for ending in [": {\(name)}", " {\(name)}"] where text.hasSuffix(ending) {
                text.removeLast(ending.count)
            }
        }
        return TemplateText.render(text, values, keepMissing: false)
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
