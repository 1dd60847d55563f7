import Foundation
import MomentumAPI
import OpenAPIRuntime

// Friends, nudges, blocks, and what the user shares with friends. Online operations.

extension MomentumClient {
    /// The user's friends, the newest first.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func friends() async throws -> [Components.Schemas.Friend] {
        try await perform("listing friends") {
            try await api.listFriends()
        } success: {
            try $0.ok.body.json.friends
        }
    }

    /// A friend's shared habits with their current streaks (as the server evaluates them), achievements in the categories they share, and posts.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func friend(_ user: String) async throws -> Components.Schemas.FriendProfile {
        try await perform("reading a friend's profile") {
            try await api.friendProfile(path: .init(friend: user))
        } success: {
            try $0.ok.body.json
        }
    }

    /// Ends a friendship, on both sides.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func removeFriend(_ user: String) async throws {
        try await perform("removing a friend") {
            try await api.removeFriend(path: .init(friend: user))
        } success: { _ in
        }
    }

    /// Cheers on a friend whose shared streak is at risk today (once a day per friend, never more than they take).
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func nudge(_ user: String) async throws -> Components.Schemas.Nudge {
        try await perform("nudging a friend") {
            try await api.nudgeFriend(path: .init(friend: user))
        } success: {
            try $0.created.body.json
        }
    }

    /// Whom the user blocked.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func blocked() async throws -> [Components.Schemas.BlockedUser] {
        try await perform("listing blocks") {
            try await api.listBlocks()
        } success: {
            try $0.ok.body.json.blocked
        }
    }

    /// Blocks someone: no friendship, invitation, post or reaction between the two; they are not told.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func block(_ user: String) async throws {
        try await perform("blocking") {
            try await api.blockUser(path: .init(user: user))
        } success: { _ in
        }
    }

    /// Lifts a block.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func unblock(_ user: String) async throws {
        try await perform("unblocking") {
            try await api.unblockUser(path: .init(user: user))
        } success: { _ in
        }
    }

    /// What the user shares with friends, and what they could.
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    public func sharing() async throws -> Components.Schemas.Sharing {
        try await perform("reading what is shared") {
            try await api.getSharing()
        } success: {
            try $0.ok.body.json
        }
    }

    /// Chooses the habits and achievement categories friends see (`nil` keeps a list as it is).
    ///
    /// - Throws: ``ClientError`` (`not_found` for anything the user may not see), or
    ///   ``ClientError/offline``.
    @discardableResult
    public func share(habits: [String]? = nil, categories: [String]? = nil) async throws -> Components.Schemas.Sharing {
        try await perform("changing what is shared") {
            try await api.setSharing(body: .json(.init(categories: categories, habits: habits)))
        } success: {
            try $0.ok.body.json
        }
    }
}
