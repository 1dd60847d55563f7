/// What to show when a user reaches a stage: the payload of a stage celebration (AC3, AC4).
///
/// The celebration planner decides how (tier, particles, timing); this says what.
public struct StageCelebration: Hashable, Sendable, Codable {
    /// The id of the advance's event.
    public let eventID: String
    /// A short heading ("Final stage reached: Master").
    public let title: String
    /// The personalized message.
    public let affirmation: Affirmation
    /// Whether the stage reached is the method's final stage.
    public let isFinalStage: Bool
    /// Whether the advance came soon after the previous one (see ``AffirmationCatalog/isFast(_:)``); a final
    /// stage can be both.
    public let isFastAdvance: Bool

    /// Creates a celebration payload.
    public init(eventID: String, title: String, affirmation: Affirmation, isFinalStage: Bool, isFastAdvance: Bool) {
        self.eventID = eventID
        self.title = title
        self.affirmation = affirmation
        self.isFinalStage = isFinalStage
        self.isFastAdvance = isFastAdvance
    }
}
