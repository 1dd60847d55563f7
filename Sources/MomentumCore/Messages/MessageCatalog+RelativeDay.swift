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
    /// - Returns: The phrase, in English.
    public static func relativePhrase(for day: LocalDay, today: LocalDay) -> String {
        let days = day.distance(to: today)
        switch days {
        case ..<1: return "earlier today"
        case 1: return "yesterday"
        case 2...6: return "on " + weekdayNames[day.weekday.rawValue - 1]
        case 7...13: return "last week"
        case 14...27: return "\(days / 7) weeks ago"
        default: break
        }
        let then = day.civil
        let now = today.civil
        switch (now.year * 12 + now.month) - (then.year * 12 + then.month) {
        case 0: return "\(days / 7) weeks ago"
        case 1: return "last month"
        default:
            let month = monthNames[then.month - 1]
            return then.year == now.year ? "in \(month)" : "in \(month) \(then.year)"
        }
    }

    private static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
}
