extension Schema {
    /// Versions 8 to 10 of ``migrations``: social features, profile languages, webhook errors.
    static let migrations8to10: [Migration] = [
        Migration(
            version: 8, name: "social",
            sqlite: socialMigration(.sqlite),
            postgres: socialMigration(.postgres)
        ),
        Migration(
            version: 9, name: "profile_language",
            sqlite: ["ALTER TABLE profiles ADD COLUMN language TEXT"],
            postgres: ["ALTER TABLE profiles ADD COLUMN language TEXT"]
        ),
        // A webhook's last error once quoted the first 500 bytes of its receiver's answer,
        // which echoed whatever an internal address answered to an operator; it is now a
        // status ("HTTP 500", "timed out"). Errors recorded before are dropped rather than
        // kept as quotes: the failure count and time stay.
        Migration(
            version: 10, name: "webhook_errors_without_answers",
            sqlite: ["UPDATE webhooks SET last_error = NULL WHERE last_error IS NOT NULL"],
            postgres: ["UPDATE webhooks SET last_error = NULL WHERE last_error IS NOT NULL"]
        ),
    ]

    /// Version 8: invitations, friends, blocks, sharing, posts, feeds, reactions and
    /// subjects' families; a review flag can be cleared. Written out here, not derived from
    /// the current table specs, so that the migration stays what it was when it shipped.
    private static func socialMigration(_ dialect: SQLDialect) -> [String] {
        let real = dialect.type(of: .real)
        let integer = dialect.type(of: .integer)
        let cascade = "FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE"
        return [
            "ALTER TABLE review_flags ADD COLUMN cleared_at \(real)",
            """
            CREATE TABLE invitations (
              code TEXT NOT NULL,
              user_id TEXT NOT NULL,
              kind TEXT NOT NULL,
              subject_owner TEXT,
              subject_id TEXT,
              role TEXT,
              created_at \(real) NOT NULL,
              expires_at \(real) NOT NULL,
              revoked_at \(real),
              answer TEXT,
              answered_by TEXT,
              answered_at \(real),
              PRIMARY KEY (code),
              \(cascade)
            )
            """,
            """
            CREATE TABLE friendships (
              user_id TEXT NOT NULL,
              friend_id TEXT NOT NULL,
              since \(real) NOT NULL,
              PRIMARY KEY (user_id, friend_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE blocks (
              user_id TEXT NOT NULL,
              blocked_id TEXT NOT NULL,
              created_at \(real) NOT NULL,
              PRIMARY KEY (user_id, blocked_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE sharing (
              user_id TEXT NOT NULL,
              scope TEXT NOT NULL,
              item_id TEXT NOT NULL,
              PRIMARY KEY (user_id, scope, item_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE posts (
              user_id TEXT NOT NULL,
              post_id TEXT NOT NULL,
              unlock_id TEXT NOT NULL,
              created_at \(real) NOT NULL,
              held \(integer) NOT NULL,
              body TEXT NOT NULL,
              PRIMARY KEY (user_id, post_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE feed_entries (
              user_id TEXT NOT NULL,
              author_id TEXT NOT NULL,
              post_id TEXT NOT NULL,
              added_at \(real) NOT NULL,
              body TEXT NOT NULL,
              PRIMARY KEY (user_id, author_id, post_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE reactions (
              user_id TEXT NOT NULL,
              post_id TEXT NOT NULL,
              reactor_id TEXT NOT NULL,
              reaction TEXT NOT NULL,
              created_at \(real) NOT NULL,
              PRIMARY KEY (user_id, post_id, reactor_id),
              FOREIGN KEY (user_id, post_id) REFERENCES posts (user_id, post_id) ON DELETE CASCADE
            )
            """,
            """
            CREATE TABLE subject_members (
              user_id TEXT NOT NULL,
              subject_id TEXT NOT NULL,
              member_id TEXT NOT NULL,
              role TEXT NOT NULL,
              since \(real) NOT NULL,
              PRIMARY KEY (user_id, subject_id, member_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE memberships (
              user_id TEXT NOT NULL,
              owner_id TEXT NOT NULL,
              subject_id TEXT NOT NULL,
              role TEXT NOT NULL,
              since \(real) NOT NULL,
              PRIMARY KEY (user_id, owner_id, subject_id),
              \(cascade)
            )
            """,
            "CREATE INDEX invitations_by_user ON invitations (user_id, created_at)",
            "CREATE INDEX feed_by_time ON feed_entries (user_id, added_at, author_id, post_id)",
            "CREATE INDEX posts_by_time ON posts (user_id, created_at)",
            "CREATE INDEX review_flags_open ON review_flags (user_id) WHERE cleared_at IS NULL",
        ]
    }
}
