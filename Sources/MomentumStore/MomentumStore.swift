import Foundation
import MomentumCore
import ServiceLifecycle

/// Everything Momentum persists: accounts and device sessions, profiles, the event log,
/// the projections derived from it, photos and idempotency records.
///
/// Appending is idempotent by the client-generated event id, and an append and the update
/// of that user's projections happen in one transaction. Writes of one user are
/// serialized; different users never wait on each other's locks. Every method that takes a
/// user id treats a user that does not exist like one that has no data, except where a
/// ``StoreError/Code/notFound`` is documented.
///
/// Two backends implement it: `SQLiteStore` (GRDB, the embedded default) and
/// `PostgresStore` (PostgresNIO). Both pass one conformance suite.
public protocol MomentumStore: Sendable, Service {
    // MARK: Schema

    /// Brings the schema to ``Schema/latestVersion``, one migration per transaction.
    ///
    /// - Throws: ``StoreError/Code/migration`` naming the migration that failed.
    func migrate() async throws(StoreError)

    /// The versions of the migrations applied, in order.
    func appliedMigrations() async throws(StoreError) -> [Int]

    // MARK: Accounts and profiles

    /// Creates an account with its profile.
    ///
    /// - Throws: ``StoreError/Code/emailTaken``, ``StoreError/Code/userExists`` or
    ///   ``StoreError/Code/invalidInput``.
    func createAccount(_ account: Account, profile: Profile) async throws(StoreError)

    /// The account with this user id, if any.
    func account(id: String) async throws(StoreError) -> Account?

    /// The account with this email address (compared case-insensitively), if any.
    func account(email: String) async throws(StoreError) -> Account?

    /// Deletes an account and every row of its user.
    ///
    /// - Returns: Whether there was such an account.
    @discardableResult
    func deleteAccount(id: String) async throws(StoreError) -> Bool

    /// The user's profile, if the account exists.
    func profile(of user: String) async throws(StoreError) -> Profile?

    /// Replaces the user's profile. A change of pack or day-start hour re-evaluates the log
    /// and rewrites the projections in the same transaction.
    ///
    /// - Throws: ``StoreError/Code/notFound`` or ``StoreError/Code/invalidInput``.
    func updateProfile(_ profile: Profile, for user: String) async throws(StoreError)

    /// Replaces the account's password hash and, when `keeping` is given, ends every device
    /// session but that one, in one transaction.
    ///
    /// - Parameters:
    ///   - hash: The new password's hash.
    ///   - user: The account.
    ///   - keeping: The token hash of the one session to keep (the device that changed the
    ///     password) when the others are signed out; `nil` keeps them all.
    /// - Returns: The token hashes of the sessions ended; `nil` when there is no such account.
    func changePassword(
        to hash: String, of user: String, keeping: String?
    ) async throws(StoreError) -> [String]?

    // MARK: Device sessions

    /// Stores a new device session (or replaces one with the same token hash).
    func saveSession(_ session: DeviceSession) async throws(StoreError)

    /// The session with this token hash, if any.
    func session(of user: String, tokenHash: String) async throws(StoreError) -> DeviceSession?

    /// Every session of the user, newest first.
    func sessions(of user: String) async throws(StoreError) -> [DeviceSession]

    /// Records that a session was used.
    func touchSession(of user: String, tokenHash: String, at instant: Date) async throws(StoreError)

    /// Deletes a session (sign-out).
    ///
    /// - Returns: Whether there was such a session.
    @discardableResult
    func deleteSession(of user: String, tokenHash: String) async throws(StoreError) -> Bool

    // MARK: Event log

    /// Appends events to the user's log and updates their projections, in one transaction.
    ///
    /// Each event is judged on its own: an event already in the log is a ``EventOutcome/Status/duplicate``
    /// (retries are safe), one the engine refuses is reported and not stored, and the rest
    /// are stored in order.
    ///
    /// - Parameters:
    ///   - events: The events, in the order the device recorded them.
    ///   - user: The user.
    ///   - receivedAt: When the server received them (the engine's `now`).
    ///   - device: The device that sent them, if known.
    /// - Returns: An outcome per event, the unlocks granted, and the new head of the log.
    /// - Throws: ``StoreError/Code/notFound`` when the account does not exist.
    func append(
        _ events: [Event], for user: String, receivedAt: Date, device: String?
    ) async throws(StoreError)
        -> AppendResult

