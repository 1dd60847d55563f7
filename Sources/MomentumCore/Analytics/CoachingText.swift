/// The sentences of ``Coaching``: encouragement, restarting after a break, the reminder that
/// a past streak counts, gentler goals and the reminder offer.
///
/// Encouragement, restart and rebuild come in three phrasings each; the phrasing is chosen
/// by the habit and the day, never by the language, so every language must keep all three.
enum CoachingText: String, EngineText {
    case encouragement1 = "coaching.encouragement.1"
    case encouragement2 = "coaching.encouragement.2"
    case encouragement3 = "coaching.encouragement.3"
    case restart1 = "coaching.restart.1"
    case restart2 = "coaching.restart.2"
    case restart3 = "coaching.restart.3"
    case rebuild1 = "coaching.rebuild.1"
    case rebuild2 = "coaching.rebuild.2"
    case rebuild3 = "coaching.rebuild.3"
    case stillCounts = "coaching.stillCounts"
    case habitStacking = "coaching.habitStacking"
    case smallerAmount = "coaching.easierTarget.amount"
    case fewerDays = "coaching.easierTarget.days"
    case smallerVersion = "coaching.easierTarget.smaller"
    case reminder = "coaching.reminder"

    var english: String {
        switch self {
        case .encouragement1:
            "{habit} is trending up: {recent}% of the last two weeks, up from {earlier}%. Keep it going!"
        case .encouragement2:
            "Nice climb on {habit}: from {earlier}% to {recent}% in two weeks. You're building something."
        case .encouragement3:
            "{habit} went from {earlier}% to {recent}% over the last two weeks. That's real progress!"
        case .restart1: "Your {streak} streak on {habit} ended. Today is a fresh day one: check in and start again."
        case .restart2: "Streaks end; habits don't have to. One check-in today restarts {habit}."
        case .restart3: "Every long streak began at 1. Start {habit} again today — your best is {best}."
        case .rebuild1: "{length} back in on {habit}. {toGo} more to beat your best of {best}."
        case .rebuild2: "You're rebuilding: {current} down on {habit}, {toGo} to go to set a new record of {record}."
        case .rebuild3: "Back on track with {habit}: {current} so far. Your best, {best}, is within reach."
        case .stillCounts:
            "Your {streak} streak still counts: those {length} happened, and your best of {best} stays on your record."
        case .habitStacking:
            "Try habit stacking: do {habit} right after something you already do every day, like your morning "
                + "coffee or brushing your teeth."
        case .smallerAmount:
            "Make it easier for a while: aim for {amount}{unit} instead of {target}{unit}. Small wins rebuild the chain."
        case .fewerDays: "Make it easier for a while: aim for {habit} 4 times a week instead of every day."
        case .smallerVersion: "Make it easier for a while: a smaller version of {habit} still counts as showing up."
        case .reminder: "Want a reminder for {habit} tomorrow at {time}?"
        }
    }

    /// The `one` form of the reminder that a past streak counts (by the streak's length).
    var englishOne: String? {
        switch self {
        case .stillCounts:
            "Your {streak} streak still counts: that {unit} happened, and your best of {best} stays on your record."
        default: nil
        }
    }
}
