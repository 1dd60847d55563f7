import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices

/// `/v1/celebrations…`: the celebration to show, app sessions, shown and dismissed
/// (``Celebrations``).
struct CelebrationController: Sendable {
    let celebrations: Celebrations

    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.get("celebrations/next", use: next)
        group.post("celebrations/sessions", use: startSession)
        for outcome in [Celebrations.Outcome.shown, .dismissed] {
            group.post("celebrations/:celebration/\(outcome.rawValue)") { request, context in
                try await mark(outcome, request, context: context)
            }
        }
    }

    /// `GET /v1/celebrations/next`: the celebration to show now, if any.
    @Sendable func next(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(try await celebrations.next(for: try context.requireCaller().user))
    }

    /// `POST /v1/celebrations/sessions`: an app session starts; the celebration it opens with.
    @Sendable func startSession(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(SessionStartRequest.self, from: request, limit: 4_096)
        return try JSONIO.response(try await celebrations.startSession(body.session, for: caller.user))
    }

    /// `POST /v1/celebrations/{celebration}/shown` and `…/dismissed`: what became of a
    /// celebration; 204.
    @Sendable func mark(
        _ outcome: Celebrations.Outcome, _ request: Request, context: MomentumContext
    ) async throws -> Response {
        let caller = try context.requireCaller()
        try await celebrations.mark(try context.parameter("celebration"), outcome, caller: caller)
        return Response(status: .noContent)
    }
}
