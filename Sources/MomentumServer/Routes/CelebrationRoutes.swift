import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumStore

/// The celebration to show now, if any.
struct NextCelebrationResponse: Codable {
    var celebration: PlannedCelebration?
    /// When the next one becomes due, if one is waiting.
    var nextDelivery: Date?
    /// How many are waiting.
    var waiting: Int
}

extension Routes {
    func addCelebrationRoutes(_ group: RouterGroup<MomentumContext>) {
        group.get("celebrations/next") { _, context in
            let caller = try context.requireCaller()
            let now = server.now()
            // A read: the stored planner is current after every append and celebration write.
            guard let planner = try await server.store.projection(of: caller.user).celebrations else {
                return try JSONIO.response(NextCelebrationResponse(celebration: nil, nextDelivery: nil, waiting: 0))
            }
            return try JSONIO.response(
                NextCelebrationResponse(
                    celebration: planner.next(at: now), nextDelivery: planner.nextDeliveryDate(at: now),
                    waiting: planner.pending.count))
        }
        group.post("celebrations/sessions") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(SessionStartRequest.self, from: request, limit: 4_096)
            guard (1...128).contains(body.session.count) else {
                throw APIError.invalid("must have 1 to 128 characters", field: "session")
            }
            let now = server.now()
            let response = try await server.store.updateCelebrations(of: caller.user, now: now) { planner in
                planner.startSession(id: body.session, at: now)
                return NextCelebrationResponse(
                    celebration: planner.next(at: now), nextDelivery: planner.nextDeliveryDate(at: now),
                    waiting: planner.pending.count)
            }
            return try JSONIO.response(response)
        }
        for (action, name) in [("shown", "shown"), ("dismissed", "dismissed")] {
            group.post("celebrations/:celebration/\(action)") { _, context in
                let caller = try context.requireCaller()
                let id = try context.parameter("celebration")
                let now = server.now()
                let found = try await server.store.updateCelebrations(of: caller.user, now: now) { planner in
                    name == "shown" ? planner.markShown(id: id, at: now) : planner.dismiss(id: id, at: now)
                }
                guard found else { throw APIError.notFound("celebration '\(id)'") }
                server.publish(
                    Change(kind: "celebrations", device: Tokens.deviceID(caller.tokenHash), at: now), to: caller.user)
                return Response(status: .noContent)
            }
        }
    }
}
