/// The fixed texts of messages: how a retroactive message says when (`{when}`), and the
/// message of an unlock no template fits.
enum MessageText: String, EngineText {
    case earlierToday = "relative.earlierToday"
    case yesterday = "relative.yesterday"
    case lastWeek = "relative.lastWeek"
    case weeksAgo = "relative.weeksAgo"
    case lastMonth = "relative.lastMonth"
    case inMonth = "relative.inMonth"
    case inMonthOfYear = "relative.inMonthOfYear"
    case titleWhen = "relative.titleWhen"

    var english: String {
        switch self {
        case .earlierToday: "earlier today"
        case .yesterday: "yesterday"
        case .lastWeek: "last week"
        case .weeksAgo: "{count} weeks ago"
        case .lastMonth: "last month"
        case .inMonth: "in {month}"
        case .inMonthOfYear: "in {month} {year}"
        case .titleWhen: "{title}, {when}"
        }
    }

    var englishOne: String? {
        switch self {
        case .weeksAgo: "{count} week ago"
        default: nil
        }
    }
}
