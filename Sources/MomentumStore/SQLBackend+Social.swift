import Foundation
import MomentumCore

extension SQLBackend {

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

}
