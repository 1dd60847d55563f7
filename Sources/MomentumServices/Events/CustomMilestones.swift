import Foundation
import MomentumCore
import MomentumStore

/// A milestone of the user's own as `GET /v1/milestones` answers it: its definition, its
/// unlock once reached, and how far a count or streak has come.
public struct MilestoneState: Codable, Sendable {
    /// The milestone.
    public var milestone: String
    /// The title.
    public var title: String
    /// The message.
    public var message: String?
    /// The tier.
    public var tier: CelebrationTier
    /// The badge.
    public var badge: String?
    /// The rule.
    public var rule: CustomMilestone.Rule
    /// The kind.
    public var kind: String?
    /// The item.
    public var item: String?
    /// The breaks.
    public var breaks: String?
    /// The breaks item.
    public var breaksItem: String?
    /// The habit.
    public var habit: String?
    /// The target.
    public var target: Int?
    /// The reached.
    public var reached: Unlock?
    /// The progress.
    public var progress: MilestoneProgress?

    init(_ milestone: CustomMilestone, reached: Unlock?, progress: MilestoneProgress?) {
        self.milestone = milestone.id
        title = milestone.title
        message = milestone.message
        tier = milestone.tier
        badge = milestone.badge
        rule = milestone.rule
        kind = milestone.kind
        item = milestone.item
        breaks = milestone.breaks
        breaksItem = milestone.breaksItem
        habit = milestone.habit
        target = milestone.target
        self.reached = reached
        self.progress = progress
    }
}

/// The user's own milestones (seed 000, open question 5): listed with where each stands,
/// and deleted. Defining one is a `milestone` event and deleting one a `milestone.deleted`
/// event, stored like any other (`PUT` and `DELETE /v1/milestones/{milestone}`, `POST
/// /v1/events`).
public struct CustomMilestones: Sendable {
    let store: any EventStore
    let ingest: EventIngest
    /// The now.
    public let now: @Sendable () -> Date

    /// Every milestone of the user's own, in the order first defined, at the current instant.
    ///
    ///
    /// - Parameters:
    ///   - user: The user's id.
    ///   - version: A projection version the answer must include (a write's own).
    public func list(_ user: String, after version: Int64 = -1) async throws -> [MilestoneState] {
        let now = now()
        return try await store.evaluate(user, after: version) { engine, profile in
            _ = engine.advance(to: now, zone: engine.streaks.latestZone ?? profile.timeZone)
            let achievements = engine.achievements
            return achievements.customMilestones.map {
                MilestoneState(
                    $0, reached: achievements.unlock(ofMilestone: $0.id),
                    progress: achievements.progress(ofMilestone: $0.id, in: engine.streaks))
            }
        }
    }

    /// One milestone of the user's own, or `nil` when they have none with that id.
    public func milestone(_ id: String, of user: String, after version: Int64 = -1) async throws -> MilestoneState? {
        try await list(user, after: version).first { $0.milestone == id }
    }

    /// Deletes the milestone `id` with a `milestone.deleted` event. An unlock it granted
    /// stays, as every unlock does; defining the id again makes a new milestone.
    ///
    /// - Throws: `.notFound` when the user has no milestone `id`; the engine's refusal otherwise.
    public func delete(_ id: String, caller: Caller) async throws {
        let zone = try await store.evaluate(caller.user) { engine, profile -> String? in
            guard engine.achievements.customMilestone(id) != nil else { return nil }
            return engine.streaks.latestZone ?? profile.timeZone
        }
        guard let zone else { throw ServiceError.notFound("milestone '\(id)'") }
        let event = Event(id: Tokens.id("e_"), at: now(), timeZone: zone, payload: .milestoneDeleted(milestone: id))
        _ = try await ingest.appendOne(event, caller: caller)
    }
}
