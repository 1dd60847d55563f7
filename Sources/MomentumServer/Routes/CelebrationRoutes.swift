import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

extension Routes {
    /// The celebration routes: each maps HTTP to a ``Celebrations`` use case.
    func addCelebrationRoutes(_ group: RouterGroup<MomentumContext>) {
        let celebrations = server.services.celebrations
        group.get("celebrations/next") { _, context in
            try JSONIO.response(try await celebrations.next(for: try context.requireCaller().user))
        }
        group.post("celebrations/sessions") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(SessionStartRequest.self, from: request, limit: 4_096)
            return try JSONIO.response(try await celebrations.startSession(body.session, for: caller.user))
        }
        for outcome in [Celebrations.Outcome.shown, .dismissed] {
            group.post("celebrations/:celebration/\(outcome.rawValue)") { _, context in
                let caller = try context.requireCaller()
                try await celebrations.mark(try context.parameter("celebration"), outcome, caller: caller)
                return Response(status: .noContent)
            }
        }
    }
}
