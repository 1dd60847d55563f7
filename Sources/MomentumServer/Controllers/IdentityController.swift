import Foundation
import HTTPTypes
import Hummingbird
import MomentumServices

/// `POST /v1/sessions/id-token` and `/v1/me/identities…`: sign-in with an identity
/// provider's ID token, and the identities linked to the account; each maps HTTP to an
/// ``IdentitySignIns`` use case.
struct IdentityController: Sendable {
    let identities: IdentitySignIns

    /// Registers the sign-in on `group` (open to anyone) and the rest on `authenticated`.
    func addRoutes(public group: RouterGroup<MomentumContext>, authenticated: RouterGroup<MomentumContext>) {
        group.post("sessions/id-token", use: signIn)
        authenticated.get("me/identities", use: list)
        authenticated.post("me/identities", use: link)
        authenticated.delete("me/identities/:provider", use: unlink)
    }

    /// `POST /v1/sessions/id-token`: 201 with the session, as a password sign-in answers.
    @Sendable func signIn(_ request: Request, context: MomentumContext) async throws -> Response {
        let body = try await JSONIO.decode(IDTokenSignInRequest.self, from: request, limit: 32_768)
        let session = try await identities.signIn(body, address: context.addressKey)
        return try JSONIO.response(session, status: .created)
    }

    /// `GET /v1/me/identities`: the identities that sign in to the account.
    @Sendable func list(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(["identities": try await identities.identities(of: caller)])
    }

    /// `POST /v1/me/identities`: 201 with the linked identity.
    @Sendable func link(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(IdentityLinkRequest.self, from: request, limit: 32_768)
        let linked = try await identities.link(body, caller: caller, address: context.addressKey)
        return try JSONIO.response(linked, status: .created)
    }

    /// `DELETE /v1/me/identities/{provider}`: 204.
    @Sendable func unlink(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await identities.unlink(provider: try context.parameter("provider"), caller: caller)
        return Response(status: .noContent)
    }
}
