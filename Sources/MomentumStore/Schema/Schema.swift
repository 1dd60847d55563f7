/// Momentum's database schema: every table, and the migrations that create them.
///
/// Every per-user table's primary key and unique keys begin with `user_id`, so the schema
/// can later be distributed by user (Citus) without a redesign. The global tables are
/// `account_emails`, the lookup from an email address to its account, and `rate_limits`,
/// the request counts every server instance shares.
public enum Schema {
    /// The table that records which migrations ran.
    public static let migrationsTable = "momentum_migrations"

    /// The newest schema version.
    public static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Every table of the current schema, in creation order, as the migrations leave it
    /// (``Schema/migrations`` holds the SQL; the conformance suite checks that the two agree).
    public static let tables: [TableSpec] =
        [
            accounts, accountEmails, profiles, deviceSessions, events, userHeads,
            habits, subjects, ledger, unlocks, celebrationPlanners, memories, progression,
            idempotencyKeys, photos, reviewFlags, rateLimits, notificationWakes, notifications,
            pushTargets, webhooks, deliveries, serverSettings,
            invitations, friendships, blocks, sharing, posts, feedEntries, reactions, subjectMembers, memberships,
        ] + ownUsersTables + consoleTables

    // MARK: - Version 1

    /// `email` and `password_hash` are NOT NULL since version 1, and SQLite cannot relax
    /// that without rebuilding a table every per-user table references: `''` in either
    /// column means none (an account an app's backend created, or one that signs in with
    /// an identity provider). The store maps `''` to `nil` and back at its boundary
    /// (`Account.email`, `Account.passwordHash`); `account_emails` holds real emails only.
    static let accounts = TableSpec(
        "accounts",
        columns: [
            .init("user_id", .text), .init("email", .text), .init("password_hash", .text),
            .init("created_at", .real),
        ],
        primaryKey: ["user_id"], userReference: nil)

    static let accountEmails = TableSpec(
        "account_emails", columns: [.init("email", .text), .init("user_id", .text)],
        primaryKey: ["email"], global: true)

    static let profiles = TableSpec(
        "profiles",
        columns: [
            .init("user_id", .text), .init("display_name", .text), .init("time_zone", .text),
            .init("day_start_hour", .integer), .init("pack", .text), .init("preferences", .text),
            .init("updated_at", .real),
            // Added by version 4.
            .init("notifications", .text),
            // Added by version 9: nil follows the browser.
            .init("language", .text, nullable: true),
        ],
        primaryKey: ["user_id"])

    static let deviceSessions = TableSpec(
        "device_sessions",
        columns: [
            .init("user_id", .text), .init("token_hash", .text), .init("device_name", .text),
            .init("created_at", .real), .init("last_seen_at", .real), .init("expires_at", .real, nullable: true),
        ],
        primaryKey: ["user_id", "token_hash"])

    static let events = TableSpec(
        "events",
        columns: [
            .init("user_id", .text), .init("seq", .integer), .init("event_id", .text), .init("type", .text),
            .init("at", .real), .init("time_zone", .text), .init("body", .text), .init("received_at", .real),
            .init("device", .text, nullable: true),
        ],
        primaryKey: ["user_id", "seq"], uniqueKeys: [["user_id", "event_id"]])

    static let userHeads = TableSpec(
        "user_heads",
        columns: [
            .init("user_id", .text), .init("version", .integer), .init("head_seq", .integer),
            .init("diamonds", .integer), .init("freezes", .integer), .init("evaluated_at", .real),
        ],
        primaryKey: ["user_id"])

    // MARK: - Version 2

    static let habits = TableSpec(
        "habits",
        columns: [
            .init("user_id", .text), .init("habit_id", .text), .init("ordinal", .integer), .init("name", .text),
            .init("archived", .integer), .init("current_streak", .integer), .init("best_streak", .integer),
            .init("state", .text),
        ],
        primaryKey: ["user_id", "habit_id"])

    static let subjects = TableSpec(
        "subjects",
        columns: [
            .init("user_id", .text), .init("subject_id", .text), .init("kind", .text), .init("name", .text),
            .init("body", .text),
        ],
        primaryKey: ["user_id", "subject_id"])

    static let ledger = TableSpec(
        "ledger",
        columns: [
            .init("user_id", .text), .init("position", .integer), .init("day", .integer), .init("source", .text),
            .init("diamonds", .integer), .init("freezes", .integer), .init("diamond_balance", .integer),
            .init("freeze_balance", .integer), .init("reason", .text), .init("body", .text),
        ],
        primaryKey: ["user_id", "position"])

