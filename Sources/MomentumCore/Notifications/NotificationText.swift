/// The titles and bodies of the notifications ``NotificationPlanner`` writes.
enum NotificationText: String, EngineText {
    case atRiskTitle = "notification.atRisk.title.streak"
    case atRiskOpenTitle = "notification.atRisk.title.open"
    case atRiskDayTitle = "notification.atRisk.title.day"
    case atRiskBody = "notification.atRisk.body"
    case atRiskOthersBody = "notification.atRisk.body.others"
    case reminderTitle = "notification.reminder.title"
    case reminderStreakBody = "notification.reminder.body.streak"
    case reminderStartBody = "notification.reminder.body.start"
    case brokenTitle = "notification.broken.title"
    case brokenBody = "notification.broken.body"
    case freezeUsedTitle = "notification.freezeUsed.title"
    case freezeUsedBody = "notification.freezeUsed.body"
    case freezeOfferedTitle = "notification.freezeOffered.title"
    case freezeOfferedBody = "notification.freezeOffered.body"
    case weeklyOneTitle = "notification.weekly.title.one"
    case weeklyTitle = "notification.weekly.title.other"
    case weeklyLine = "notification.weekly.line"
    case weeklyBody = "notification.weekly.body"
    case weeklyMoreBody = "notification.weekly.body.more"
    case milestoneRetroactive = "notification.milestone.retroactive"

    var english: String {
        switch self {
        case .atRiskTitle: "Your {streak} {habit} streak ends in 2 hours"
        case .atRiskOpenTitle: "{habit} is still open, and the day ends in 2 hours"
        case .atRiskDayTitle: "The day ends in 2 hours"
        case .atRiskBody: "A quick check-in keeps it going."
        case .atRiskOthersBody: "Check in to keep it, and {count} more still open: {habits}."
        case .reminderTitle: "Time for {habit}"
        case .reminderStreakBody: "Keep your {streak} streak going."
        case .reminderStartBody: "A small step today starts a streak."
        case .brokenTitle: "Start {habit} again today"
        case .brokenBody: "{restart} Your best is {best}: that's the one to beat."
        case .freezeUsedTitle: "A freeze kept your {habit} streak"
        case .freezeUsedBody: "{day} was missed, and a freeze covered it: your streak stays at {length}."
        case .freezeOfferedTitle: "Save your {habit} streak with a freeze"
        case .freezeOfferedBody: "{day} was missed. Use a freeze by the end of {deadline} to keep your streak."
        case .weeklyOneTitle: "Your week: {habit} keeps going"
        case .weeklyTitle: "Your week in streaks"
        case .weeklyLine: "{habit}: {length}"
        case .weeklyBody: "{lines}. Keep it up!"
        case .weeklyMoreBody: "{lines} and {count} more. Keep it up!"
        case .milestoneRetroactive: "{message} (Reached on {day}.)"
        }
    }

    /// The counted texts' `one` forms (the count of other habits still open, or of more lines).
    var englishOne: String? {
        switch self {
        case .atRiskOthersBody: "Check in to keep it, and {count} more still open: {habits}."
        case .weeklyMoreBody: "{lines} and {count} more. Keep it up!"
        default: nil
        }
    }
}