    /// Events of the user's log after a position, oldest first (the sync cursor).
    ///
    /// - Parameters:
    ///   - user: The user.
    ///   - seq: The last position the client has; 0 for the whole log.
    ///   - limit: The most events to return.
    func events(of user: String, after seq: Int64, limit: Int) async throws(StoreError) -> [StoredEvent]

    /// The user's latest events, the newest first (at most 1,000).
    func latestEvents(of user: String, limit: Int) async throws(StoreError) -> [StoredEvent]

    // MARK: Projections

    /// Everything the projections hold for the user.
    ///
    /// - Throws: ``StoreError/Code/notFound`` when the account does not exist.
    func projection(of user: String) async throws(StoreError) -> UserProjection

    /// Sets or clears a memory's note and photo.
    ///
    /// - Returns: The memory as it now is.
    /// - Throws: ``StoreError/Code/notFound`` when the user has no such memory.
    @discardableResult
    func updateMemory(
        of user: String, id: String, note: String?, photo: MemoryPhoto?
    ) async throws(StoreError)
        -> Memory

    /// Changes the user's celebration planner in one transaction (delivering a celebration,
    /// starting a session, Do Not Disturb).
    ///
    /// - Parameters:
    ///   - user: The user.
    ///   - now: The current instant.
    ///   - change: Changes the planner and returns a value.
    /// - Returns: What `change` returned.
    func updateCelebrations<Result: Sendable>(
        of user: String, now: Date, _ change: @escaping @Sendable (inout CelebrationPlanner) -> Result
    ) async throws(StoreError) -> Result

