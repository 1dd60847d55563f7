/// The phrases of a memory's auto caption (``Memory/caption(category:milestoneType:value:title:name:context:translation:)``).
///
/// Most come in two forms: `.named`, with the subject's name, and the bare form, whose
/// first letter is capitalized when it is used.
enum CaptionText: String, EngineText {
    case firstPrefix = "caption.first.prefix"
    case firstTitledNamed = "caption.first.titled.named"
    case firstNamed = "caption.first.named"
    case first = "caption.first"
    case streakNamed = "caption.streak.named"
    case streak = "caption.streak"
    case recordNamed = "caption.record.named"
    case record = "caption.record"
    case countNamed = "caption.count.named"
    case count = "caption.count"
    case recoveryNamed = "caption.recovery.named"
    case recovery = "caption.recovery"
    case consistencyNamed = "caption.consistency.named"
    case consistency = "caption.consistency"
    case amountNamed = "caption.amount.named"
    case amount = "caption.amount"
    case goalNamed = "caption.goal.named"
    case goal = "caption.goal"
    case stageNamed = "caption.stage.named"
    case stage = "caption.stage"
    case ageNamed = "caption.age.named"
    case age = "caption.age"
    case setNamed = "caption.set.named"
    case set = "caption.set"
    case anniversaryNamed = "caption.anniversary.named"
    case titledNamed = "caption.titled.named"

    var english: String {
        switch self {
        case .firstPrefix: "first "
        case .firstTitledNamed: "{name}'s {lowercasedTitle}"
        case .firstNamed: "{name}'s first {activity}"
        case .first: "first {activity}"
        case .streakNamed: "{days} of {run} in a row for {name}"
        case .streak: "{days} of {run} in a row"
        case .recordNamed: "{name}'s longest streak yet: {days} of {run} in a row"
        case .record: "New record: {days} of {run} in a row"
        case .countNamed: "{name}'s {ordinal} {activity}"
        case .count: "{ordinal} {activity}"
        case .recoveryNamed: "{name} is back on track with {run}"
        case .recovery: "back on track with {run}"
        case .consistencyNamed: "{days} of complete logs for {name}"
        case .consistency: "{days} of complete logs"
        case .amountNamed: "{name} saved {amount}"
        case .amount: "{amount} saved"
        case .goalNamed: "{name} reached the {goal} goal"
        case .goal: "{goal} goal reached"
        case .stageNamed: "{name} reached {stage}"
        case .stage: "reached {stage}"
        case .ageNamed: "{name} is {duration} old"
        case .age: "{duration} old"
        case .setNamed: "{name} completed {title}"
        case .set: "completed: {title}"
        case .anniversaryNamed: "{name}'s {title}"
        case .titledNamed: "{name}: {title}"
        }
    }

    /// The activities a category's captions name when no habit does: a countable noun
    /// (`caption.activity.<category>.single`, "walk" in "50th walk") and a run of days
    /// (`.run`, "walks" in "7 days of walks in a row").
    static let activities: [(category: String, single: String, run: String)] = [
        ("potty", "outdoor potty", "outdoor potty"), ("commands", "command", "training"),
        ("socialization", "new friend", "socializing"), ("health", "vet visit", "healthy habits"),
        ("lifestyle", "walk", "walks"), ("streaks", "check-in", "check-ins"), ("savings", "deposit", "saving"),
        ("growth", "session", "practice"),
    ]

    /// Every key of ``activities``, with its English text.
    static var activityEntries: [(key: String, english: String)] {
        activities.flatMap {
            [("caption.activity.\($0.category).single", $0.single), ("caption.activity.\($0.category).run", $0.run)]
        }
    }
}
