import Foundation
import Hummingbird
import MomentumServices

/// `/v1/admin/amnesties…`: an operator declares an outage window whose days are covered in
/// every user's log, follows its job, and lifts it (``Amnesties``).
struct AmnestyController: Sendable {
    let admin: AdminGate
    let amnesties: Amnesties
    let maxBodyBytes: Int

    func addRoutes(to router: Router<MomentumContext>) {
        router.get("v1/admin/amnesties", use: list)
        router.post("v1/admin/amnesties", use: declare)
        router.post("v1/admin/amnesties/:id/lift", use: lift)
    }

    /// `GET /v1/admin/amnesties`: the latest amnesties with their jobs' progress.
    @Sendable func list(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .viewAmnesties, action: nil)
        return try JSONIO.response(AmnestyListAnswer(amnesties: try await amnesties.list().map(AmnestyAnswer.init)))
    }

    /// `POST /v1/admin/amnesties`: declares an outage window; its job runs in the
    /// background; 202.
    @Sendable func declare(_ request: Request, context: MomentumContext) async throws -> Response {
        let actor = try await admin.authorize(request, .manageAmnesties, action: "amnesty.declared")
        let body = try await JSONIO.decode(AmnestyDeclareRequest.self, from: request, limit: maxBodyBytes)
        let record = try await amnesties.declare(start: body.start, end: body.end, reason: body.reason, by: actor)
        return try JSONIO.response(AmnestyAnswer(record), status: .accepted)
    }

    /// `POST /v1/admin/amnesties/{id}/lift`: lifts an active amnesty; its job runs in the
    /// background; 202.
    @Sendable func lift(_ request: Request, context: MomentumContext) async throws -> Response {
        let actor = try await admin.authorize(request, .manageAmnesties, action: "amnesty.lifted")
        let record = try await amnesties.lift(id: try context.parameter("id"), by: actor)
        return try JSONIO.response(AmnestyAnswer(record), status: .accepted)
    }
}
