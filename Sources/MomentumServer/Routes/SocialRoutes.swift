import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

/// A friend invitation as a client asks for it.
typealias InvitationRequest = Components.Schemas.InvitationRequest
/// A family invitation as a client asks for it.
typealias FamilyInvitationRequest = Components.Schemas.FamilyInvitationRequest
/// What to share with friends.
typealias SharingRequest = Components.Schemas.SharingRequest
/// An achievement to share.
typealias ShareRequest = Components.Schemas.ShareRequest
/// A reaction to a post.
typealias ReactionRequest = Components.Schemas.ReactionRequest
/// A member's new role.
typealias FamilyRoleRequest = Components.Schemas.FamilyRoleRequest

extension Routes {
    /// Friends, invitations, blocks, sharing, posts, the feed and reactions (``Social``),
    /// and subjects' families (``Families``): each route only maps HTTP.
    func addSocialRoutes(_ group: RouterGroup<MomentumContext>) {
        let social = server.services.social
        group.get("invitations") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(["invitations": try await social.invitations(caller: caller)])
        }
        group.post("invitations") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(InvitationRequest.self, from: request, limit: 4_096, emptyIsObject: true)
            return try JSONIO.response(
                try await social.invite(caller: caller, expiresInDays: body.expiresInDays), status: .created)
        }
        group.get("invitations/:code") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(
                try await social.preview(code: try context.parameters.require("code"), caller: caller))
        }
        group.delete("invitations/:code") { _, context in
            let caller = try context.requireCaller()
            try await social.revoke(code: try context.parameters.require("code"), caller: caller)
            return Response(status: .noContent)
        }
        group.post("invitations/:code/accept") { _, context in
            let caller = try context.requireCaller()
            guard
                let accepted = try await social.answer(
                    code: try context.parameters.require("code"), accept: true, caller: caller)
            else { throw APIError.notFound("invitation") }
            return try JSONIO.response(accepted)
        }
        group.post("invitations/:code/decline") { _, context in
            let caller = try context.requireCaller()
            try await social.answer(code: try context.parameters.require("code"), accept: false, caller: caller)
            return Response(status: .noContent)
        }
        group.get("friends") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(["friends": try await social.friends(caller: caller)])
        }
        group.get("friends/:friend") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(
                try await social.profile(of: try context.parameters.require("friend"), caller: caller))
        }
        group.delete("friends/:friend") { _, context in
            let caller = try context.requireCaller()
            try await social.remove(friend: try context.parameters.require("friend"), caller: caller)
            return Response(status: .noContent)
        }
        group.post("friends/:friend/nudges") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(
                try await social.nudge(try context.parameters.require("friend"), caller: caller), status: .created)
        }
        group.get("blocks") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(["blocked": try await social.blocks(caller: caller)])
        }
        group.put("blocks/:user") { _, context in
            let caller = try context.requireCaller()
            try await social.block(try context.parameters.require("user"), caller: caller)
            return Response(status: .noContent)
        }
        group.delete("blocks/:user") { _, context in
            let caller = try context.requireCaller()
            try await social.unblock(try context.parameters.require("user"), caller: caller)
            return Response(status: .noContent)
        }
        group.get("sharing") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(try await social.sharing(caller: caller))
        }
        group.put("sharing") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(SharingRequest.self, from: request, limit: 65_536, emptyIsObject: true)
            return try JSONIO.response(
                try await social.setSharing(habits: body.habits, categories: body.categories, caller: caller))
        }
        group.get("posts") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(["posts": try await social.posts(caller: caller)])
        }
        group.post("posts") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(ShareRequest.self, from: request, limit: 4_096)
            let (post, created) = try await social.share(unlock: body.unlock, caller: caller)
            return try JSONIO.response(post, status: created ? .created : .ok)
        }
        group.delete("posts/:owner/:post") { _, context in
            let caller = try context.requireCaller()
            let post = try context.parameters.require("post")
            guard try context.parameters.require("owner") == caller.user else {
                throw APIError.notFound("post '\(post.prefix(64))'")
            }
            try await social.deletePost(post, caller: caller)
            return Response(status: .noContent)
        }
        group.get("feed") { request, context in
            let caller = try context.requireCaller()
            let limit = try request.integer("limit", default: 20, in: 1...100)
            let before = request.uri.queryParameters["before"].map(String.init)
            return try JSONIO.response(try await social.feed(caller: caller, before: before, limit: limit))
        }
        group.put("posts/:owner/:post/reaction") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(ReactionRequest.self, from: request, limit: 4_096)
            let reactions = try await social.react(
                ReactionKind(rawValue: body.reaction.rawValue), to: try context.parameters.require("post"),
                of: try context.parameters.require("owner"), caller: caller)
            return try JSONIO.response(["reactions": reactions])
        }
        group.delete("posts/:owner/:post/reaction") { _, context in
            let caller = try context.requireCaller()
            _ = try await social.react(
                nil, to: try context.parameters.require("post"), of: try context.parameters.require("owner"),
                caller: caller)
            return Response(status: .noContent)
        }
        group.get("posts/:owner/:post/reactions") { _, context in
            let caller = try context.requireCaller()
            let reactions = try await social.reactions(
                to: try context.parameters.require("post"), of: try context.parameters.require("owner"), caller: caller)
            return try JSONIO.response(["reactions": reactions])
        }
        addFamilyRoutes(group)
    }

    /// Subjects' families: each maps HTTP to the ``Families`` use case.
    private func addFamilyRoutes(_ group: RouterGroup<MomentumContext>) {
        let families = server.services.families
        let maxBodyBytes = server.configuration.maxBodyBytes
        group.get("families") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(["families": try await families.list(caller: caller)])
        }
        group.get("families/:owner/:subject") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(
                try await families.detail(
                    owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
                    caller: caller))
        }
        group.post("families/:owner/:subject/invitations") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(FamilyInvitationRequest.self, from: request, limit: 4_096)
            let invitation = try await families.invite(
                owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
                role: FamilyRole(rawValue: body.role.rawValue) ?? .viewer, expiresInDays: body.expiresInDays,
                caller: caller)
            return try JSONIO.response(invitation, status: .created)
        }
        group.get("families/:owner/:subject/invitations") { _, context in
            let caller = try context.requireCaller()
            let invitations = try await families.invitations(
                owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
                caller: caller)
            return try JSONIO.response(["invitations": invitations])
        }
        group.delete("families/:owner/:subject/invitations/:code") { _, context in
            let caller = try context.requireCaller()
            try await families.revokeInvitation(
                code: try context.parameters.require("code"), owner: try context.parameters.require("owner"),
                subject: try context.parameters.require("subject"), caller: caller)
            return Response(status: .noContent)
        }
        group.patch("families/:owner/:subject/members/:member") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(FamilyRoleRequest.self, from: request, limit: 4_096)
            return try JSONIO.response(
                try await families.changeRole(
                    owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
                    member: try context.parameters.require("member"),
                    to: FamilyRole(rawValue: body.role.rawValue) ?? .viewer, caller: caller))
        }
        group.delete("families/:owner/:subject/members/:member") { _, context in
            let caller = try context.requireCaller()
            try await families.remove(
                owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
                member: try context.parameters.require("member"), caller: caller)
            return Response(status: .noContent)
        }
        group.get("families/:owner/:subject/photos/**") { _, context in
            let caller = try context.requireCaller()
            let photo = try await families.photo(
                owner: try context.parameters.require("owner"), subject: try context.parameters.require("subject"),
                path: context.parameters.getCatchAll().joined(separator: "/"), caller: caller)
            return Response(
                status: .ok,
                headers: [.contentType: photo.contentType, .cacheControl: "private, max-age=31536000, immutable"],
                body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes)))
        }
        group.post("families/:owner/:subject/events") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(PushRequest.self, from: request, limit: maxBodyBytes)
            return try JSONIO.response(
                try await families.log(
                    body.events, owner: try context.parameters.require("owner"),
                    subject: try context.parameters.require("subject"), caller: caller))
        }
    }
}