    static let unlocks = TableSpec(
        "unlocks",
        columns: [
            .init("user_id", .text), .init("unlock_id", .text), .init("rule", .text), .init("title", .text),
            .init("category", .text), .init("tier", .integer), .init("achieved_at", .real),
            .init("detected_at", .real), .init("retroactive", .integer), .init("body", .text),
        ],
        primaryKey: ["user_id", "unlock_id"])

    static let celebrationPlanners = TableSpec(
        "celebration_planners",
        columns: [.init("user_id", .text), .init("planner", .text), .init("updated_at", .real)],
        primaryKey: ["user_id"])

    static let memories = TableSpec(
        "memories",
        columns: [
            .init("user_id", .text), .init("memory_id", .text), .init("unlock_id", .text), .init("day", .integer),
            .init("category", .text), .init("caption", .text), .init("note", .text, nullable: true),
            .init("photo", .text, nullable: true), .init("share_photo", .text, nullable: true),
            .init("body", .text),
        ],
        primaryKey: ["user_id", "memory_id"])

    static let progression = TableSpec(
        "progression",
        columns: [
            .init("user_id", .text), .init("method_id", .text), .init("position", .integer),
            .init("event_id", .text), .init("body", .text),
        ],
        primaryKey: ["user_id", "method_id", "position"])

    // MARK: - Version 3

    static let idempotencyKeys = TableSpec(
        "idempotency_keys",
        columns: [
            .init("user_id", .text), .init("idempotency_key", .text), .init("request_hash", .text),
            .init("status", .integer), .init("response", .blob), .init("created_at", .real),
        ],
        primaryKey: ["user_id", "idempotency_key"])

    static let photos = TableSpec(
        "photos",
        columns: [
            .init("user_id", .text), .init("path", .text), .init("content_type", .text), .init("bytes", .blob),
            .init("created_at", .real),
        ],
        primaryKey: ["user_id", "path"])

    // MARK: - Version 4

    static let reviewFlags = TableSpec(
        "review_flags",
        columns: [
            .init("user_id", .text), .init("flag_id", .text), .init("kind", .text), .init("detail", .text),
            .init("events", .text), .init("created_at", .real),
            // Added by version 8.
            .init("cleared_at", .real, nullable: true),
        ],
        primaryKey: ["user_id", "flag_id"])

    // MARK: - Version 5

    /// Request counts per limit key and minute, shared by every server instance (a key
    /// names a user or an address, so the table is global).
    static let rateLimits = TableSpec(
        "rate_limits",
        columns: [.init("limit_key", .text), .init("window_start", .integer), .init("count", .integer)],
        primaryKey: ["limit_key", "window_start"], userReference: nil, global: true)

    // MARK: - Version 6

    /// When each user's notifications are next looked at (``MomentumStore`` `claimNotificationRuns`).
    static let notificationWakes = TableSpec(
        "notification_wakes",
        columns: [
            .init("user_id", .text), .init("next_at", .real, nullable: true), .init("checked_until", .real),
            .init("claimed_until", .real, nullable: true), .init("touched", .integer),
        ],
        primaryKey: ["user_id"])

    /// Each user's in-app inbox: at most one notification per key.
    static let notifications = TableSpec(
        "notifications",
        columns: [
            .init("user_id", .text), .init("notification_key", .text), .init("kind", .text), .init("title", .text),
            .init("body", .text), .init("url", .text), .init("day", .text), .init("habit", .text, nullable: true),
            .init("meant_at", .real), .init("expires_at", .real), .init("created_at", .real),
            .init("read_at", .real, nullable: true),
        ],
        primaryKey: ["user_id", "notification_key"])

    // MARK: - Version 7

    /// The devices that receive each user's notifications (Web Push subscriptions, APNs
    /// tokens).
    static let pushTargets = TableSpec(
        "push_targets",
        columns: [
            .init("user_id", .text), .init("target_id", .text), .init("channel", .text), .init("address", .text),
            .init("p256dh", .text, nullable: true), .init("auth", .text, nullable: true),
            .init("environment", .text, nullable: true), .init("created_at", .real),
        ],
        primaryKey: ["user_id", "target_id"])

    /// The app developer's webhooks and their health: configuration, not a user's data.
    static let webhooks = TableSpec(
        "webhooks",
        columns: [
            .init("webhook_id", .text), .init("url", .text), .init("secret", .text),
            .init("kinds", .text, nullable: true),
            .init("created_at", .real), .init("disabled_at", .real, nullable: true),
            .init("consecutive_failures", .integer), .init("last_error", .text, nullable: true),
            .init("last_success_at", .real, nullable: true), .init("last_failure_at", .real, nullable: true),
        ],
        primaryKey: ["webhook_id"], userReference: nil, global: true)

