extension MessageCatalog {
    /// When a day was, said from another day, as retroactive messages phrase it (`{when}`).
    ///
    /// | days before `today` | phrase |
    /// |---|---|
    /// | 0 (or a later day) | "earlier today" |
    /// | 1 | "yesterday" |
    /// | 2–6 | "on Monday" (the day's weekday) |
    /// | 7–13 | "last week" |
    /// | 14–27 | "2 weeks ago", "3 weeks ago" |
    /// | 28 or more, same month | "4 weeks ago" |
    /// | 28 or more, previous month | "last month" |
    /// | earlier months | "in March", or "in March 2025" when the year differs |
    ///
    /// - Parameters:
    ///   - day: The day something happened.
    ///   - today: The user's current local day.
    ///   - translation: The language of the phrase (`relative.*`); English by default.
    /// - Returns: The phrase.
    public static func relativePhrase(
        for day: LocalDay, today: LocalDay, translation: Translation = .english
    ) -> String {
        let days = day.distance(to: today)
        switch days {
        case ..<1: return translation.text(MessageText.earlierToday)
        case 1: return translation.text(MessageText.yesterday)
        case 2...6: return translation.onWeekday(day.weekday)
        case 7...13: return translation.text(MessageText.lastWeek)
        case 14...27: return translation.text(MessageText.weeksAgo, ["count": String(days / 7)])
        default: break
        }
        let then = day.civil
        let now = today.civil
        switch (now.year * 12 + now.month) - (then.year * 12 + then.month) {
        case 0: return translation.text(MessageText.weeksAgo, ["count": String(days / 7)])
        case 1: return translation.text(MessageText.lastMonth)
        default:
            let month = translation.monthName(then.month)
            return then.year == now.year
                ? translation.text(MessageText.inMonth, ["month": month])
                : translation.text(MessageText.inMonthOfYear, ["month": month, "year": String(then.year)])
        }
    }
}
