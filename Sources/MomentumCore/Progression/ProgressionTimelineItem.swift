import Foundation

/// One entry of a method's progression timeline: an advance and what it meant (seed 001).
///
/// Seed 001's `ProgressionTimelineItem` has `event`, `durationAtStage`, `formattedDuration`
/// and `achievements`; here they are ``advance``, ``timeAtPreviousStage`` (its
/// ``StageDuration/seconds``, ``StageDuration/wholeDays`` and ``StageDuration/description``)
/// and ``achievements``. The time and the achievements belong to the stage the user *left*;
/// the start of a method left no stage, so it has neither.
public struct ProgressionTimelineItem: Hashable, Sendable, Codable {
    /// Which way an advance moved.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The first record of a method: the user started at ``ProgressionTimelineItem/toStage``.
        case start
        /// A move to a later stage, possibly skipping stages in between.
        case advance
        /// A move back to an earlier stage.
        case regression
    }

    /// The record this item describes.
    public let advance: StageAdvance
    /// The method's name.
    public let methodName: String
    /// Which way the advance moved.
    public let kind: Kind
    /// The stage the user left; `nil` for the start.
    public let fromStage: ProgressionStage?
    /// The stage the user reached.
    public let toStage: ProgressionStage
    /// Stages passed over by an advance, in order (empty for a start, a regression or a
    /// one-stage step).
    public let skippedStages: [ProgressionStage]
    /// The 1-based position of ``toStage`` in its method.
    public let stageNumber: Int
    /// How many stages the method has.
    public let stageCount: Int
    /// How long the user was at ``fromStage``; `nil` for the start.
    public let timeAtPreviousStage: StageDuration?
    /// Key accomplishments at ``fromStage``, as supplied by the caller (empty for the start).
    public let achievements: [String]

    /// Creates an item.
    public init(
        advance: StageAdvance, methodName: String, kind: Kind, fromStage: ProgressionStage?,
        toStage: ProgressionStage, skippedStages: [ProgressionStage], stageNumber: Int, stageCount: Int,
        timeAtPreviousStage: StageDuration?, achievements: [String] = []
    ) {
        self.advance = advance
        self.methodName = methodName
        self.kind = kind
        self.fromStage = fromStage
        self.toStage = toStage
        self.skippedStages = skippedStages
        self.stageNumber = stageNumber
        self.stageCount = stageCount
        self.timeAtPreviousStage = timeAtPreviousStage
        self.achievements = achievements
    }

    /// When the stage was reached.
    public var date: Date { advance.at }

    /// The name of the stage the user left; `nil` for the start.
    public var fromStageName: String? { fromStage?.name }

    /// The name of the stage the user reached.
    public var toStageName: String { toStage.name }

    /// Whether ``toStage`` is the method's final stage.
    public var isFinalStage: Bool { stageNumber == stageCount }

    /// A copy whose ``achievements`` are those listed for ``fromStage`` in `accomplishments`.
    func with(accomplishments: [String: [String]]) -> ProgressionTimelineItem {
        guard let from = fromStage, let list = accomplishments[from.id] else { return self }
        return ProgressionTimelineItem(
            advance: advance, methodName: methodName, kind: kind, fromStage: fromStage, toStage: toStage,
            skippedStages: skippedStages, stageNumber: stageNumber, stageCount: stageCount,
            timeAtPreviousStage: timeAtPreviousStage, achievements: list)
    }
}
