import Foundation
import MomentumAPI
import OpenAPIRuntime

// Invitations: a friend's, or one into a family (``inviteToFamily(owner:subject:role:expiresInDays:)``),
// previewed, accepted, declined or withdrawn by their code. Like every social operation,
// online: unlike check-ins, nothing here waits in the outbox.

extension MomentumClient {
    /// Makes a friend invitation: a code (and the web app's link) that one person can accept.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func invite(expiresInDays: Int? = nil) async throws -> Components.Schemas.Invitation {
        try await perform("creating an invitation") {
            try await api.createInvitation(body: .json(.init(expiresInDays: expiresInDays)))
        } success: {
            try $0.created.body.json
        }
    }

    /// The invitations the user made in the last 30 days, with their state.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func invitations() async throws -> [Components.Schemas.Invitation] {
        try await perform("listing invitations") {
            try await api.listInvitations()
        } success: {
            try $0.ok.body.json.invitations
        }
    }

    /// Who invites, to what: what the person who received a code sees before answering it.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func invitation(code: String) async throws -> Components.Schemas.InvitationPreview {
        try await perform("previewing an invitation") {
            try await api.previewInvitation(path: .init(code: code))
        } success: {
            try $0.ok.body.json
        }
    }

    /// Withdraws an open invitation.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func revokeInvitation(code: String) async throws {
        try await perform("withdrawing an invitation") {
            try await api.revokeInvitation(path: .init(code: code))
        } success: { _ in
        }
    }

    /// Accepts an invitation: the two become friends, or the user joins a subject's family.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func acceptInvitation(code: String) async throws -> Components.Schemas.InvitationAccepted {
        try await perform("accepting an invitation") {
            try await api.acceptInvitation(path: .init(code: code))
        } success: {
            try $0.ok.body.json
        }
    }

    /// Declines an invitation.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func declineInvitation(code: String) async throws {
        try await perform("declining an invitation") {
            try await api.declineInvitation(path: .init(code: code))
        } success: { _ in
        }
    }
}
