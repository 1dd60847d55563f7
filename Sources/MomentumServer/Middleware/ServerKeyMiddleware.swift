import Foundation
import Hummingbird
import MomentumServices

/// Authenticates an app's backend on `/v1/server/…` by its server key
/// (`Authorization: Bearer msk_…`, ``ServerKeyAuthority``).
///
/// Separate from device sessions (`AuthMiddleware`): a device's token is refused here, as a
/// server key is on every device route (it names no user). A missing, malformed, unknown,
/// wrong or revoked key is one answer, 401 `invalid_server_key`; an address that shows too
/// many of them is refused (429) before any check.
struct ServerKeyMiddleware: RouterMiddleware {
    typealias Context = MomentumContext
    /// Who a key is.
    let keys: ServerKeyAuthority

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let token = request.headers[.authorization].flatMap(AuthMiddleware.bearerToken) ?? ""
        var context = context
        context.serverKey = try await keys.authenticate(token, address: context.addressKey)
        return try await next(request, context)
    }
}
