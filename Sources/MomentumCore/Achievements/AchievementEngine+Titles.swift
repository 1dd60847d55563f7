extension AchievementEngine {
    /// The values an achievement title is filled with: the unlock's context, with its
    /// number, amount, age and unit written in `translation` (in English, the context as it is).
    ///
    /// - Parameters:
    ///   - context: The unlock's context values.
    ///   - value: The unlock's number, if any.
    ///   - milestoneType: The unlock's milestone type (`amount` writes `{amount}`).
    ///   - rule: The achievement (its unit tells an age's unit).
    ///   - translation: The language of the title.
    static func titleValues(
        _ context: [String: String], value: Double?, milestoneType: String, rule: AchievementRule,
        translation: Translation
    ) -> [String: String] {
        guard translation != .english else { return context }
        var values = context
        if let unit = context["unit"] { values["unit"] = translation.titleUnit(unit, count: value) }
        if let value {
            if context["value"] != nil { values["value"] = number(value, translation: translation) }
            if milestoneType == "amount" { values["amount"] = translation.money(value) }
            if context["age"] != nil, let unit = rule.unit, let count = Int(exactly: value) {
                values["age"] = ageText(count, unit, translation: translation)
            }
        }
        return values
    }

    /// An age in a unit: "1 week", "8 weeks".
    static func ageText(_ n: Int, _ unit: AchievementRule.Unit, translation: Translation = .english) -> String {
        translation.count(n, String(unit.rawValue.dropLast()))
    }

    /// A rule's number as titles write it: whole numbers without separators (`1000`), others
    /// with the language's decimal separator.
    static func number(_ value: Double, translation: Translation = .english) -> String {
        guard value == value.rounded(), abs(value) < 1e15 else {
            return String(value).replacingOccurrences(of: ".", with: translation.decimalSeparator)
        }
        return String(Int(value))
    }
}
