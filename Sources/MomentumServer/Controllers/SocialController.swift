import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

/// A friend invitation as a client asks for it.
typealias InvitationRequest = Components.Schemas.InvitationRequest
/// What to share with friends.
typealias SharingRequest = Components.Schemas.SharingRequest
/// An achievement to share.
typealias ShareRequest = Components.Schemas.ShareRequest
/// A reaction to a post.
typealias ReactionRequest = Components.Schemas.ReactionRequest

/// `/v1/invitations…`, `/v1/friends…`, `/v1/blocks…`, `/v1/sharing`, `/v1/posts…` and
/// `/v1/feed`: friends, invitations, blocks, sharing, posts, the feed, reactions and nudges
/// (``Social``).
struct SocialController: Sendable {
    let social: Social

    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.get("invitations", use: invitations)
        group.post("invitations", use: invite)
        group.get("invitations/:code", use: preview)
        group.delete("invitations/:code", use: revoke)
        group.post("invitations/:code/accept", use: accept)
        group.post("invitations/:code/decline", use: decline)
        group.get("friends", use: friends)
        group.get("friends/:friend", use: profile)
        group.delete("friends/:friend", use: removeFriend)
        group.post("friends/:friend/nudges", use: nudge)
        group.get("blocks", use: blocks)
        group.put("blocks/:user", use: block)
        group.delete("blocks/:user", use: unblock)
        group.get("sharing", use: sharing)
        group.put("sharing", use: setSharing)
        group.get("posts", use: posts)
        group.post("posts", use: share)
        group.delete("posts/:owner/:post", use: deletePost)
        group.get("feed", use: feed)
        group.put("posts/:owner/:post/reaction", use: react)
        group.delete("posts/:owner/:post/reaction", use: removeReaction)
        group.get("posts/:owner/:post/reactions", use: reactions)
    }

    // MARK: Invitations

    /// `GET /v1/invitations`: the invitations the caller made lately.
    @Sendable func invitations(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(["invitations": try await social.invitations(caller: caller)])
    }

    /// `POST /v1/invitations`: makes a friend invitation (201).
    @Sendable func invite(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(InvitationRequest.self, from: request, limit: 4_096, emptyIsObject: true)
        return try JSONIO.response(
            try await social.invite(caller: caller, expiresInDays: body.expiresInDays), status: .created)
    }

    /// `GET /v1/invitations/:code`: who invites, to what, before answering.
    @Sendable func preview(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(
            try await social.preview(code: try context.parameters.require("code"), caller: caller))
    }

    /// `DELETE /v1/invitations/:code`: withdraws an open invitation of the caller's (204).
    @Sendable func revoke(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await social.revoke(code: try context.parameters.require("code"), caller: caller)
        return Response(status: .noContent)
    }

    /// `POST /v1/invitations/:code/accept`: accepts an invitation, answering the friendship
    /// or membership made.
    @Sendable func accept(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        guard
            let accepted = try await social.answer(
                code: try context.parameters.require("code"), accept: true, caller: caller)
        else { throw APIError.notFound("invitation") }
        return try JSONIO.response(accepted)
    }

    /// `POST /v1/invitations/:code/decline`: declines an invitation (204).
    @Sendable func decline(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await social.answer(code: try context.parameters.require("code"), accept: false, caller: caller)
        return Response(status: .noContent)
    }

    // MARK: Friends

    /// `GET /v1/friends`: the caller's friends.
    @Sendable func friends(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(["friends": try await social.friends(caller: caller)])
    }

    /// `GET /v1/friends/:friend`: a friend's profile: shared habits, achievements and posts.
    @Sendable func profile(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(
            try await social.profile(of: try context.parameters.require("friend"), caller: caller))
    }

    /// `DELETE /v1/friends/:friend`: ends a friendship (204).
    @Sendable func removeFriend(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await social.remove(friend: try context.parameters.require("friend"), caller: caller)
        return Response(status: .noContent)
    }

    /// `POST /v1/friends/:friend/nudges`: cheers on a friend whose shared streak is at risk (201).
    @Sendable func nudge(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(
            try await social.nudge(try context.parameters.require("friend"), caller: caller), status: .created)
    }

    // MARK: Blocks

    /// `GET /v1/blocks`: whom the caller blocked.
    @Sendable func blocks(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(["blocked": try await social.blocks(caller: caller)])
    }

    /// `PUT /v1/blocks/:user`: blocks someone (204).
    @Sendable func block(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await social.block(try context.parameters.require("user"), caller: caller)
        return Response(status: .noContent)
    }

    /// `DELETE /v1/blocks/:user`: lifts a block (204).
    @Sendable func unblock(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await social.unblock(try context.parameters.require("user"), caller: caller)
        return Response(status: .noContent)
    }

    // MARK: Sharing

    /// `GET /v1/sharing`: what the caller shares, and what they could.
    @Sendable func sharing(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(try await social.sharing(caller: caller))
    }

    /// `PUT /v1/sharing`: replaces what the caller shares (a list left out keeps its value).
    @Sendable func setSharing(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(SharingRequest.self, from: request, limit: 65_536, emptyIsObject: true)
        return try JSONIO.response(
            try await social.setSharing(habits: body.habits, categories: body.categories, caller: caller))
    }

    // MARK: Posts and the feed

    /// `GET /v1/posts`: the caller's own posts, held ones included.
    @Sendable func posts(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(["posts": try await social.posts(caller: caller)])
    }

    /// `POST /v1/posts`: shares an achievement: 201 when this share made the post, 200 when
    /// it was shared already.
    @Sendable func share(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(ShareRequest.self, from: request, limit: 4_096)
        let (post, created) = try await social.share(unlock: body.unlock, caller: caller)
        return try JSONIO.response(post, status: created ? .created : .ok)
    }

    /// `DELETE /v1/posts/:owner/:post`: takes one of the caller's posts back from every
    /// feed (204); someone else's post is a 404.
    @Sendable func deletePost(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let post = try context.parameters.require("post")
        guard try context.parameters.require("owner") == caller.user else {
            throw APIError.notFound("post '\(post.prefix(64))'")
        }
        try await social.deletePost(post, caller: caller)
        return Response(status: .noContent)
    }

    /// `GET /v1/feed`: a page of the caller's feed, `limit` at a time, `before` a cursor of
    /// an earlier page.
    @Sendable func feed(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let limit = try request.integer("limit", default: 20, in: 1...100)
        let before = request.uri.queryParameters["before"].map(String.init)
        return try JSONIO.response(try await social.feed(caller: caller, before: before, limit: limit))
    }

    // MARK: Reactions

    /// `PUT /v1/posts/:owner/:post/reaction`: sets the caller's reaction to a friend's post.
    @Sendable func react(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(ReactionRequest.self, from: request, limit: 4_096)
        let reactions = try await social.react(
            ReactionKind(rawValue: body.reaction.rawValue), to: try context.parameters.require("post"),
            of: try context.parameters.require("owner"), caller: caller)
        return try JSONIO.response(["reactions": reactions])
    }

    /// `DELETE /v1/posts/:owner/:post/reaction`: takes the caller's reaction back (204).
    @Sendable func removeReaction(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        _ = try await social.react(
            nil, to: try context.parameters.require("post"), of: try context.parameters.require("owner"),
            caller: caller)
        return Response(status: .noContent)
    }

    /// `GET /v1/posts/:owner/:post/reactions`: who reacted to a post the caller can see.
    @Sendable func reactions(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let reactions = try await social.reactions(
            to: try context.parameters.require("post"), of: try context.parameters.require("owner"), caller: caller)
        return try JSONIO.response(["reactions": reactions])
    }
}
