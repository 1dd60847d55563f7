import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore

/// A family invitation as a client asks for it.
typealias FamilyInvitationRequest = Components.Schemas.FamilyInvitationRequest
/// A member's new role.
typealias FamilyRoleRequest = Components.Schemas.FamilyRoleRequest

/// `/v1/families…`: subjects' families: members, roles, invitations, photos and what
/// caregivers log (``Families``).
struct FamilyController: Sendable {
    let families: Families
    /// The largest request body, in bytes (events logged for a subject).
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.get("families", use: list)
        group.get("families/:owner/:subject", use: detail)
        group.post("families/:owner/:subject/invitations", use: invite)
        group.get("families/:owner/:subject/invitations", use: invitations)
        group.delete("families/:owner/:subject/invitations/:code", use: revokeInvitation)
        group.patch("families/:owner/:subject/members/:member", use: changeRole)
        group.delete("families/:owner/:subject/members/:member", use: removeMember)
        group.get("families/:owner/:subject/photos/**", use: photo)
        group.post("families/:owner/:subject/events", use: log)
    }

    /// `GET /v1/families`: the families the caller belongs to.
    @Sendable func list(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(["families": try await families.list(caller: caller)])
    }

    /// `GET /v1/families/:owner/:subject`: a family: its subject, members and roles.
    @Sendable func detail(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(
            try await families.detail(
                owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
                caller: caller))
    }

    /// `POST /v1/families/:owner/:subject/invitations`: invites someone into a family, with
    /// a role (201).
    @Sendable func invite(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(FamilyInvitationRequest.self, from: request, limit: 4_096)
        let invitation = try await families.invite(
            owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
            role: FamilyRole(rawValue: body.role.rawValue) ?? .viewer, expiresInDays: body.expiresInDays,
            caller: caller)
        return try JSONIO.response(invitation, status: .created)
    }

    /// `GET /v1/families/:owner/:subject/invitations`: a family's invitations.
    @Sendable func invitations(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let invitations = try await families.invitations(
            owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
            caller: caller)
        return try JSONIO.response(["invitations": invitations])
    }

    /// `DELETE /v1/families/:owner/:subject/invitations/:code`: withdraws a family
    /// invitation (204).
    @Sendable func revokeInvitation(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await families.revokeInvitation(
            code: try context.parameters.require("code"), owner: try context.parameters.require("owner"),
            subject: try context.parameters.require("subject"), caller: caller)
        return Response(status: .noContent)
    }

    /// `PATCH /v1/families/:owner/:subject/members/:member`: changes a member's role.
    @Sendable func changeRole(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(FamilyRoleRequest.self, from: request, limit: 4_096)
        return try JSONIO.response(
            try await families.changeRole(
                owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
                member: try context.parameters.require("member"),
                to: FamilyRole(rawValue: body.role.rawValue) ?? .viewer, caller: caller))
    }

    /// `DELETE /v1/families/:owner/:subject/members/:member`: removes a member, or the
    /// caller leaves (204).
    @Sendable func removeMember(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await families.remove(
            owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
            member: try context.parameters.require("member"), caller: caller)
        return Response(status: .noContent)
    }

    /// `GET /v1/families/:owner/:subject/photos/…`: a photo of the family's subject, cached
    /// for a year (its path changes with its content).
    @Sendable func photo(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let photo = try await families.photo(
            owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
            path: context.parameters.getCatchAll().joined(separator: "/"), caller: caller)
        return Response(
            status: .ok,
            headers: [.contentType: photo.contentType, .cacheControl: "private, max-age=31536000, immutable"],
            body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes)))
    }

    /// `POST /v1/families/:owner/:subject/events`: logs events into the subject owner's
    /// history, as a caregiver.
    @Sendable func log(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(PushRequest.self, from: request, limit: maxBodyBytes)
        return try JSONIO.response(
            try await families.log(
                body.events, owner: try context.parameters.require("owner"),
                subject: try context.parameters.require("subject"), caller: caller))
    }
}
