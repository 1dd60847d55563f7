/// A recent advance worth showing on the dashboard, with a short sentence (AC7).
///
/// The sentence names the stage, the method and the local day relative to today:
/// "Reached Intermediate in Angion Method yesterday." or, for a method's final stage,
/// "Reached Master, the final stage of Angion Method, 3 days ago."
public struct ProgressionHighlight: Hashable, Sendable, Codable {
    /// The advance.
    public let item: ProgressionTimelineItem
    /// The user's local day of the advance.
    public let day: LocalDay
    /// How many local days before today the advance was (0 for today).
    public let daysAgo: Int
    /// The sentence for the dashboard.
    public let sentence: String

    /// Creates a highlight with its sentence.
    ///
    /// - Parameters:
    ///   - item: The advance.
    ///   - day: The user's local day of the advance.
    ///   - daysAgo: How many local days before today it was.
    ///   - translation: The language of the sentence (`highlight.*`); English by default.
    public init(item: ProgressionTimelineItem, day: LocalDay, daysAgo: Int, translation: Translation = .english) {
        self.item = item
        self.day = day
        self.daysAgo = daysAgo
        let when =
            switch daysAgo {
            case ...0: translation.text(ProgressionText.today)
            case 1: translation.text(ProgressionText.yesterday)
            default: translation.text(ProgressionText.daysAgo, ["count": String(daysAgo)])
            }
        self.sentence = translation.text(
            item.isFinalStage ? ProgressionText.reachedFinal : .reached,
            ["stage": item.toStageName, "method": item.methodName, "when": when])
    }
}
