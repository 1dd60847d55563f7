import Crypto
import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

/// Shared achievements: posts, the feed, reactions, and the held posts a cleared review flag releases.
extension Social {
    // MARK: Posts

    /// Shares an achievement the server derived (seed 004 R8.1, R8.2).
    ///
    /// - Returns: The post, and whether this share made it.
    /// - Throws: `.notFound` for an achievement the caller does not have.
    public func share(unlock id: String, caller: Caller) async throws -> (PostView, created: Bool) {
        let now = now()
        let found = try await store.evaluate(caller.user) { engine, profile -> (Unlock, String?, String?)? in
            guard let unlock = engine.unlocks.first(where: { $0.id == id }) else { return nil }
            let habitName = unlock.habit.flatMap { habit in
                engine.state(now: now, profile: profile, days: 1).habits.first { $0.definition.id == habit }?
                    .definition.name
            }
            let subjectName = unlock.subject.flatMap { engine.achievements.subjects[$0]?.name }
            return (unlock, habitName, subjectName)
        }
        guard let (unlock, habitName, subjectName) = found else {
            throw ServiceError.notFound("achievement '\(id.prefix(128))'")
        }
        let post = Post(
            owner: caller.user, id: Self.postID(unlock.id), unlock: unlock, habitName: habitName,
            subjectName: subjectName, createdAt: now)
        let shared = try await store.share(post)
        for reader in shared.readers { changes.publish(Change(kind: "feed", at: post.createdAt), to: reader) }
        return (PostView(shared.post), shared.created)
    }

    /// The post id of an achievement: the same every time it is shared.
    public static func postID(_ unlock: String) -> String {
        "p_" + SHA256.hash(data: Data(unlock.utf8)).prefix(10).map { String(format: "%02x", $0) }.joined()
    }

    /// The caller's own posts, held ones included.
    public func posts(caller: Caller) async throws -> [PostView] {
        try await store.posts(of: caller.user, limit: 200).map(PostView.init)
    }

    /// Takes a post back from every feed.
    public func deletePost(_ id: String, caller: Caller) async throws {
        guard let readers = try await store.deletePost(id, of: caller.user) else {
            throw ServiceError.notFound("post '\(id.prefix(64))'")
        }
        let now = now()
        for reader in readers { changes.publish(Change(kind: "feed", at: now), to: reader) }
    }

    /// A page of the caller's feed.
    public func feed(caller: Caller, before: String?, limit: Int) async throws -> FeedView {
        let cursor = try before.map(Self.feedPosition)
        let items = try await store.feed(of: caller.user, before: cursor, limit: limit + 1)
        let page = items.prefix(limit)
        return FeedView(
            items: page.map(FeedItemView.init), next: items.count > limit ? page.last.map(Self.feedCursor) : nil)
    }

    static func feedCursor(_ item: FeedItem) -> String {
        let millis = Int64((item.addedAt.timeIntervalSince1970 * 1000).rounded())
        let raw = "\(millis)~\(item.post.owner)~\(item.post.id)"
        return Data(raw.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func feedPosition(_ cursor: String) throws -> FeedCursor {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let invalid = ServiceError.invalid("is not a cursor this server gave", field: "before")
        guard cursor.utf8.count <= 512, let data = Data(base64Encoded: base64),
            let raw = String(data: data, encoding: .utf8)
        else { throw invalid }
        let parts = raw.split(separator: "~", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let millis = Int64(parts[0]), (0...253_402_300_799_000).contains(millis),
            !parts[1].isEmpty, !parts[2].isEmpty
        else { throw invalid }
        return FeedCursor(
            addedAt: Date(timeIntervalSince1970: Double(millis) / 1000), author: String(parts[1]),
            post: String(parts[2]))
    }

    // MARK: Reactions

    /// Sets the caller's reaction to a friend's post and tells its owner: the first
    /// reactions of a day make one notification, later ones regroup it.
    ///
    /// - Throws: `.notFound` when the caller cannot see the post (or it is their own).
    public func react(
        _ reaction: ReactionKind?, to post: String, of owner: String, caller: Caller
    ) async throws -> [PostReaction] {
        try actions.check("react:" + caller.user, scope: "reacting")
        let now = now()
        guard let outcome = try await store.react(reaction, to: post, of: owner, by: caller.user, at: now) else {
            throw ServiceError.notFound("post '\(post.prefix(64))'")
        }
        changes.publish(Change(kind: "feed", at: now), to: owner)
        changes.publish(Change(kind: "feed", at: now), to: caller.user)
        if reaction != nil, outcome.previous == nil, !outcome.reactions.isEmpty {
            try await notifications.reactions(outcome.reactions, to: post, of: owner, now: now)
        }
        return outcome.reactions
    }

    /// Who reacted to a post the caller can see.
    public func reactions(to post: String, of owner: String, caller: Caller) async throws -> [PostReaction] {
        guard try await store.canSee(post: post, of: owner, reader: caller.user) else {
            throw ServiceError.notFound("post '\(post.prefix(64))'")
        }
        return try await store.reactions(to: post, of: owner)
    }

    // MARK: Review

    /// Clears a review flag (the operator's); with the user's last one, their held posts
    /// reach their friends.
    public func clearFlag(_ id: String, of user: String) async throws -> ClearedFlagView {
        guard let cleared = try await store.clearReviewFlag(id, of: user, at: now()) else {
            throw ServiceError.notFound("open review flag '\(id.prefix(64))' of '\(user.prefix(64))'")
        }
        let now = now()
        let readers = Set(cleared.released.values.flatMap { $0 })
        for reader in readers { changes.publish(Change(kind: "feed", at: now), to: reader) }
        return ClearedFlagView(
            openFlags: cleared.openFlags, releasedPosts: cleared.released.count, readers: readers.count)
    }
}
