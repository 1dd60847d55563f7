/// The fixed texts of progression: stage durations, dashboard highlights and the
/// affirmation of last resort.
enum ProgressionText: String, EngineText {
    case lessThanADay = "duration.lessThanADay"
    case durationSeparator = "duration.separator"
    case affirmationFallback = "affirmation.fallback"
    case today = "highlight.today"
    case yesterday = "highlight.yesterday"
    case daysAgo = "highlight.daysAgo"
    case reached = "highlight.reached"
    case reachedFinal = "highlight.reachedFinal"

    var english: String {
        switch self {
        case .lessThanADay: "less than a day"
        case .durationSeparator: ", "
        case .affirmationFallback: "You reached {to} in {method}."
        case .today: "today"
        case .yesterday: "yesterday"
        case .daysAgo: "{count} days ago"
        case .reached: "Reached {stage} in {method} {when}."
        case .reachedFinal: "Reached {stage}, the final stage of {method}, {when}."
        }
    }

    var englishOne: String? {
        switch self {
        case .daysAgo: "{count} day ago"
        default: nil
        }
    }
}