    /// Runs `body` on the user's engine as of their latest append (from the engine cache
    /// when current, else replayed from the log), without writing anything.
    ///
    /// The body gets a copy: it may advance it to a later instant (to read today's state,
    /// for example) without affecting what is stored.
    ///
    /// - Throws: ``StoreError/Code/notFound`` for an unknown user, or whatever `body` throws.
    func evaluate<Result: Sendable>(
        _ user: String, _ body: @escaping @Sendable (inout MomentumUser, Profile) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result

    /// Like ``evaluate(_:_:)``, with the projection version the engine is at: what `body`
    /// computes from the engine and the profile stays the same for as long as the stored
    /// version does (an append or a profile change bumps it), so a reader may keep it by
    /// version.
    func evaluateWithVersion<Result: Sendable>(
        _ user: String, _ body: @escaping @Sendable (inout MomentumUser, Profile, Int64) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result

    /// Like ``evaluate(_:_:)``, for the state an append just produced: when the engine
    /// cache still holds the user's engine at `version` (``AppendResult/version``), `body`
    /// runs on it without reading the database; otherwise this is ``evaluate(_:_:)``.
    ///
    /// A write that followed the append makes the cached engine newer, and the read falls
    /// back to the database, so the answer is never older than the append.
    func evaluate<Result: Sendable>(
        _ user: String, after version: Int64,
        _ body: @escaping @Sendable (inout MomentumUser, Profile) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result

    // MARK: Review

    /// Records suspicious activity for review; the user's data is not touched. A flag
    /// with an id already recorded for the user is ignored.
    func flag(_ flag: ReviewFlag) async throws(StoreError)

    /// The most recent review flags of every user that are not cleared, newest first.
    func reviewFlags(limit: Int) async throws(StoreError) -> [ReviewFlag]

    /// Clears one of a user's review flags. When it was the user's last open flag, their
    /// held posts are released to their friends' feeds in the same transaction.
    ///
    /// - Returns: `nil` when the user has no open flag of that id.
    func clearReviewFlag(_ id: String, of user: String, at: Date) async throws(StoreError) -> ClearedFlag?

    /// How many of a user's review flags are open.
    func openReviewFlagCount(of user: String) async throws(StoreError) -> Int

    // MARK: Friends, posts and families

    /// Stores a new invitation (its code must be new).
    func createInvitation(_ invitation: Invitation) async throws(StoreError)

    /// The invitation with a code, in whatever state it is.
    func invitation(code: String) async throws(StoreError) -> Invitation?

    /// The invitations a user made since an instant, newest first.
    func invitations(of user: String, since: Date, limit: Int) async throws(StoreError) -> [Invitation]

    /// Withdraws an open invitation of the user's; `false` when they have none open with that code.
    func revokeInvitation(code: String, of user: String, at: Date) async throws(StoreError) -> Bool

    /// The open invitations to a subject's family that can still be accepted as far as
    /// their makers go: the owner's and those of its current co-owners, newest first.
    func familyInvitations(
        of subject: String, owner: String, at: Date, limit: Int
    ) async throws(StoreError) -> [Invitation]

    /// Withdraws an open invitation to a subject's family, whoever made it; `false` when
    /// that family has none open with that code.
    func revokeFamilyInvitation(
        code: String, subject: String, owner: String, at: Date
    ) async throws(StoreError) -> Bool

    /// Answers an open invitation, in one transaction: marks it accepted or declined and,
    /// when accepted, makes the two friends (each one's 20 most recent posts reach the
    /// other's feed) or the invitee a member of the subject's family. An invitation that
    /// is unknown, not open, the user's own, between two people one of whom blocked the
    /// other, or to a family its maker no longer manages (neither its owner nor a
    /// co-owner now) is ``InvitationOutcome/unavailable``, all alike.
    func answerInvitation(
        code: String, by user: String, accept: Bool, at: Date
    ) async throws(StoreError)
        -> InvitationOutcome

    /// A user's friends, the newest first.
    func friends(of user: String) async throws(StoreError) -> [Friend]

    /// The friendship of `user` with `other`, or `nil` when they are not friends.
    func friend(_ other: String, of user: String) async throws(StoreError) -> Friend?

    /// Ends a friendship on both sides and takes each one's posts off the other's feed.
    func removeFriend(_ other: String, of user: String) async throws(StoreError) -> Bool

    /// Blocks `other` for `user` (again: nothing changes): ends their friendship, takes
    /// each one's reactions off the other's posts, ends each one's membership in the
    /// families of the other's subjects and withdraws the open invitations each made to
    /// the other's families.
    func block(_ other: String, by user: String, at: Date) async throws(StoreError)

    /// Lifts a block; `false` when there was none.
    func unblock(_ other: String, by user: String) async throws(StoreError) -> Bool

    /// Whom a user blocked, the newest first.
    func blocks(of user: String) async throws(StoreError) -> [BlockedUser]

    /// Whether either of two people blocked the other.
    func isBlocked(between user: String, and other: String) async throws(StoreError) -> Bool

    /// What a user shares with friends.
    func sharing(of user: String) async throws(StoreError) -> SharingSettings

    /// Replaces what a user shares with friends.
    func setSharing(_ settings: SharingSettings, of user: String) async throws(StoreError)

    /// Shares an achievement: stores the post (once per id: sharing it again changes
    /// nothing) and, unless its owner has an open review flag, puts it on the owner's feed
    /// and every friend's in the same transaction (fan-out on write).
    func share(_ post: Post) async throws(StoreError) -> SharedPost

    /// A user's own posts, newest first, held ones included.
    func posts(of user: String, limit: Int) async throws(StoreError) -> [Post]

    /// Deletes a post of the user's, its reactions and its feed entries.
    ///
    /// - Returns: The readers whose feeds had it, or `nil` when the user has no such post.
    func deletePost(_ id: String, of user: String) async throws(StoreError) -> [String]?

    /// A page of a reader's feed, newest first, after `cursor` (`nil`: the first page),
    /// with each post's reaction counts and the reader's own reaction.
    func feed(of reader: String, before cursor: FeedCursor?, limit: Int) async throws(StoreError) -> [FeedItem]

    /// Sets (`nil`: removes) a reader's reaction to a post, when the post is on the
    /// reader's feed and not their own.
    ///
    /// - Returns: `nil` when the reader cannot see the post.
    func react(
        _ reaction: ReactionKind?, to post: String, of owner: String, by reactor: String, at: Date
    )
        async throws(StoreError) -> ReactionOutcome?

    /// Every reaction to a post, the newest first.
    func reactions(to post: String, of owner: String) async throws(StoreError) -> [PostReaction]

    /// Whether a reader sees a post: their own, or on their feed.
    func canSee(post: String, of owner: String, reader: String) async throws(StoreError) -> Bool

    /// The members of a subject's family (its owner not included), the earliest first.
    func familyMembers(of subject: String, owner: String) async throws(StoreError) -> [FamilyMember]

    /// The families a user belongs to.
    func memberships(of user: String) async throws(StoreError) -> [Membership]

    /// A member's role in a subject's family, or `nil` when they are not a member.
    func familyRole(of member: String, subject: String, owner: String) async throws(StoreError) -> FamilyRole?

    /// Changes a member's role; `false` when they are not a member. A member who is no
    /// longer a co-owner loses the open invitations they made to the family: they are
    /// withdrawn at `at`, in the same transaction.
    func setFamilyRole(
        _ role: FamilyRole, of member: String, subject: String, owner: String, at: Date
    )
        async throws(StoreError) -> Bool

    /// Removes a member from a subject's family (what they logged stays in the subject's
    /// log) and withdraws, at `at`, the open invitations they made to it.
    func removeFamilyMember(
        _ member: String, subject: String, owner: String, at: Date
    ) async throws(StoreError) -> Bool

    // MARK: Notifications

    /// Asks for the users' notifications to be looked at again by `at` (their habits, zone
    /// or preferences changed): a user the scheduler did not know yet starts with nothing
    /// missed before `at`.
    func touchNotifications(of users: [String], at: Date) async throws(StoreError)

    /// Claims up to `limit` users whose notifications are due at `now`, for `lease` seconds
    /// (a scheduler that dies mid-run leaves its users to the next after the lease). On
    /// PostgreSQL, instances share the work: a user claimed by one is skipped by the others
    /// (`FOR UPDATE SKIP LOCKED`).
    func claimNotificationRuns(
        now: Date, lease: TimeInterval, limit: Int
    ) async throws(StoreError)
        -> [NotificationClaim]

    /// Ends a claimed run in one transaction: stores the notifications in the inbox (a key
    /// already stored is not stored again: at most once per key), records that the run
    /// covered everything up to `now`, and sets the next wake (at once when the user's log
    /// or preferences changed during the run).
    ///
    /// - Returns: The notifications newly stored.
    func finishNotificationRun(
        _ claim: NotificationClaim, now: Date, deliver: [PlannedNotification], nextWake: Date?
    ) async throws(StoreError) -> [InboxNotification]

    /// Stores notifications that go at once (a milestone) in the user's inbox, each key at
    /// most once.
    ///
    /// - Returns: The notifications newly stored.
    func deliverNotifications(
        _ notifications: [PlannedNotification], to user: String, at: Date
    ) async throws(StoreError) -> [InboxNotification]

    /// The user's inbox, newest first: `limit` notifications delivered before the cursor
    /// (`createdAt` and key of the last one of the previous page), or the newest.
    func notifications(
        of user: String, before cursor: (createdAt: Date, key: String)?, limit: Int
    ) async throws(StoreError) -> [InboxNotification]

    /// How many of the user's notifications are unread.
    func unreadNotificationCount(of user: String) async throws(StoreError) -> Int

    /// Rewrites the title and body of an inbox entry and marks it unread again (a grouped
    /// notification that grew: "Ana and 3 others reacted"); its deliveries are not queued again.
    ///
    /// - Returns: `false` when the user has no entry with that key.
    @discardableResult
    func regroupNotification(
        of user: String, key: String, title: String, body: String
    ) async throws(StoreError)
        -> Bool

    /// Marks the user's notifications with these keys read (all of them when `keys` is
    /// `nil`).
    ///
    /// - Returns: How many were unread and now are read.
    @discardableResult
    func markNotificationsRead(of user: String, keys: [String]?, at: Date) async throws(StoreError) -> Int

    // MARK: Delivery to devices and webhooks

    /// Registers a device for the user's notifications (the same address again updates its
    /// keys). An address registered by another user moves to this one: a browser or phone
    /// receives only the notifications of the account signed in on it.
    ///
    /// - Returns: Whether the target is new to this user.
    func savePushTarget(_ target: PushTarget, of user: String) async throws(StoreError) -> Bool

    /// The user's registered devices, oldest first.
    func pushTargets(of user: String) async throws(StoreError) -> [PushTarget]

    /// Removes one of the user's devices (unregistered, or its push service said it is
    /// gone).
    ///
    /// - Returns: Whether it existed.
    @discardableResult
    func removePushTarget(_ id: String, of user: String) async throws(StoreError) -> Bool

    /// Adds an app developer's webhook; it receives every notification stored from now on.
    func createWebhook(_ webhook: Webhook) async throws(StoreError)

    /// Every webhook, oldest first, with its status.
    func webhooks() async throws(StoreError) -> [Webhook]

    /// Removes a webhook; its pending deliveries are dropped when they come up.
    ///
    /// - Returns: Whether it existed.
    @discardableResult
    func removeWebhook(_ id: String) async throws(StoreError) -> Bool

    /// Enables a webhook again (its failures forgotten) or disables it.
    ///
    /// - Returns: Whether it exists.
    @discardableResult
    func setWebhookEnabled(_ id: String, _ enabled: Bool, at: Date) async throws(StoreError) -> Bool

    /// Claims up to `limit` deliveries due at `now` for `lease` seconds, with their
    /// notification and target. On PostgreSQL, senders on several instances share the queue
    /// (`FOR UPDATE SKIP LOCKED`); a sender that dies leaves its claims to the next after the
    /// lease. Every notification stored in an inbox was queued, in the same transaction, for
    /// each of the user's devices and every active webhook.
    func claimDeliveries(now: Date, lease: TimeInterval, limit: Int) async throws(StoreError) -> [PendingDelivery]

    /// Records what became of claimed deliveries, and each webhook's health: a success
    /// resets its failures, a failure counts, and `webhookFailureLimit` failures in a row
    /// disable it.
    func finishDeliveries(_ reports: [DeliveryReport], at: Date, webhookFailureLimit: Int) async throws(StoreError)

    /// The keys of the user's notifications sent to a device or webhook since an instant
    /// (the daily cap counts them).
    func sentNotificationKeys(of user: String, since: Date) async throws(StoreError) -> Set<String>

    /// Where one of the user's notifications stands on each channel and target.
    func deliveries(of user: String, key: String) async throws(StoreError) -> [DeliveryStatus]

    /// Forgets deliveries that ended (sent, failed, dropped) before an instant.
    ///
    /// - Returns: How many were forgotten.
    @discardableResult
    func pruneDeliveries(finishedBefore: Date) async throws(StoreError) -> Int

    /// A setting shared by every instance (the Web Push key pair): the stored value, or
    /// `value` stored now when there is none (the first instance to ask decides).
    func serverSetting(_ name: String, orInsert value: String) async throws(StoreError) -> String

    // MARK: Photos

    /// Stores a memory photo (replacing one at the same path).
    ///
    /// - Throws: ``StoreError/Code/invalidInput`` when the path is not under `memories/` or `subjects/`.
    func savePhoto(_ photo: StoredPhoto, for user: String) async throws(StoreError)

    /// The photo at a path, if any.
    func photo(of user: String, path: String) async throws(StoreError) -> StoredPhoto?

    /// Every photo of the user, by path.
    func photos(of user: String) async throws(StoreError) -> [StoredPhoto]

    /// Removes the user's photo at a path (another user's photo at the same path is
    /// untouched); `false` when there was none.
    @discardableResult
    func deletePhoto(of user: String, path: String) async throws(StoreError) -> Bool

    // MARK: Idempotency

    /// The record stored for an idempotency key, if any.
    func idempotencyRecord(of user: String, key: String) async throws(StoreError) -> IdempotencyRecord?

    /// Stores a record unless one with the same key exists.
    ///
    /// - Returns: The record now stored: `record`, or the earlier one.
    /// - Throws: ``StoreError/Code/idempotencyConflict`` when the key was used for a
    ///   different request.
    @discardableResult
    func saveIdempotencyRecord(
        _ record: IdempotencyRecord, for user: String
    ) async throws(StoreError)
        -> IdempotencyRecord

    /// Deletes records created before an instant.
    ///
    /// - Returns: How many were deleted.
    @discardableResult
    func deleteIdempotencyRecords(before instant: Date) async throws(StoreError) -> Int

    // MARK: Rate limits

    /// Adds to request counters shared by every server instance, in one transaction.
    ///
    /// - Parameter counts: Counts to add, each for a limit key and the start of its
    ///   window (in seconds since 1970); one entry per key and window.
    /// - Returns: Each counter's total after the addition, in the order of `counts`.
    func addRateLimitCounts(_ counts: [RateLimitCount]) async throws(StoreError) -> [Int]

    /// Deletes counters of windows that started before `windowStart`.
    ///
    /// - Returns: How many were deleted.
    @discardableResult
    func deleteRateLimitCounts(before windowStart: Int64) async throws(StoreError) -> Int

    // MARK: Import and export

    /// Everything needed to move the account elsewhere.
    ///
    /// - Throws: ``StoreError/Code/notFound`` when the account does not exist.
    func exportAccount(_ user: String) async throws(StoreError) -> AccountArchive

    /// Creates an account from an archive, in one transaction: its events are replayed and
    /// its projections built, then its memories' notes and photos restored.
    ///
    /// - Parameters:
    ///   - archive: A checked archive.
    ///   - now: The instant to evaluate the projections at.
    /// - Throws: ``StoreError/Code/userExists`` or ``StoreError/Code/emailTaken``; nothing is
    ///   written.
    func importAccount(_ archive: AccountArchive, now: Date) async throws(StoreError)

    /// Closes connections; the store must not be used afterwards.
    func close() async

    /// Runs the store's background work for as long as a service group runs it (the
    /// server adds its store to its `ServiceGroup`), and ends it at graceful shutdown.
    ///
    /// A PostgreSQL store opened with ``StoreLifecycle/service`` runs its connection pool
    /// here, so the pool starts and stops with the server and its services; a store whose
    /// work started when it was opened (the default, for tools and tests) waits for the
    /// graceful shutdown and returns. Either way ``close()`` stays the owner's to call.
    func run() async throws

    // MARK: Operations

    /// What the store counts about its own work, for the server's `/metrics`.
    var statistics: StoreStatistics { get }

    /// A relay that carries changes between server instances sharing this store's
    /// database, or `nil` when the store cannot share one (an embedded SQLite file).
    func makeRelay() -> (any ChangeRelay)?
}

/// What a store counts about its own work.
public struct StoreStatistics: Sendable, Equatable {
    /// How warm users' appends were written (engine cache).
    public var appends: EngineCache.AppendCounts?
    /// Statements that wrote guarded appends, and the batches of them that failed: on a
    /// store that writes a warm user's append in one statement (PostgreSQL), else `nil`.
    public var guardedWrites: GuardedStatementCounts?
    /// What the engine cache holds and how it has served, on a store with one.
    public var engineCache: EngineCache.Statistics?

    /// Creates statistics.
    public init(
        appends: EngineCache.AppendCounts? = nil, guardedWrites: GuardedStatementCounts? = nil,
        engineCache: EngineCache.Statistics? = nil
    ) {
        self.appends = appends
        self.guardedWrites = guardedWrites
        self.engineCache = engineCache
    }
}

/// Statements that wrote guarded appends.
public struct GuardedStatementCounts: Sendable, Equatable {
    /// Statements that wrote guarded appends: under load, one carries many users' appends.
    public var statements: Int
    /// Statements of several appends that failed and were written one by one.
    public var failedBatches: Int

    /// Creates counts.
    public init(statements: Int, failedBatches: Int) {
        self.statements = statements
        self.failedBatches = failedBatches
    }
}

extension MomentumStore {
    /// No relay: a store whose database one server instance owns.
    public func makeRelay() -> (any ChangeRelay)? { nil }
}

extension MomentumStore where Self: SQLBackend {
    /// The engine cache's counts.
    public var statistics: StoreStatistics {
        StoreStatistics(appends: engines.appendCounts, engineCache: engines.statistics)
    }
}

/// When a store's background work runs: the loops that write batched appends (SQLite's
/// group commit, PostgreSQL's guarded writes) and PostgreSQL's connection pool.
public enum StoreLifecycle: Sendable, Hashable {
    /// From the moment the store is opened until it is closed: for tools and tests, which
    /// use a store without a service group.
    case whileOpen
    /// While the store runs as a service (``MomentumStore/run()``) in a `ServiceGroup`:
    /// the server's, so that the work starts before the HTTP server and stops after it.
    /// Until the store runs, its writes wait.
    case service
}

extension MomentumStore {
    /// Waits for the graceful shutdown of the service group running the store: a store
    /// whose work runs while it is open has nothing else to run.
    public func run() async throws {
        try? await gracefulShutdown()
    }
}
