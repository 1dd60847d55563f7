import Foundation
import MomentumCore

extension SQLBackend {
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
