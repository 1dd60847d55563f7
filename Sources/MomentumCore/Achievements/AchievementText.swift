/// The words that stand in for what only an unlock can tell, in the title of an achievement
/// not unlocked yet (``AchievementRule/lockedTitle(subjectName:translation:)``).
enum AchievementText: String, EngineText {
    case companion = "lockedTitle.name"
    case aHabit = "lockedTitle.habit"
    case aGoal = "lockedTitle.goal"
    case aNewStage = "lockedTitle.stage"

    var english: String {
        switch self {
        case .companion: "Your companion"
        case .aHabit: "a habit"
        case .aGoal: "a goal"
        case .aNewStage: "a new stage"
        }
    }
}
