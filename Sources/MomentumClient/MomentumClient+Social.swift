import Foundation
import MomentumAPI
import MomentumCore
import OpenAPIRuntime

// Friends, invitations, posts, the feed, reactions, nudges, blocks and families: one method
// per operation of the contract, answering its generated type, refusals as ``ClientError``.
// These are online operations: unlike check-ins they are not kept in the outbox.

extension MomentumClient {
    /// Makes a friend invitation: a code (and the web app's link) that one person can accept.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func invite(expiresInDays: Int? = nil) async throws -> Components.Schemas.Invitation {
        let output: Operations.CreateInvitation.Output
        do { output = try await api.createInvitation(body: .json(.init(expiresInDays: expiresInDays))) } catch {
            throw Self.unreachable(error)
        }
        switch output {
        case .created(let r): return try r.body.json
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e),
            .contentTooLarge(let e), .unsupportedMediaType(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("creating an invitation answered \(status)")
        }
    }

    /// The invitations the user made in the last 30 days, with their state.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func invitations() async throws -> [Components.Schemas.Invitation] {
        let output: Operations.ListInvitations.Output
        do { output = try await api.listInvitations() } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json.invitations
        case .unauthorized(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("listing invitations answered \(status)")
        }
    }

    /// Who invites, to what: what the person who received a code sees before answering it.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func invitation(code: String) async throws -> Components.Schemas.InvitationPreview {
        let output: Operations.PreviewInvitation.Output
        do { output = try await api.previewInvitation(path: .init(code: code)) } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json
        case .unauthorized(let e), .notFound(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("previewing an invitation answered \(status)")
        }
    }

    /// Withdraws an open invitation.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func revokeInvitation(code: String) async throws {
        let output: Operations.RevokeInvitation.Output
        do { output = try await api.revokeInvitation(path: .init(code: code)) } catch { throw Self.unreachable(error) }
        switch output {
        case .noContent: return
        case .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("withdrawing an invitation answered \(status)")
        }
    }

    /// Accepts an invitation: the two become friends, or the user joins a subject's family.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func acceptInvitation(code: String) async throws -> Components.Schemas.InvitationAccepted {
        let output: Operations.AcceptInvitation.Output
        do { output = try await api.acceptInvitation(path: .init(code: code)) } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e),
            .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("accepting an invitation answered \(status)")
        }
    }

    /// Declines an invitation.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func declineInvitation(code: String) async throws {
        let output: Operations.DeclineInvitation.Output
        do { output = try await api.declineInvitation(path: .init(code: code)) } catch { throw Self.unreachable(error) }
        switch output {
        case .noContent: return
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e),
            .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("declining an invitation answered \(status)")
        }
    }

    /// The user's friends, the newest first.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func friends() async throws -> [Components.Schemas.Friend] {
        let output: Operations.ListFriends.Output
        do { output = try await api.listFriends() } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json.friends
        case .unauthorized(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("listing friends answered \(status)")
        }
    }

    /// A friend's shared habits with their current streaks (as the server evaluates them), achievements in the categories they share, and posts.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func friend(_ user: String) async throws -> Components.Schemas.FriendProfile {
        let output: Operations.FriendProfile.Output
        do { output = try await api.friendProfile(path: .init(friend: user)) } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json
        case .unauthorized(let e), .notFound(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("reading a friend's profile answered \(status)")
        }
    }

    /// Ends a friendship, on both sides.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func removeFriend(_ user: String) async throws {
        let output: Operations.RemoveFriend.Output
        do { output = try await api.removeFriend(path: .init(friend: user)) } catch { throw Self.unreachable(error) }
        switch output {
        case .noContent: return
        case .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("removing a friend answered \(status)")
        }
    }

    /// Cheers on a friend whose shared streak is at risk today (once a day per friend, never more than they take).
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func nudge(_ user: String) async throws -> Components.Schemas.Nudge {
        let output: Operations.NudgeFriend.Output
        do { output = try await api.nudgeFriend(path: .init(friend: user)) } catch { throw Self.unreachable(error) }
        switch output {
        case .created(let r): return try r.body.json
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e),
            .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("nudging a friend answered \(status)")
        }
    }

    /// Whom the user blocked.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func blocked() async throws -> [Components.Schemas.BlockedUser] {
        let output: Operations.ListBlocks.Output
        do { output = try await api.listBlocks() } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json.blocked
        case .unauthorized(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("listing blocks answered \(status)")
        }
    }

    /// Blocks someone: no friendship, invitation, post or reaction between the two; they are not told.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func block(_ user: String) async throws {
        let output: Operations.BlockUser.Output
        do { output = try await api.blockUser(path: .init(user: user)) } catch { throw Self.unreachable(error) }
        switch output {
        case .noContent: return
        case .unauthorized(let e), .forbidden(let e), .conflict(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("blocking answered \(status)")
        }
    }

    /// Lifts a block.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func unblock(_ user: String) async throws {
        let output: Operations.UnblockUser.Output
        do { output = try await api.unblockUser(path: .init(user: user)) } catch { throw Self.unreachable(error) }
        switch output {
        case .noContent: return
        case .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("unblocking answered \(status)")
        }
    }

    /// What the user shares with friends, and what they could.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func sharing() async throws -> Components.Schemas.Sharing {
        let output: Operations.GetSharing.Output
        do { output = try await api.getSharing() } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json
        case .unauthorized(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("reading what is shared answered \(status)")
        }
    }

    /// Chooses the habits and achievement categories friends see (`nil` keeps a list as it is).
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func share(habits: [String]? = nil, categories: [String]? = nil) async throws -> Components.Schemas.Sharing {
        let output: Operations.SetSharing.Output
        do { output = try await api.setSharing(body: .json(.init(categories: categories, habits: habits))) } catch {
            throw Self.unreachable(error)
        }
        switch output {
        case .ok(let r): return try r.body.json
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e),
            .contentTooLarge(let e), .unsupportedMediaType(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("changing what is shared answered \(status)")
        }
    }

    /// The user's own posts, held ones included.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func posts() async throws -> [Components.Schemas.Post] {
        let output: Operations.ListPosts.Output
        do { output = try await api.listPosts() } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json.posts
        case .unauthorized(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("listing posts answered \(status)")
        }
    }

    /// Shares an achievement the server derived with friends; sharing it again answers the same post.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func sharePost(unlock: String) async throws -> Components.Schemas.Post {
        let output: Operations.SharePost.Output
        do { output = try await api.sharePost(body: .json(.init(unlock: unlock))) } catch {
            throw Self.unreachable(error)
        }
        switch output {
        case .created(let r): return try r.body.json
        case .ok(let r): return try r.body.json
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e),
            .contentTooLarge(let e), .unsupportedMediaType(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("sharing an achievement answered \(status)")
        }
    }

    /// Takes one of the user's posts back, from every feed.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func deletePost(_ post: String, owner: String) async throws {
        let output: Operations.DeletePost.Output
        do { output = try await api.deletePost(path: .init(owner: owner, post: post)) } catch {
            throw Self.unreachable(error)
        }
        switch output {
        case .noContent: return
        case .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("deleting a post answered \(status)")
        }
    }

    /// A page of the feed: friends' posts and the user's own, newest first; pass `next` as `before` for the next page.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func feed(before: String? = nil, limit: Int? = nil) async throws -> Components.Schemas.Feed {
        let output: Operations.GetFeed.Output
        do { output = try await api.getFeed(query: .init(before: before, limit: limit)) } catch {
            throw Self.unreachable(error)
        }
        switch output {
        case .ok(let r): return try r.body.json
        case .unauthorized(let e), .unprocessableContent(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("reading the feed answered \(status)")
        }
    }

    /// Reacts to a friend's post (one reaction per friend, changeable).
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func react(
        _ reaction: Components.Schemas.ReactionRequest.ReactionPayload, to post: String, of owner: String
    ) async throws -> [Components.Schemas.PostReaction] {
        let output: Operations.ReactToPost.Output
        do {
            output = try await api.reactToPost(
                path: .init(owner: owner, post: post), body: .json(.init(reaction: reaction)))
        } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json.reactions
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e),
            .contentTooLarge(let e), .unsupportedMediaType(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("reacting answered \(status)")
        }
    }

    /// Takes the user's reaction to a post back.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func removeReaction(to post: String, of owner: String) async throws {
        let output: Operations.RemoveReaction.Output
        do { output = try await api.removeReaction(path: .init(owner: owner, post: post)) } catch {
            throw Self.unreachable(error)
        }
        switch output {
        case .noContent: return
        case .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("removing a reaction answered \(status)")
        }
    }

    /// Who reacted to a post the user can see, the newest first.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func reactions(to post: String, of owner: String) async throws -> [Components.Schemas.PostReaction] {
        let output: Operations.ListReactions.Output
        do { output = try await api.listReactions(path: .init(owner: owner, post: post)) } catch {
            throw Self.unreachable(error)
        }
        switch output {
        case .ok(let r): return try r.body.json.reactions
        case .unauthorized(let e), .notFound(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("listing reactions answered \(status)")
        }
    }

    /// The subjects the user shares: their own, and those shared with them.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func families() async throws -> [Components.Schemas.Family] {
        let output: Operations.ListFamilies.Output
        do { output = try await api.listFamilies() } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json.families
        case .unauthorized(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("listing families answered \(status)")
        }
    }

    /// A subject's family: its members, achievements, memories and latest events with who logged them.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func family(owner: String, subject: String) async throws -> Components.Schemas.FamilyDetail {
        let output: Operations.GetFamily.Output
        do { output = try await api.getFamily(path: .init(owner: owner, subject: subject)) } catch {
            throw Self.unreachable(error)
        }
        switch output {
        case .ok(let r): return try r.body.json
        case .unauthorized(let e), .notFound(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("reading a family answered \(status)")
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
        let output: Operations.InviteToFamily.Output
        do {
            output = try await api.inviteToFamily(
                path: .init(owner: owner, subject: subject),
                body: .json(.init(expiresInDays: expiresInDays, role: role)))
        } catch { throw Self.unreachable(error) }
        switch output {
        case .created(let r): return try r.body.json
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e),
            .contentTooLarge(let e), .unsupportedMediaType(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("inviting to a family answered \(status)")
        }
    }

    /// The open invitations to a subject's family, each with who made it: every one for
    /// its owner, their own for a co-owner.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anyone who does not manage the family), or
    ///   ``ClientError/offline``.
    public func familyInvitations(owner: String, subject: String) async throws -> [Components.Schemas.Invitation] {
        let output: Operations.ListFamilyInvitations.Output
        do { output = try await api.listFamilyInvitations(path: .init(owner: owner, subject: subject)) } catch {
            throw Self.unreachable(error)
        }
        switch output {
        case .ok(let r): return try r.body.json.invitations
        case .unauthorized(let e), .notFound(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("listing a family's invitations answered \(status)")
        }
    }

    /// Withdraws an open invitation to a subject's family: its owner any, a co-owner their own.
    ///
    /// - Throws: ``ClientError`` (`not_found` for a code the user may not withdraw), or
    ///   ``ClientError/offline``.
    public func revokeFamilyInvitation(code: String, owner: String, subject: String) async throws {
        let output: Operations.RevokeFamilyInvitation.Output
        do {
            output = try await api.revokeFamilyInvitation(path: .init(owner: owner, subject: subject, code: code))
        } catch { throw Self.unreachable(error) }
        switch output {
        case .noContent: return
        case .unauthorized(let e), .notFound(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _):
            throw ClientError.server("withdrawing a family invitation answered \(status)")
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
        let output: Operations.ChangeFamilyRole.Output
        do {
            output = try await api.changeFamilyRole(
                path: .init(owner: owner, subject: subject, member: member), body: .json(.init(role: role)))
        } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e),
            .contentTooLarge(let e), .unsupportedMediaType(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("changing a role answered \(status)")
        }
    }

    /// Removes a member (the owner and co-owners), or leaves (the user removing themself); what they logged stays.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func removeFamilyMember(_ member: String, owner: String, subject: String) async throws {
        let output: Operations.RemoveFamilyMember.Output
        do {
            output = try await api.removeFamilyMember(path: .init(owner: owner, subject: subject, member: member))
        } catch { throw Self.unreachable(error) }
        switch output {
        case .noContent: return
        case .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("removing a family member answered \(status)")
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
        let output: Operations.LogForFamily.Output
        do {
            output = try await api.logForFamily(
                path: .init(owner: owner, subject: subject), body: .json(.init(events: events)))
        } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e),
            .contentTooLarge(let e), .unsupportedMediaType(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("logging for a family answered \(status)")
        }
    }
}