    /// The delivery queue: one row per notification and device or webhook. Its foreign key
    /// is the notification's (`user_id`, `notification_key`), so it goes with the inbox entry.
    static let deliveries = TableSpec(
        "deliveries",
        columns: [
            .init("user_id", .text), .init("notification_key", .text), .init("channel", .text),
            .init("target_id", .text), .init("due_at", .real), .init("attempts", .integer), .init("state", .text),
            .init("claimed_until", .real, nullable: true), .init("outcome", .text, nullable: true),
            .init("created_at", .real), .init("finished_at", .real, nullable: true),
            // Added by version 12: the last attempt's latency.
            .init("latency_ms", .integer, nullable: true),
        ],
        primaryKey: ["user_id", "notification_key", "channel", "target_id"], userReference: nil)

    /// Settings every instance shares (the VAPID key pair).
    static let serverSettings = TableSpec(
        "server_settings", columns: [.init("name", .text), .init("value", .text)], primaryKey: ["name"],
        userReference: nil, global: true)

    // MARK: - Version 8

    /// Invitations by code, friendship or family. The code is looked up without knowing
    /// who made it, so the table is global (like `account_emails`); `user_id` is the inviter.
    static let invitations = TableSpec(
        "invitations",
        columns: [
            .init("code", .text), .init("user_id", .text), .init("kind", .text),
            .init("subject_owner", .text, nullable: true), .init("subject_id", .text, nullable: true),
            .init("role", .text, nullable: true), .init("created_at", .real), .init("expires_at", .real),
            .init("revoked_at", .real, nullable: true), .init("answer", .text, nullable: true),
            .init("answered_by", .text, nullable: true), .init("answered_at", .real, nullable: true),
        ],
        primaryKey: ["code"], global: true)

    /// Friendships, one row for each side: a user's friends are the rows led by their id.
    static let friendships = TableSpec(
        "friendships",
        columns: [.init("user_id", .text), .init("friend_id", .text), .init("since", .real)],
        primaryKey: ["user_id", "friend_id"])

    /// Whom each user blocked.
    static let blocks = TableSpec(
        "blocks",
        columns: [.init("user_id", .text), .init("blocked_id", .text), .init("created_at", .real)],
        primaryKey: ["user_id", "blocked_id"])

    /// What each user shares with friends: a `habit` or a `category`, by id.
    static let sharing = TableSpec(
        "sharing",
        columns: [.init("user_id", .text), .init("scope", .text), .init("item_id", .text)],
        primaryKey: ["user_id", "scope", "item_id"])

    /// Each user's shared achievements (`body`: the post, as the feed shows it).
    static let posts = TableSpec(
        "posts",
        columns: [
            .init("user_id", .text), .init("post_id", .text), .init("unlock_id", .text), .init("created_at", .real),
            .init("held", .integer), .init("body", .text),
        ],
        primaryKey: ["user_id", "post_id"])

    /// Each reader's feed, written when a post is shared (fan-out on write): the reader's
    /// id leads the key, and the post's body is copied, so a page of the feed is one
    /// range of one reader's rows.
    static let feedEntries = TableSpec(
        "feed_entries",
        columns: [
            .init("user_id", .text), .init("author_id", .text), .init("post_id", .text), .init("added_at", .real),
            .init("body", .text),
        ],
        primaryKey: ["user_id", "author_id", "post_id"])

    /// Friends' reactions to a post, kept with the post's owner: one per friend per post.
    static let reactions = TableSpec(
        "reactions",
        columns: [
            .init("user_id", .text), .init("post_id", .text), .init("reactor_id", .text), .init("reaction", .text),
            .init("created_at", .real),
        ],
        primaryKey: ["user_id", "post_id", "reactor_id"], userReference: nil)

    /// The members of each subject's family, kept with the subject's owner.
    static let subjectMembers = TableSpec(
        "subject_members",
        columns: [
            .init("user_id", .text), .init("subject_id", .text), .init("member_id", .text), .init("role", .text),
            .init("since", .real),
        ],
        primaryKey: ["user_id", "subject_id", "member_id"])

    /// The same memberships kept with each member: the subjects shared with them.
    static let memberships = TableSpec(
        "memberships",
        columns: [
            .init("user_id", .text), .init("owner_id", .text), .init("subject_id", .text), .init("role", .text),
            .init("since", .real),
        ],
        primaryKey: ["user_id", "owner_id", "subject_id"])
}
