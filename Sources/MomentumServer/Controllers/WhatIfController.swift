import Foundation
import Hummingbird
import MomentumServices

/// `/v1/admin/…/what-if`: an operator replays a candidate pack version over users' logs
/// before activating it, follows the run and cancels it (``WhatIfReplays``).
struct WhatIfController: Sendable {
    let admin: AdminGate
    let whatIf: WhatIfReplays
    let maxBodyBytes: Int

    func addRoutes(to router: Router<MomentumContext>) {
        router.post("v1/admin/packs/:name/versions/:version/what-if", use: start)
        router.get("v1/admin/what-if/:run", use: show)
        router.post("v1/admin/what-if/:run/cancel", use: cancel)
    }

    /// `POST /v1/admin/packs/{name}/versions/{version}/what-if`: starts a run (or answers the
    /// version's running one); 202.
    @Sendable func start(_ request: Request, context: MomentumContext) async throws -> Response {
        let actor = try await admin.authorize(request, .managePacks, action: "pack.what_if_started")
        let body = try await JSONIO.decode(
            WhatIfStartRequest.self, from: request, limit: maxBodyBytes, emptyIsObject: true)
        let run = try await whatIf.start(
            pack: try context.parameter("name"), version: try context.parameter("version"),
            sample: body.sample.map(WhatIfSample.init), by: actor)
        return try JSONIO.response(WhatIfRunAnswer(WhatIfProgress(run)), status: .accepted)
    }

    /// `GET /v1/admin/what-if/{run}`: the run's progress and report so far.
    @Sendable func show(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .viewPacks, action: nil)
        return try JSONIO.response(WhatIfRunAnswer(try await whatIf.run(try context.parameter("run"))))
    }

    /// `POST /v1/admin/what-if/{run}/cancel`: cancels a running run.
    @Sendable func cancel(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .managePacks, action: "pack.what_if_cancelled")
        return try JSONIO.response(WhatIfRunAnswer(try await whatIf.cancel(try context.parameter("run"))))
    }
}
