import Foundation
import MomentumCore

extension SQLBackend {
    // MARK: Invitations

    /// Implements ``MomentumStore`` `createInvitation`; see the protocol for its contract.
    public func createInvitation(_ invitation: Invitation) async throws(StoreError) {
        _ = try await write(
            invitation.inviter,
            SQLStatement(
                """
                INSERT INTO invitations (code, user_id, kind, subject_owner, subject_id, role, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(invitation.code), .text(invitation.inviter), .text(invitation.kind.rawValue),
                    .optional(invitation.subjectOwner), .optional(invitation.subject),
                    .optional(invitation.role?.rawValue), .date(StoreJSON.canonical(invitation.createdAt)),
                    .date(StoreJSON.canonical(invitation.expiresAt)),
                ]))
    }

    /// Implements ``MomentumStore`` `invitation(code:)`; see the protocol for its contract.
    public func invitation(code: String) async throws(StoreError) -> Invitation? {
        try await read(
            SQLStatement("SELECT \(Self.invitationColumns) FROM invitations WHERE code = ?", [.text(code)])
        ).first.map { row throws(StoreError) in try Self.invitation(row) }
    }

    /// Implements ``MomentumStore`` `invitations(of:since:limit:)`; see the protocol for its contract.
    public func invitations(of user: String, since: Date, limit: Int) async throws(StoreError) -> [Invitation] {
        try await read(
            SQLStatement(
                """
                SELECT \(Self.invitationColumns) FROM invitations WHERE user_id = ? AND created_at >= ?
                ORDER BY created_at DESC, code DESC LIMIT ?
                """, [.text(user), .date(since), .int(min(max(limit, 1), 1_000))])
        ).map { row throws(StoreError) in try Self.invitation(row) }
    }

    /// Implements ``MomentumStore`` `revokeInvitation`; see the protocol for its contract.
    public func revokeInvitation(code: String, of user: String, at: Date) async throws(StoreError) -> Bool {
        try await write(
            user,
            SQLStatement(
                """
                UPDATE invitations SET revoked_at = ?
                WHERE code = ? AND user_id = ? AND revoked_at IS NULL AND answer IS NULL
                """, [.date(StoreJSON.canonical(at)), .text(code), .text(user)])) > 0
    }

    /// Implements ``MomentumStore`` `familyInvitations`; see the protocol for its contract.
    public func familyInvitations(
        of subject: String, owner: String, at: Date, limit: Int
    ) async throws(StoreError) -> [Invitation] {
        // Led by the makers who may still invite (the owner, the current co-owners), so the
        // lookup goes through the inviters' index, not every invitation of the server.
        try await read(
            SQLStatement(
                """
                SELECT \(Self.invitationColumns) FROM invitations
                WHERE (user_id = ? OR user_id IN (
                    SELECT member_id FROM subject_members WHERE user_id = ? AND subject_id = ? AND role = ?
                  ))
                  AND kind = 'family' AND subject_owner = ? AND subject_id = ?
                  AND answer IS NULL AND revoked_at IS NULL AND expires_at > ?
                ORDER BY created_at DESC, code DESC LIMIT ?
                """,
                [
                    .text(owner), .text(owner), .text(subject), .text(FamilyRole.coOwner.rawValue), .text(owner),
                    .text(subject), .date(at), .int(min(max(limit, 1), 1_000)),
                ])
        ).map { row throws(StoreError) in try Self.invitation(row) }
    }

    /// Implements ``MomentumStore`` `revokeFamilyInvitation`; see the protocol for its contract.
    public func revokeFamilyInvitation(
        code: String, subject: String, owner: String, at: Date
    ) async throws(StoreError) -> Bool {
        try await write(
            owner,
            SQLStatement(
                """
                UPDATE invitations SET revoked_at = ?
                WHERE code = ? AND kind = 'family' AND subject_owner = ? AND subject_id = ?
                  AND revoked_at IS NULL AND answer IS NULL
                """, [.date(StoreJSON.canonical(at)), .text(code), .text(owner), .text(subject)])) > 0
    }

    /// Implements ``MomentumStore`` `answerInvitation`; see the protocol for its contract.
    public func answerInvitation(
        code: String, by user: String, accept: Bool, at: Date
    ) async throws(StoreError) -> InvitationOutcome {
        let at = StoreJSON.canonical(at)
        let select = SQLStatement("SELECT \(Self.invitationColumns) FROM invitations WHERE code = ?", [.text(code)])
        return try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .query([select]) { rows throws(StoreError) in
                    guard let row = rows[0].first else { return .done(.unavailable) }
                    let invitation = try Self.invitation(row)
                    guard invitation.state(at: at) == .pending, invitation.inviter != user else {
                        return .done(.unavailable)
                    }
                    let owner = invitation.subjectOwner ?? invitation.inviter
                    var checks = [Self.blockedEitherWay(invitation.inviter, user)]
                    if invitation.kind == .family, let subject = invitation.subject {
                        checks.append(Self.blockedEitherWay(owner, user))
                        checks.append(
                            SQLStatement(
                                "SELECT 1 FROM subjects WHERE user_id = ? AND subject_id = ?",
                                [.text(owner), .text(subject)]))
                        // An invitation carries its maker's authority only while they hold it:
                        // the owner always, a co-owner while they still are one.
                        checks.append(
                            Self.managesFamily(invitation.inviter, subject: subject, owner: owner))
                        checks.append(
                            SQLStatement(
                                "SELECT 1 FROM subject_members WHERE user_id = ? AND subject_id = ? AND member_id = ?",
                                [.text(owner), .text(subject), .text(user)]))
                    } else {
                        checks.append(
                            SQLStatement(
                                "SELECT 1 FROM friendships WHERE user_id = ? AND friend_id = ?",
                                [.text(user), .text(invitation.inviter)]))
                    }
                    return .query(checks) { found throws(StoreError) in
                        guard found[0].isEmpty else { return .done(.unavailable) }
                        if invitation.kind == .family {
                            guard found[1].isEmpty, !found[2].isEmpty, !found[3].isEmpty, owner != user else {
                                return .done(.unavailable)
                            }
                        }
                        if accept && !found[found.count - 1].isEmpty { return .done(.alreadyConnected) }
                        var answered = invitation
                        answered.answer = accept ? .accepted : .declined
                        answered.answeredBy = user
                        answered.answeredAt = at
                        let outcome = answered
                        let mark = SQLStatement(
                            """
                            UPDATE invitations SET answer = ?, answered_by = ?, answered_at = ?
                            WHERE code = ? AND answer IS NULL AND revoked_at IS NULL
                            """, [.text(accept ? "accepted" : "declined"), .text(user), .date(at), .text(code)])
                        return .execute([mark]) { marked throws(StoreError) in
                            // Another answer came first.
                            guard marked[0] == 1 else { return .done(.unavailable) }
                            guard accept else { return .done(.declined(outcome)) }
                            let joins =
                                invitation.kind == .family
                                ? Self.joinFamily(
                                    owner: owner, subject: invitation.subject ?? "", member: user,
                                    role: invitation.role ?? .viewer, at: at)
                                : Self.befriend(invitation.inviter, user, at: at)
                            return .execute(joins) { _ throws(StoreError) in .done(.accepted(outcome)) }
                        }
                    }
                }
            })
    }

    // MARK: Friends

    /// Implements ``MomentumStore`` `friends(of:)`; see the protocol for its contract.
    public func friends(of user: String) async throws(StoreError) -> [Friend] {
        try await friendRows("f.user_id = ? ORDER BY f.since DESC, f.friend_id", [.text(user)])
    }

    /// Implements ``MomentumStore`` `friend(_:of:)`; see the protocol for its contract.
    public func friend(_ other: String, of user: String) async throws(StoreError) -> Friend? {
        try await friendRows("f.user_id = ? AND f.friend_id = ?", [.text(user), .text(other)]).first
    }

    /// A user's friendship rows matching `condition`, with each friend's name.
    private func friendRows(_ condition: String, _ arguments: [SQLValue]) async throws(StoreError) -> [Friend] {
        try await read(
            SQLStatement(
                """
                SELECT f.friend_id, COALESCE(p.display_name, ''), f.since
                FROM friendships f LEFT JOIN profiles p ON p.user_id = f.friend_id WHERE \(condition)
                """, arguments)
        ).map { row throws(StoreError) in
            Friend(
                user: try row.text(0, "friend_id"), displayName: try row.text(1, "name"),
                since: try row.date(2, "since"))
        }
    }

    /// Implements ``MomentumStore`` `removeFriend`; see the protocol for its contract.
    public func removeFriend(_ other: String, of user: String) async throws(StoreError) -> Bool {
        try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .execute(Self.unfriend(user, other)) { counts throws(StoreError) in .done(counts[0] > 0) }
            })
    }

    // MARK: Blocks

    /// Implements ``MomentumStore`` `block`; see the protocol for its contract.
    public func block(_ other: String, by user: String, at: Date) async throws(StoreError) {
        let block = SQLStatement(
            "INSERT INTO blocks (user_id, blocked_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            [.text(user), .text(other), .date(StoreJSON.canonical(at))])
        // Blocking ends the friendship, takes each one's reactions off the other's posts,
        // ends each one's place in the other's families and withdraws the invitations each
        // made to the other's families. (Any other open invitation of one is refused to
        // the other when answered: a code names no invitee.)
        let statements =
            [block] + Self.unfriend(user, other) + [
                SQLStatement(
                    "DELETE FROM reactions WHERE user_id = ? AND reactor_id = ?", [.text(user), .text(other)]),
                SQLStatement(
                    "DELETE FROM reactions WHERE user_id = ? AND reactor_id = ?", [.text(other), .text(user)]),
            ] + Self.leaveFamilies(of: user, member: other, at: at)
            + Self.leaveFamilies(of: other, member: user, at: at)
        _ = try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .execute(statements) { _ throws(StoreError) in .done(true) }
            })
    }

    /// Implements ``MomentumStore`` `unblock`; see the protocol for its contract.
    public func unblock(_ other: String, by user: String) async throws(StoreError) -> Bool {
        try await write(
            user,
            SQLStatement("DELETE FROM blocks WHERE user_id = ? AND blocked_id = ?", [.text(user), .text(other)])) > 0
    }

    /// Implements ``MomentumStore`` `blocks(of:)`; see the protocol for its contract.
    public func blocks(of user: String) async throws(StoreError) -> [BlockedUser] {
        try await read(
            SQLStatement(
                """
                SELECT b.blocked_id, COALESCE(p.display_name, ''), b.created_at
                FROM blocks b LEFT JOIN profiles p ON p.user_id = b.blocked_id
                WHERE b.user_id = ? ORDER BY b.created_at DESC, b.blocked_id
                """, [.text(user)])
        ).map { row throws(StoreError) in
            BlockedUser(
                user: try row.text(0, "blocked_id"), displayName: try row.text(1, "name"),
                since: try row.date(2, "created_at"))
        }
    }

    /// Implements ``MomentumStore`` `isBlocked(between:and:)`; see the protocol for its contract.
    public func isBlocked(between user: String, and other: String) async throws(StoreError) -> Bool {
        try await !read(Self.blockedEitherWay(user, other)).isEmpty
    }

    // MARK: Sharing

    /// Implements ``MomentumStore`` `sharing(of:)`; see the protocol for its contract.
    public func sharing(of user: String) async throws(StoreError) -> SharingSettings {
        let rows = try await read(
            SQLStatement("SELECT scope, item_id FROM sharing WHERE user_id = ? ORDER BY scope, item_id", [.text(user)]))
        var habits: [String] = []
        var categories: [String] = []
        for row in rows {
            let item = try row.text(1, "item_id")
            if try row.text(0, "scope") == "habit" { habits.append(item) } else { categories.append(item) }
        }
        return SharingSettings(habits: habits, categories: categories)
    }

    /// Implements ``MomentumStore`` `setSharing`; see the protocol for its contract.
    public func setSharing(_ settings: SharingSettings, of user: String) async throws(StoreError) {
        var statements = [SQLStatement("DELETE FROM sharing WHERE user_id = ?", [.text(user)])]
        let items = settings.habits.map { ("habit", $0) } + settings.categories.map { ("category", $0) }
        for (scope, item) in items {
            statements.append(
                SQLStatement(
                    "INSERT INTO sharing (user_id, scope, item_id) VALUES (?, ?, ?)",
                    [.text(user), .text(scope), .text(item)]))
        }
        let all = statements
        _ = try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .execute(all) { _ throws(StoreError) in .done(true) }
            })
    }

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
        let rows = try await read(page)
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

    // MARK: Families

    /// Implements ``MomentumStore`` `familyMembers`; see the protocol for its contract.
    public func familyMembers(of subject: String, owner: String) async throws(StoreError) -> [FamilyMember] {
        try await read(
            SQLStatement(
                """
                SELECT m.member_id, COALESCE(p.display_name, ''), m.role, m.since
                FROM subject_members m LEFT JOIN profiles p ON p.user_id = m.member_id
                WHERE m.user_id = ? AND m.subject_id = ? ORDER BY m.since, m.member_id
                """, [.text(owner), .text(subject)])
        ).map { row throws(StoreError) in
            FamilyMember(
                owner: owner, subject: subject, user: try row.text(0, "member_id"),
                displayName: try row.text(1, "name"),
                role: FamilyRole(rawValue: try row.text(2, "role")) ?? .viewer, since: try row.date(3, "since"))
        }
    }

    /// Implements ``MomentumStore`` `memberships(of:)`; see the protocol for its contract.
    public func memberships(of user: String) async throws(StoreError) -> [Membership] {
        try await read(
            SQLStatement(
                """
                SELECT m.owner_id, COALESCE(p.display_name, ''), m.subject_id, m.role, m.since
                FROM memberships m LEFT JOIN profiles p ON p.user_id = m.owner_id
                WHERE m.user_id = ? ORDER BY m.since, m.owner_id, m.subject_id
                """, [.text(user)])
        ).map { row throws(StoreError) in
            Membership(
                owner: try row.text(0, "owner_id"), ownerName: try row.text(1, "name"),
                subject: try row.text(2, "subject_id"), role: FamilyRole(rawValue: try row.text(3, "role")) ?? .viewer,
                since: try row.date(4, "since"))
        }
    }

    /// Implements ``MomentumStore`` `familyRole`; see the protocol for its contract.
    public func familyRole(of member: String, subject: String, owner: String) async throws(StoreError) -> FamilyRole? {
        try await read(
            SQLStatement(
                "SELECT role FROM subject_members WHERE user_id = ? AND subject_id = ? AND member_id = ?",
                [.text(owner), .text(subject), .text(member)])
        ).first.flatMap { $0.optionalText(0) }.flatMap(FamilyRole.init(rawValue:))
    }

    /// Implements ``MomentumStore`` `setFamilyRole`; see the protocol for its contract.
    public func setFamilyRole(
        _ role: FamilyRole, of member: String, subject: String, owner: String, at: Date
    ) async throws(StoreError) -> Bool {
        let withdraw = Self.withdrawFamilyInvitations(by: member, subject: subject, owner: owner, at: at)
        return try await run(
            StoreProgram(writes: true, user: owner) { () throws(StoreError) in
                .execute([
                    SQLStatement(
                        "UPDATE subject_members SET role = ? WHERE user_id = ? AND subject_id = ? AND member_id = ?",
                        [.text(role.rawValue), .text(owner), .text(subject), .text(member)]),
                    SQLStatement(
                        "UPDATE memberships SET role = ? WHERE user_id = ? AND owner_id = ? AND subject_id = ?",
                        [.text(role.rawValue), .text(member), .text(owner), .text(subject)]),
                ]) { counts throws(StoreError) in
                    guard counts[0] > 0 else { return .done(false) }
                    guard !role.manages else { return .done(true) }
                    return .execute([withdraw]) { _ throws(StoreError) in .done(true) }
                }
            })
    }

    /// Implements ``MomentumStore`` `removeFamilyMember`; see the protocol for its contract.
    public func removeFamilyMember(
        _ member: String, subject: String, owner: String, at: Date
    ) async throws(StoreError) -> Bool {
        try await run(
            StoreProgram(writes: true, user: owner) { () throws(StoreError) in
                .execute([
                    SQLStatement(
                        "DELETE FROM subject_members WHERE user_id = ? AND subject_id = ? AND member_id = ?",
                        [.text(owner), .text(subject), .text(member)]),
                    SQLStatement(
                        "DELETE FROM memberships WHERE user_id = ? AND owner_id = ? AND subject_id = ?",
                        [.text(member), .text(owner), .text(subject)]),
                    Self.withdrawFamilyInvitations(by: member, subject: subject, owner: owner, at: at),
                ]) { counts throws(StoreError) in .done(counts[0] > 0) }
            })
    }

    // MARK: Statements

    /// One reading statement's rows.
    func read(_ statement: SQLStatement) async throws(StoreError) -> [SQLRow] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0]) }
            })
    }

    static var invitationColumns: String {
        """
        code, user_id, kind, subject_owner, subject_id, role, created_at, expires_at, revoked_at, answer,
        answered_by, answered_at
        """
    }

    static func invitation(_ row: SQLRow) throws(StoreError) -> Invitation {
        let kind = try row.text(2, "kind")
        guard let kind = InvitationKind(rawValue: kind) else { throw .corrupt("an invitation of kind '\(kind)'") }
        return Invitation(
            code: try row.text(0, "code"), inviter: try row.text(1, "user_id"), kind: kind,
            subjectOwner: row.optionalText(3), subject: row.optionalText(4),
            role: row.optionalText(5).flatMap(FamilyRole.init(rawValue:)), createdAt: try row.date(6, "created_at"),
            expiresAt: try row.date(7, "expires_at"), revokedAt: row.optionalDate(8),
            answer: row.optionalText(9).flatMap(Invitation.Answer.init(rawValue:)), answeredBy: row.optionalText(10),
            answeredAt: row.optionalDate(11))
    }

    static func post(_ row: SQLRow) throws(StoreError) -> Post {
        var post = try StoreJSON.decode(Post.self, try row.text(4, "body"), "a post")
        post.owner = try row.text(0, "user_id")
        post.id = try row.text(1, "post_id")
        post.createdAt = try row.date(2, "created_at")
        post.held = try row.int(3, "held") != 0
        return post
    }

    /// A row when `user` manages a subject's family: its owner, or one of its co-owners.
    static func managesFamily(_ user: String, subject: String, owner: String) -> SQLStatement {
        user == owner
            ? SQLStatement(
                "SELECT 1 FROM subjects WHERE user_id = ? AND subject_id = ?", [.text(owner), .text(subject)])
            : SQLStatement(
                """
                SELECT 1 FROM subject_members WHERE user_id = ? AND subject_id = ? AND member_id = ? AND role = ?
                """, [.text(owner), .text(subject), .text(user), .text(FamilyRole.coOwner.rawValue)])
    }

    /// The statement that withdraws the open invitations `maker` made to a subject's
    /// family (`subject` `nil`: to every subject of `owner`'s).
    static func withdrawFamilyInvitations(
        by maker: String, subject: String?, owner: String, at: Date
    ) -> SQLStatement {
        SQLStatement(
            """
            UPDATE invitations SET revoked_at = ?
            WHERE user_id = ? AND kind = 'family' AND subject_owner = ?\(subject == nil ? "" : " AND subject_id = ?")
              AND revoked_at IS NULL AND answer IS NULL
            """,
            [.date(StoreJSON.canonical(at)), .text(maker), .text(owner)] + (subject.map { [.text($0)] } ?? []))
    }

    /// The statements that take `member` out of every family of `owner`'s subjects and
    /// withdraw the invitations they made to them.
    static func leaveFamilies(of owner: String, member: String, at: Date) -> [SQLStatement] {
        [
            SQLStatement(
                "DELETE FROM subject_members WHERE user_id = ? AND member_id = ?", [.text(owner), .text(member)]),
            SQLStatement("DELETE FROM memberships WHERE user_id = ? AND owner_id = ?", [.text(member), .text(owner)]),
            withdrawFamilyInvitations(by: member, subject: nil, owner: owner, at: at),
        ]
    }

    static func blockedEitherWay(_ user: String, _ other: String) -> SQLStatement {
        SQLStatement(
            """
            SELECT 1 FROM blocks WHERE (user_id = ? AND blocked_id = ?) OR (user_id = ? AND blocked_id = ?)
            """, [.text(user), .text(other), .text(other), .text(user)])
    }

    /// How many of a user's most recent posts a new friend's feed receives.
    static var postsForANewFriend: Int { 20 }

    /// The statements that make two people friends: a row for each side, and each one's
    /// most recent posts on the other's feed.
    static func befriend(_ user: String, _ other: String, at: Date) -> [SQLStatement] {
        var statements: [SQLStatement] = []
        for (reader, author) in [(user, other), (other, user)] {
            statements.append(
                SQLStatement(
                    "INSERT INTO friendships (user_id, friend_id, since) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    [.text(reader), .text(author), .date(at)]))
            statements.append(
                SQLStatement(
                    """
                    INSERT INTO feed_entries (user_id, author_id, post_id, added_at, body)
                    SELECT ?, recent.user_id, recent.post_id, recent.created_at, recent.body FROM (
                      SELECT user_id, post_id, created_at, body FROM posts WHERE user_id = ? AND held = 0
                      ORDER BY created_at DESC LIMIT \(postsForANewFriend)
                    ) AS recent WHERE true ON CONFLICT DO NOTHING
                    """, [.text(reader), .text(author)]))
        }
        return statements
    }

    /// The statements that end a friendship: both rows, and each one's posts on the other's feed.
    static func unfriend(_ user: String, _ other: String) -> [SQLStatement] {
        [
            SQLStatement(
                "DELETE FROM friendships WHERE (user_id = ? AND friend_id = ?) OR (user_id = ? AND friend_id = ?)",
                [.text(user), .text(other), .text(other), .text(user)]),
            SQLStatement(
                "DELETE FROM feed_entries WHERE (user_id = ? AND author_id = ?) OR (user_id = ? AND author_id = ?)",
                [.text(user), .text(other), .text(other), .text(user)]),
        ]
    }

    /// The statements that put a post on its author's feed and each friend's; each returns
    /// the readers it reached.
    static func fanOut(owner: String, post: String, at: Date, body: String) -> [SQLStatement] {
        [
            SQLStatement(
                """
                INSERT INTO feed_entries (user_id, author_id, post_id, added_at, body) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING RETURNING user_id
                """, [.text(owner), .text(owner), .text(post), .date(at), .text(body)]),
            SQLStatement(
                """
                INSERT INTO feed_entries (user_id, author_id, post_id, added_at, body)
                SELECT friend_id, ?, ?, ?, ? FROM friendships WHERE user_id = ?
                ON CONFLICT DO NOTHING RETURNING user_id
                """, [.text(owner), .text(post), .date(at), .text(body), .text(owner)]),
        ]
    }

    static func joinFamily(
        owner: String, subject: String, member: String, role: FamilyRole, at: Date
    ) -> [SQLStatement] {
        [
            SQLStatement(
                """
                INSERT INTO subject_members (user_id, subject_id, member_id, role, since) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """, [.text(owner), .text(subject), .text(member), .text(role.rawValue), .date(at)]),
            SQLStatement(
                """
                INSERT INTO memberships (user_id, owner_id, subject_id, role, since) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """, [.text(member), .text(owner), .text(subject), .text(role.rawValue), .date(at)]),
        ]
    }

    static func reactionList(post: String, owner: String) -> SQLStatement {
        SQLStatement(
            """
            SELECT r.reactor_id, COALESCE(p.display_name, ''), r.reaction, r.created_at
            FROM reactions r LEFT JOIN profiles p ON p.user_id = r.reactor_id
            WHERE r.user_id = ? AND r.post_id = ? ORDER BY r.created_at DESC, r.reactor_id
            """, [.text(owner), .text(post)])
    }

    static func reactions(_ rows: [SQLRow]) throws(StoreError) -> [PostReaction] {
        var reactions: [PostReaction] = []
        for row in rows {
            guard let kind = ReactionKind(rawValue: try row.text(2, "reaction")) else { continue }
            reactions.append(
                PostReaction(
                    user: try row.text(0, "reactor_id"), displayName: try row.text(1, "name"), reaction: kind,
                    at: try row.date(3, "created_at")))
        }
        return reactions
    }

    /// The user ids in the first column of every row of every result.
    static func users(_ results: [[SQLRow]]) throws(StoreError) -> [String] {
        var users: [String] = []
        for rows in results {
            for row in rows { users.append(try row.text(0, "user_id")) }
        }
        return users
    }
}
