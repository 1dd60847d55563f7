import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices

extension Routes {
    /// The user's own milestones: `GET /v1/milestones`, `PUT` and `DELETE
    /// /v1/milestones/{milestone}`.
    func addMilestoneRoutes(_ group: RouterGroup<MomentumContext>) {
        group.get("milestones") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(
                MilestoneList(milestones: try await server.services.milestones.list(caller.user)))
        }
        group.put("milestones/:milestone") { request, context in
            let caller = try context.requireCaller()
            let id = try context.parameter("milestone")
            let route = EventRequest.Route(type: "milestone", path: ["milestone": id])
            let (_, push) = try await server.services.ingest.record(
                try await body(request, for: route), route: route, caller: caller)
            guard let state = try await server.services.milestones.milestone(id, of: caller.user, after: push.version)
            else {
                throw APIError.notFound("milestone '\(id)'")
            }
            return try JSONIO.response(MilestoneChange(milestone: state, unlocks: push.unlocks))
        }
        group.delete("milestones/:milestone") { _, context in
            let caller = try context.requireCaller()
            try await server.services.milestones.delete(try context.parameter("milestone"), caller: caller)
            return Response(status: .noContent)
        }
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
