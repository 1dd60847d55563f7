import Foundation
import Hummingbird
import MomentumServices

/// `/v1/admin/server-keys…`: the operator creates, lists and revokes the keys of apps'
/// backends, behind the admin token (``AdminGate``).
struct ServerKeyController: Sendable {
    let admin: AdminGate
    let keys: ServerKeyAuthority
    let maxBodyBytes: Int

    func addRoutes(to router: Router<MomentumContext>) {
        router.get("v1/admin/server-keys", use: list)
        router.post("v1/admin/server-keys", use: create)
        router.delete("v1/admin/server-keys/:id", use: revoke)
    }

    /// `GET /v1/admin/server-keys`: every key, revoked ones too, without secrets.
    @Sendable func list(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .viewKeys, action: "server_key.listed")
        return try JSONIO.response(["serverKeys": try await keys.list()])
    }

    /// `POST /v1/admin/server-keys`: a new key, shown in this answer only; 201.
    @Sendable func create(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .manageKeys, action: "server_key.created")
        let body = try await JSONIO.decode(ServerKeyCreateRequest.self, from: request, limit: maxBodyBytes)
        var response = try JSONIO.response(try await keys.create(body), status: .created)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `DELETE /v1/admin/server-keys/{id}`: revokes a key (again: no change); 404 for an
    /// unknown one.
    @Sendable func revoke(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .manageKeys, action: "server_key.revoked")
        return try JSONIO.response(try await keys.revoke(try context.parameter("id")))
    }
}
