import Foundation
import MomentumAPI
import OpenAPIRuntime

// Posts of achievements, the feed of friends' posts, and reactions to them. Online operations.

extension MomentumClient {
    /// The user's own posts, held ones included.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func posts() async throws -> [Components.Schemas.Post] {
        try await perform("listing posts") {
            try await api.listPosts()
        } success: {
            try $0.ok.body.json.posts
        }
    }

    /// Shares an achievement the server derived with friends; sharing it again answers the same post.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func sharePost(unlock: String) async throws -> Components.Schemas.Post {
        try await perform("sharing an achievement") {
            try await api.sharePost(body: .json(.init(unlock: unlock)))
        } success: {
            if case .created(let r) = $0 { try r.body.json } else { try $0.ok.body.json }
        }
    }

    /// Takes one of the user's posts back, from every feed.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func deletePost(_ post: String, owner: String) async throws {
        try await perform("deleting a post") {
            try await api.deletePost(path: .init(owner: owner, post: post))
        } success: { _ in
        }
    }

    /// A page of the feed: friends' posts and the user's own, newest first; pass `next` as `before` for the next page.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func feed(before: String? = nil, limit: Int? = nil) async throws -> Components.Schemas.Feed {
        try await perform("reading the feed") {
            try await api.getFeed(query: .init(before: before, limit: limit))
        } success: {
            try $0.ok.body.json
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
        try await perform("reacting") {
            try await api.reactToPost(path: .init(owner: owner, post: post), body: .json(.init(reaction: reaction)))
        } success: {
            try $0.ok.body.json.reactions
        }
    }

    /// Takes the user's reaction to a post back.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func removeReaction(to post: String, of owner: String) async throws {
        try await perform("removing a reaction") {
            try await api.removeReaction(path: .init(owner: owner, post: post))
        } success: { _ in
        }
    }

    /// Who reacted to a post the user can see, the newest first.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func reactions(to post: String, of owner: String) async throws -> [Components.Schemas.PostReaction] {
        try await perform("listing reactions") {
            try await api.listReactions(path: .init(owner: owner, post: post))
        } success: {
            try $0.ok.body.json.reactions
        }
    }
}
