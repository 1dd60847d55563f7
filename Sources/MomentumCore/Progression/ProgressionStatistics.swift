import Foundation

/// A user's progression across all methods at one instant, for the profile (AC6).
///
/// Only records at or before ``at`` count, so statistics of the past are reproducible.
/// Definitions:
/// - An *advance* is a move to a later stage; starts and regressions are not advances.
/// - A *stay* is a completed visit to a stage: from the record that reached it to the
///   record that left it, whichever way it left. The stay at the current stage is still
///   running and is reported in ``currentStages`` instead.
/// - Ties (two stays of equal length) go to the one that ended first.
public struct ProgressionStatistics: Hashable, Sendable, Codable {
    /// Where the user stands in one method.
    public struct MethodStanding: Hashable, Sendable, Codable {
        /// The method's id.
        public let methodID: String
        /// The method's name.
        public let methodName: String
        /// The stage the user is at.
        public let stage: ProgressionStage
        /// The 1-based position of ``stage`` in the method.
        public let stageNumber: Int
        /// How many stages the method has.
        public let stageCount: Int
        /// When the user reached ``stage``.
        public let since: Date
        /// How long the user has been at ``stage`` so far.
        public let timeAtStage: StageDuration

        /// Whether ``stage`` is the method's final stage.
        public var isFinalStage: Bool { stageNumber == stageCount }
    }

    /// A completed stay at one stage.
    public struct StageStay: Hashable, Sendable, Codable {
        /// The method's id.
        public let methodID: String
        /// The method's name.
        public let methodName: String
        /// The stage the user stayed at.
        public let stage: ProgressionStage
        /// How long the stay lasted.
        public let duration: StageDuration
        /// The record that ended the stay: the advance or regression away from ``stage``.
        public let endedBy: StageAdvance
    }

    /// The instant the statistics describe.
    public let at: Date
    /// How many methods have at least one record.
    public let methodsPracticed: Int
    /// How many moves to a later stage there were, across methods.
    public let totalAdvances: Int
    /// How many moves back to an earlier stage there were, across methods.
    public let regressions: Int
    /// The current stage of every practiced method, in declaration order.
    public let currentStages: [MethodStanding]
    /// The mean length of completed stays; `nil` when there are none.
    public let averageTimeAtStage: StageDuration?
    /// The longest completed stay; `nil` when there are none.
    public let longestStay: StageStay?
    /// The shortest stay that ended with an advance; `nil` when nothing was advanced.
    public let fastestAdvance: StageStay?
    /// The time since the latest advance; `nil` when nothing was advanced.
    public let timeSinceLastAdvance: StageDuration?
    /// The ids of the methods whose current stage is their final stage, in declaration order.
    public let methodsAtFinalStage: [String]

    /// The standing in a method, or `nil` if it was not practiced by ``at``.
    public func standing(in methodID: String) -> MethodStanding? {
        currentStages.first { $0.methodID == methodID }
    }
}
