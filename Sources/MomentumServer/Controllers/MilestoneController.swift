import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices

/// The user's own milestones: `GET /v1/milestones`, `PUT` and `DELETE
/// /v1/milestones/{milestone}` (``CustomMilestones``; a definition is recorded through
/// ``EventIngest``).
struct MilestoneController: Sendable {
    let milestones: CustomMilestones
    let ingest: EventIngest
    /// The most bytes a request body may hold.
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.get("milestones", use: list)
        group.put("milestones/:milestone", use: define)
        group.delete("milestones/:milestone", use: delete)
    }

    /// `GET /v1/milestones`: the user's milestones (``MilestoneList``).
    @Sendable func list(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(MilestoneList(milestones: try await milestones.list(caller.user)))
    }

    /// `PUT /v1/milestones/{milestone}`: defines or redefines a milestone, recorded as a
    /// `milestone` event; the milestone and what it unlocked (``MilestoneChange``).
    @Sendable func define(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let id = try context.parameter("milestone")
        let route = EventRequest.Route(type: "milestone", path: ["milestone": id])
        let (_, push) = try await ingest.record(
            try await request.eventRequest(for: route, limit: maxBodyBytes), route: route, caller: caller)
        guard let state = try await milestones.milestone(id, of: caller.user, after: push.version) else {
            throw APIError.notFound("milestone '\(id)'")
        }
        return try JSONIO.response(MilestoneChange(milestone: state, unlocks: push.unlocks))
    }

    /// `DELETE /v1/milestones/{milestone}`: deletes a milestone (a `milestone.deleted`
    /// event); 204.
    @Sendable func delete(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await milestones.delete(try context.parameter("milestone"), caller: caller)
        return Response(status: .noContent)
    }
}

/// The answer to `GET /v1/milestones`.
struct MilestoneList: Codable {
    var milestones: [MilestoneState]
}

/// The answer to `PUT /v1/milestones/{milestone}`: the milestone as defined, and what the
/// definition unlocked (a moment, or a count the history already meets).
struct MilestoneChange: Codable {
    var milestone: MilestoneState
    var unlocks: [Unlock]
}
