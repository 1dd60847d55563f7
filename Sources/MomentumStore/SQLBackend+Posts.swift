import Foundation
import MomentumCore

extension SQLBackend {
    // MARK: Posts and feeds

    /// Implements ``MomentumStore`` `share`; see the protocol for its contract.
    public func share(_ post: Post) async throws(StoreError) -> SharedPost {
        var post = post
        post.createdAt = StoreJSON.canonical(post.createdAt)
        post.held = false
        let body = try StoreJSON.encode(post)
        let openFlags = SQLStatement(
            "SELECT COUNT(*) FROM review_flags WHERE user_id = ? AND cleared_at IS NULL", [.text(post.owner)])
        let existing = SQLStatement(
            "SELECT user_id, post_id, created_at, held, body FROM posts WHERE user_id = ? AND post_id = ?",
            [.text(post.owner), .text(post.id)])
        let shared = post
        return try await run(
            StoreProgram(writes: true, user: post.owner) { () throws(StoreError) in
                .query([openFlags, existing]) { rows throws(StoreError) in
                    if let row = rows[1].first {
                        return .done(SharedPost(post: try Self.post(row), created: false, readers: []))
                    }
                    var post = shared
                    post.held = try rows[0][0].int(0, "count") > 0
                    let insert = SQLStatement(
                        """
                        INSERT INTO posts (user_id, post_id, unlock_id, created_at, held, body)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                        [
                            .text(post.owner), .text(post.id), .text(post.unlock.id), .date(post.createdAt),
                            .bool(post.held), .text(body),
                        ])
                    let held = post
                    if held.held {
                        return .execute([insert]) { _ throws(StoreError) in
                            .done(SharedPost(post: held, created: true, readers: []))
                        }
                    }
                    return .execute([insert]) { _ throws(StoreError) in
                        .query(Self.fanOut(owner: held.owner, post: held.id, at: held.createdAt, body: body)) {
                            readers throws(StoreError) in
                            .done(SharedPost(post: held, created: true, readers: try Self.users(readers)))
                        }
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `posts(of:limit:)`; see the protocol for its contract.
    public func posts(of user: String, limit: Int) async throws(StoreError) -> [Post] {
        try await read(
            SQLStatement(
                """
                SELECT user_id, post_id, created_at, held, body FROM posts WHERE user_id = ?
                ORDER BY created_at DESC, post_id DESC LIMIT ?
                """, [.text(user), .int(min(max(limit, 1), 1_000))])
        ).map { row throws(StoreError) in try Self.post(row) }
    }

    /// Implements ``MomentumStore`` `deletePost`; see the protocol for its contract.
    public func deletePost(_ id: String, of user: String) async throws(StoreError) -> [String]? {
        let readers = SQLStatement(
            "DELETE FROM feed_entries WHERE author_id = ? AND post_id = ? RETURNING user_id", [.text(user), .text(id)])
        let post = SQLStatement("DELETE FROM posts WHERE user_id = ? AND post_id = ?", [.text(user), .text(id)])
        return try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .query([readers]) { rows throws(StoreError) in
                    let readers = try rows[0].map { row throws(StoreError) in try row.text(0, "user_id") }
                    return .execute([post]) { counts throws(StoreError) in .done(counts[0] > 0 ? readers : nil) }
                }
            })
    }

    /// Implements ``MomentumStore`` `feed(of:before:limit:)`; see the protocol for its contract.
    ///
    /// One statement (one round trip on PostgreSQL): the page of the reader's feed entries by
    /// their index, each with its author's name and one row per kind of reaction it has.
    public func feed(of reader: String, before cursor: FeedCursor?, limit: Int) async throws(StoreError) -> [FeedItem] {
        var range = "SELECT author_id, post_id, added_at, body FROM feed_entries WHERE user_id = ?"
        var arguments: [SQLValue] = [.text(reader)]
        if let cursor {
            range += " AND (added_at, author_id, post_id) < (?, ?, ?)"
            arguments += [.date(cursor.addedAt), .text(cursor.author), .text(cursor.post)]
        }
        range += " ORDER BY added_at DESC, author_id DESC, post_id DESC LIMIT ?"
        arguments.append(.int(min(max(limit, 1), 200)))
        arguments.append(.text(reader))
        let page = SQLStatement(
            """
            WITH page AS (\(range))
            SELECT page.author_id, page.post_id, page.added_at, page.body, COALESCE(p.display_name, ''),
              r.reaction, COUNT(r.reactor_id), MAX(CASE WHEN r.reactor_id = ? THEN 1 ELSE 0 END)
            FROM page LEFT JOIN profiles p ON p.user_id = page.author_id
            LEFT JOIN reactions r ON r.user_id = page.author_id AND r.post_id = page.post_id
            GROUP BY page.author_id, page.post_id, page.added_at, page.body, p.display_name, r.reaction
            ORDER BY page.added_at DESC, page.author_id DESC, page.post_id DESC
            """, arguments)
        let rows = try await ReplicaReads.allowing { () throws(StoreError) in try await read(page) }
        var items: [FeedItem] = []
        var last: (author: String, post: String)?
        for row in rows {
            let author = try row.text(0, "author_id")
            let post = try row.text(1, "post_id")
            if last?.author != author || last?.post != post {
                var decoded = try StoreJSON.decode(Post.self, try row.text(3, "body"), "a feed entry")
                decoded.held = false
                items.append(
                    FeedItem(
                        post: decoded, authorName: try row.text(4, "name"), reactions: [:], mine: nil,
                        addedAt: try row.date(2, "added_at")))
                last = (author, post)
            }
            guard let reaction = row.optionalText(5), let kind = ReactionKind(rawValue: reaction) else { continue }
            items[items.count - 1].reactions[kind] = Int(try row.int(6, "count"))
            if try row.int(7, "mine") > 0 { items[items.count - 1].mine = kind }
        }
        return items
    }

    /// Implements ``MomentumStore`` `react`; see the protocol for its contract.
    public func react(
        _ reaction: ReactionKind?, to post: String, of owner: String, by reactor: String, at: Date
    ) async throws(StoreError) -> ReactionOutcome? {
        // The reactor sees the post only if it is on their feed (a friend when it was shared,
        // still a friend, not blocked), and nobody reacts to their own.
        let visible = SQLStatement(
            "SELECT 1 FROM feed_entries WHERE user_id = ? AND author_id = ? AND post_id = ?",
            [.text(reactor), .text(owner), .text(post)])
        let previous = SQLStatement(
            "SELECT reaction FROM reactions WHERE user_id = ? AND post_id = ? AND reactor_id = ?",
            [.text(owner), .text(post), .text(reactor)])
        let change =
            reaction.map { kind in
                SQLStatement(
                    """
                    INSERT INTO reactions (user_id, post_id, reactor_id, reaction, created_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (user_id, post_id, reactor_id) DO UPDATE SET
                      reaction = excluded.reaction, created_at = excluded.created_at
                    """,
                    [.text(owner), .text(post), .text(reactor), .text(kind.rawValue), .date(StoreJSON.canonical(at))])
            }
            ?? SQLStatement(
                "DELETE FROM reactions WHERE user_id = ? AND post_id = ? AND reactor_id = ?",
                [.text(owner), .text(post), .text(reactor)])
        let list = Self.reactionList(post: post, owner: owner)
        return try await run(
            StoreProgram(writes: true, user: owner) { () throws(StoreError) in
                .query([visible, previous]) { rows throws(StoreError) in
                    guard owner != reactor, !rows[0].isEmpty else { return .done(nil) }
                    let before = rows[1].first.flatMap { $0.optionalText(0) }.flatMap(ReactionKind.init(rawValue:))
                    return .execute([change]) { _ throws(StoreError) in
                        .query([list]) { reactions throws(StoreError) in
                            .done(ReactionOutcome(previous: before, reactions: try Self.reactions(reactions[0])))
                        }
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `reactions(to:of:)`; see the protocol for its contract.
    public func reactions(to post: String, of owner: String) async throws(StoreError) -> [PostReaction] {
        try Self.reactions(try await read(Self.reactionList(post: post, owner: owner)))
    }

    /// Implements ``MomentumStore`` `canSee`; see the protocol for its contract.
    public func canSee(post: String, of owner: String, reader: String) async throws(StoreError) -> Bool {
        if owner == reader {
            return try await !read(
                SQLStatement("SELECT 1 FROM posts WHERE user_id = ? AND post_id = ?", [.text(owner), .text(post)])
            ).isEmpty
        }
        return try await !read(
            SQLStatement(
                "SELECT 1 FROM feed_entries WHERE user_id = ? AND author_id = ? AND post_id = ?",
                [.text(reader), .text(owner), .text(post)])
        ).isEmpty
    }

    // MARK: Review

    /// Implements ``MomentumStore`` `clearReviewFlag`; see the protocol for its contract.
    public func clearReviewFlag(
        _ id: String, of user: String, at: Date
    ) async throws(StoreError) -> ClearedFlag? {
        let clear = SQLStatement(
            "UPDATE review_flags SET cleared_at = ? WHERE user_id = ? AND flag_id = ? AND cleared_at IS NULL",
            [.date(StoreJSON.canonical(at)), .text(user), .text(id)])
        let open = SQLStatement(
            "SELECT COUNT(*) FROM review_flags WHERE user_id = ? AND cleared_at IS NULL", [.text(user)])
        let release = SQLStatement(
            "UPDATE posts SET held = 0 WHERE user_id = ? AND held = 1 RETURNING post_id, created_at, body",
            [.text(user)])
        return try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .execute([clear]) { cleared throws(StoreError) in
                    guard cleared[0] > 0 else { return .done(nil) }
                    return .query([open]) { rows throws(StoreError) in
                        let remaining = Int(try rows[0][0].int(0, "count"))
                        guard remaining == 0 else { return .done(ClearedFlag(openFlags: remaining, released: [:])) }
                        return .query([release]) { released throws(StoreError) in
                            var fanOuts: [SQLStatement] = []
                            var posts: [String] = []
                            for row in released[0] {
                                let post = try row.text(0, "post_id")
                                posts.append(post)
                                fanOuts += Self.fanOut(
                                    owner: user, post: post, at: try row.date(1, "created_at"),
                                    body: try row.text(2, "body"))
                            }
                            guard !fanOuts.isEmpty else { return .done(ClearedFlag(openFlags: 0, released: [:])) }
                            let ids = posts
                            return .query(fanOuts) { readers throws(StoreError) in
                                var released: [String: [String]] = [:]
                                for (index, rows) in readers.enumerated() {
                                    released[ids[index / 2], default: []] += try Self.users([rows])
                                }
                                return .done(ClearedFlag(openFlags: 0, released: released))
                            }
                        }
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `openReviewFlagCount`; see the protocol for its contract.
    public func openReviewFlagCount(of user: String) async throws(StoreError) -> Int {
        Int(
            try await read(
                SQLStatement(
                    "SELECT COUNT(*) FROM review_flags WHERE user_id = ? AND cleared_at IS NULL", [.text(user)])
            ).first?.int(0, "count") ?? 0)
    }
}
