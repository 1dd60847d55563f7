import Foundation
import MomentumCore

/// A milestone of the user's own with where it stands on the device.
public struct MilestoneStatus: Hashable, Sendable {
    /// The milestone, as its latest definition leaves it.
    public var milestone: CustomMilestone
    /// Its unlock, once it has happened (with the words it was celebrated with).
    public var reached: Unlock?
    /// How far a count or a streak has come; `nil` for moments and firsts.
    public var progress: MilestoneProgress?

    /// Creates a status.
    public init(milestone: CustomMilestone, reached: Unlock? = nil, progress: MilestoneProgress? = nil) {
        self.milestone = milestone
        self.reached = reached
        self.progress = progress
    }
}

extension MomentumClient {
    /// The user's own milestones, in the order first defined, as the device sees them now
    /// (offline too): each with its unlock once reached and its progress.
    ///
    /// - Parameter now: The instant to read at; by default now.
    /// - Throws: ``ClientError/notSignedIn``.
    public func milestones(at now: Date? = nil) throws -> [MilestoneStatus] {
        var user = try localEngine()
        _ = user.advance(to: now ?? clock())
        let achievements = user.achievements
        return achievements.customMilestones.map {
            MilestoneStatus(
                milestone: $0, reached: achievements.unlock(ofMilestone: $0.id),
                progress: achievements.progress(ofMilestone: $0.id, in: user.streaks))
        }
    }

    /// Defines a milestone of the user's own, or edits the one with the same id: "First
    /// beach day" (a moment, now), "100 walks" (a count), "A week without an accident" (a
    /// streak). One the history already meets unlocks at once, retroactively; an edit
    /// changes what is still to come.
    ///
    /// - Parameter milestone: The milestone.
    /// - Returns: The recorded event, with what it unlocked and the messages to celebrate with.
    /// - Throws: ``ClientError/refused(_:_:field:)`` `invalid_event` naming the field of a
    ///   malformed milestone, `unknown_habit`, or `limit_exceeded` beyond
    ///   `EventLimits.maximumCustomMilestones` (100) milestones.
    @discardableResult
    public func defineMilestone(_ milestone: CustomMilestone) throws -> RecordedEvent {
        if let problem = milestone.problem {
            throw ClientError.refused("invalid_event", problem.reason, field: problem.field)
        }
        return try record(.milestone(milestone))
    }

    /// Deletes a milestone of the user's own (a `milestone.deleted` event). Its unlock, if it
    /// happened, stays, as every unlock does; defining the id again makes a new milestone.
    ///
    /// - Parameter id: The milestone's id.
    /// - Returns: The recorded deletion.
    /// - Throws: ``ClientError/refused(_:_:field:)`` `invalid_event` when there is no such
    ///   milestone.
    @discardableResult
    public func deleteMilestone(_ id: String) throws -> RecordedEvent {
        try record(.milestoneDeleted(milestone: id))
    }
}
