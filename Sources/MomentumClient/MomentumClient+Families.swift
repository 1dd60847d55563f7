import Foundation
import MomentumAPI
import MomentumCore
import OpenAPIRuntime

// Families: subjects (a child, a pet) whose log several people share, each with a role.
// Online operations.

extension MomentumClient {
    /// The subjects the user shares: their own, and those shared with them.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func families() async throws -> [Components.Schemas.Family] {
        try await perform("listing families") {
            try await api.listFamilies()
        } success: {
            try $0.ok.body.json.families
        }
    }

    /// A subject's family: its members, achievements, memories and latest events with who logged them.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func family(owner: String, subject: String) async throws -> Components.Schemas.FamilyDetail {
        try await perform("reading a family") {
            try await api.getFamily(path: .init(owner: owner, subject: subject))
        } success: {
            try $0.ok.body.json
        }
    }

    /// Invites someone into a subject's family as co-owner, caregiver or viewer (the owner and co-owners).
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func inviteToFamily(
        owner: String, subject: String, role: Components.Schemas.FamilyInvitationRequest.RolePayload,
        expiresInDays: Int? = nil
    ) async throws -> Components.Schemas.Invitation {
        try await perform("inviting to a family") {
            try await api.inviteToFamily(
                path: .init(owner: owner, subject: subject),
                body: .json(.init(expiresInDays: expiresInDays, role: role)))
        } success: {
            try $0.created.body.json
        }
    }

    /// The open invitations to a subject's family, each with who made it: every one for
    /// its owner, their own for a co-owner.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anyone who does not manage the family), or
    ///   ``ClientError/offline``.
    public func familyInvitations(owner: String, subject: String) async throws -> [Components.Schemas.Invitation] {
        try await perform("listing a family's invitations") {
            try await api.listFamilyInvitations(path: .init(owner: owner, subject: subject))
        } success: {
            try $0.ok.body.json.invitations
        }
    }

    /// Withdraws an open invitation to a subject's family: its owner any, a co-owner their own.
    ///
    /// - Throws: ``ClientError`` (`not_found` for a code the user may not withdraw), or
    ///   ``ClientError/offline``.
    public func revokeFamilyInvitation(code: String, owner: String, subject: String) async throws {
        try await perform("withdrawing a family invitation") {
            try await api.revokeFamilyInvitation(path: .init(owner: owner, subject: subject, code: code))
        } success: { _ in
        }
    }

    /// Changes a member's role (the owner and co-owners).
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func changeFamilyRole(
        of member: String, owner: String, subject: String, to role: Components.Schemas.FamilyRoleRequest.RolePayload
    ) async throws -> Components.Schemas.FamilyMember {
        try await perform("changing a role") {
            try await api.changeFamilyRole(
                path: .init(owner: owner, subject: subject, member: member), body: .json(.init(role: role)))
        } success: {
            try $0.ok.body.json
        }
    }

    /// Removes a member (the owner and co-owners), or leaves (the user removing themself); what they logged stays.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func removeFamilyMember(_ member: String, owner: String, subject: String) async throws {
        try await perform("removing a family member") {
            try await api.removeFamilyMember(path: .init(owner: owner, subject: subject, member: member))
        } success: { _ in
        }
    }

    /// Logs events for a subject of someone else's, as its caregiver or co-owner: they go
    /// to the subject's log (the owner's), each recording who logged it. Only `log` events
    /// about that subject are taken. Unlike ``checkIn(_:value:note:day:)`` this is online.
    ///
    /// - Throws: ``ClientError`` (`not_found` when the user may not log for the subject), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func logForFamily(
        _ events: [Event], owner: String, subject: String
    ) async throws
        -> Components.Schemas.PushResponse
    {
        try await perform("logging for a family") {
            try await api.logForFamily(
                path: .init(owner: owner, subject: subject), body: .json(.init(events: events)))
        } success: {
            try $0.ok.body.json
        }
    }
}
