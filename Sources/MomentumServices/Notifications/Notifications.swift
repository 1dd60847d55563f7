import Foundation
import Logging
import MomentumCore
import MomentumStore

/// Notifications (seed 004 R3.3 and R11): the scheduler's runs, milestones the moment they
/// are reached, and each user's in-app inbox.
///
/// Each user has a durable wake time in the store. When it comes, a scheduler (any
/// instance: on PostgreSQL they share the work) claims the user, asks Core's
/// `NotificationPlanner` what fell due since the last run, stores it in the inbox (at
/// most once per key) and sets the next wake. Events that change the habits and profile
/// changes touch the wake, so the next run re-plans at once.
public struct Notifications: Sendable {
    let store: any EventStore & NotificationInbox & SocialGraph & ConsoleReads
    /// The now.
    public let now: @Sendable () -> Date
    let changes: ChangePublisher
    let metrics: NotificationMetrics
    let logger: Logger
    /// How long a claimed run may take before another scheduler may take the user.
    public let lease: TimeInterval
    /// How many users one scheduler pass claims at a time.
    public let batch: Int
    /// The webhook events a run notices: streaks lost and frozen when a day closed.
    public let webhookEvents: WebhookEvents

    /// What one pass of the scheduler did.
    public struct PassReport: Equatable, Sendable {
        /// Users whose run was made.
        public var users = 0
        /// Notifications stored in inboxes.
        public var sent = 0
        /// Notifications found after they stopped making sense.
        public var dropped = 0
    }

    /// Runs every user whose wake has come, batch after batch, until none is left.
    @discardableResult
    public func runDue() async throws -> PassReport {
        var report = PassReport()
        while true {
            let now = now()
            let claims = try await store.claimNotificationRuns(now: now, lease: lease, limit: batch)
            for claim in claims {
                do {
                    let (sent, dropped) = try await run(claim, now: now)
                    report.users += 1
                    report.sent += sent
                    report.dropped += dropped
                } catch {
                    // The claim's lease runs out and the user is tried again then.
                    logger.error(
                        "notification run failed",
                        metadata: ["user": .string(claim.user), "error": .string(String(describing: error))])
                }
            }
            if claims.count < batch { break }
        }
        await flushCounts()
        return report
    }

    /// Adds this instance's counts to the store (they wait for the next pass on a failure).
    func flushCounts() async {
        do {
            try await metrics.tally.flush(to: store)
        } catch {
            logger.warning(
                "notification counts not stored yet", metadata: ["error": .string(String(describing: error))])
        }
    }

    /// One user's run: what fell due in `(checkedUntil, now]`.
    private func run(_ claim: NotificationClaim, now: Date) async throws -> (sent: Int, dropped: Int) {
        metrics.runs.increment()
        let (planner, situation, series) = try await store.evaluate(claim.user) { engine, profile in
            var streaks = engine.streaks
            let zoneName = streaks.latestZone ?? profile.timeZone
            let state = streaks.state(at: now, zone: zoneName, calendarDays: 9)
            let series = streaks.series(at: now, zone: zoneName)
            let zone = ZoneOffsetTable.named(zoneName) ?? ZoneOffsetTable.named("UTC")!
            return (
                NotificationPlanner(
                    preferences: profile.notifications, zone: zone, dayStartHour: profile.dayStartHour,
                    translation: profile.translation),
                NotificationPlanner.Situation(state: state, series: series, translation: profile.translation),
                series
            )
        }
        // Before the run is finished: a failure leaves the claim to be run again.
        try await webhookEvents.dayClosed(
            series, user: claim.user, zone: planner.zone, dayStartHour: planner.dayStartHour)
        let plan = planner.run(situation, after: claim.checkedUntil, now: now)
        let stored = try await store.finishNotificationRun(
            claim, now: now, deliver: plan.due, nextWake: plan.nextWake)
        for notification in stored {
            metrics.count(notification.notification.kind, outcome: "sent")
            metrics.scheduled(notification)
        }
        for notification in plan.dropped {
            metrics.count(notification.kind, outcome: "dropped", reason: NotificationDropReason.stale.rawValue)
        }
        if !plan.dropped.isEmpty {
            logger.info(
                "notifications dropped: found after they stopped making sense",
                metadata: [
                    "user": .string(claim.user), "keys": .string(plan.dropped.map(\.key).joined(separator: " ")),
                ])
        }
        if !stored.isEmpty { changes.publish(Change(kind: "notifications", at: now), to: claim.user) }
        return (stored.count, plan.dropped.count)
    }

    /// Asks for the user's notifications to be planned again (their habits or profile
    /// changed, or they just registered).
    public func touch(_ user: String) async throws {
        try await store.touchNotifications(of: [user], at: now())
    }

    /// Whether an event can change when the user's notifications come: a habit created,
    /// changed or archived, or an event removed.
    public static func changesSchedule(_ event: Event) -> Bool {
        switch event.payload {
        case .habitCreated, .habitUpdated, .habitArchived, .removal: true
        default: false
        }
    }

    /// Puts the milestones just reached in the user's inbox at once (when they want them).
    public func milestones(_ unlocks: [Unlock], of user: String) async throws {
        guard !unlocks.isEmpty else { return }
        let now = now()
        let notifications = try await store.evaluate(user) { engine, profile -> [PlannedNotification] in
            guard profile.notifications.celebrations else { return [] }
            let zoneName = engine.streaks.latestZone ?? profile.timeZone
            let zone = ZoneOffsetTable.named(zoneName) ?? ZoneOffsetTable.named("UTC")!
            let planner = NotificationPlanner(
                preferences: profile.notifications, zone: zone, dayStartHour: profile.dayStartHour,
                translation: profile.translation)
            let today = DayClock(dayStartHour: profile.dayStartHour).localDay(of: now, in: zone)
            let subjects = engine.achievements.subjects
            let each = unlocks.map { unlock in
                let message = MessageCatalog.standard.translated(profile.translation).message(
                    for: unlock, subject: unlock.subject.flatMap { subjects[$0] }, today: today)
                return planner.milestone(unlock, title: unlock.title, message: message.text, now: now)
            }
            return Self.grouped(
                each, unlocks: unlocks, now: now,
                strings: Wording.negotiate(profile: profile.language, acceptLanguage: nil))
        }
        let stored = try await store.deliverNotifications(notifications, to: user, at: now)
        metrics.count(.milestone, outcome: "sent", by: stored.count)
        for notification in stored { metrics.scheduled(notification) }
        if !stored.isEmpty { changes.publish(Change(kind: "notifications", at: now), to: user) }
    }

    /// Puts a notification from a friend in a user's inbox (queued for the channels they
    /// allow when they are sent): at most once per key.
    ///
    /// - Parameters:
    ///   - kind: What it is about.
    ///   - key: Its key: a second notification with the same key is not made.
    ///   - user: The recipient.
    ///   - url: The page it opens.
    ///   - habit: The recipient's habit it is about, if any.
    ///   - day: The recipient's local day it belongs to (`nil`: today where they are).
    ///   - expires: When it stops making sense (`nil`: a week from now).
    ///   - words: Its title and body in the recipient's language.
    /// - Returns: Whether it was new.
    @discardableResult
    public func social(
        kind: NotificationKind, key: String, to user: String, url: String, habit: String? = nil,
        day: LocalDay? = nil, expires: Date? = nil, words: (Wording) -> (title: String, body: String)
    ) async throws -> Bool {
        let now = now()
        let (today, language) = try await store.evaluate(user) { engine, profile in
            let zone =
                ZoneOffsetTable.named(engine.streaks.latestZone ?? profile.timeZone)
                ?? ZoneOffsetTable.named("UTC")!
            return (DayClock(dayStartHour: profile.dayStartHour).localDay(of: now, in: zone), profile.language)
        }
        let localDay = day ?? today
        let (title, body) = words(Wording.negotiate(profile: language, acceptLanguage: nil))
        let notification = PlannedNotification(
            key: key, kind: kind, title: title, body: body, url: url, day: localDay, habit: habit, at: now,
            expires: expires ?? now.addingTimeInterval(7 * 86_400))
        let stored = try await store.deliverNotifications([notification], to: user, at: now)
        metrics.count(kind, outcome: "sent", by: stored.count)
        for entry in stored { metrics.scheduled(entry) }
        if !stored.isEmpty { changes.publish(Change(kind: "notifications", at: now), to: user) }
        return !stored.isEmpty
    }

    /// Tells a post's owner about its reactions: the first of the owner's local day makes
    /// a notification (sent to their devices), later ones rewrite it in the inbox ("Ana 🔥,
    /// Bob 👏 and 3 others") instead of making one each (seed 004 R8.5).
    ///
    ///
    /// - Parameters:
    ///   - reactions: Every reaction to the post, the newest first.
    ///   - post: The post's id.
    ///   - owner: The user whose post it is.
    ///   - now: The current instant.
    public func reactions(_ reactions: [PostReaction], to post: String, of owner: String, now: Date) async throws {
        let (day, language) = try await store.evaluate(owner) { engine, profile in
            let zone =
                ZoneOffsetTable.named(engine.streaks.latestZone ?? profile.timeZone)
                ?? ZoneOffsetTable.named("UTC")!
            return (DayClock(dayStartHour: profile.dayStartHour).localDay(of: now, in: zone), profile.language)
        }
        let key = "reaction:\(post):\(day)"
        let (title, body) = Self.reactionWords(
            reactions, Wording.negotiate(profile: language, acceptLanguage: nil))
        if try await social(kind: .reaction, key: key, to: owner, url: "/feed", day: day, words: { _ in (title, body) })
        {
            return
        }
        if try await store.regroupNotification(of: owner, key: key, title: title, body: body) {
            changes.publish(Change(kind: "notifications", at: now), to: owner)
        }
    }

    /// A reaction notification's words: "Ana 🔥 and Bob 👏 reacted", "Ana 🔥, Bob 👏 and 3
    /// others reacted".
    public static func reactionWords(_ reactions: [PostReaction], _ strings: Wording) -> (title: String, body: String) {
        let names = reactions.prefix(2).map { "\($0.displayName) \($0.reaction.emoji)" }
        let others = reactions.count - names.count
        let who =
            others > 0
            ? strings.count("push.reaction.others", others, ["names": names.joined(separator: ", ")])
            : names.count == 2
                ? strings("push.reaction.two", ["first": names[0], "second": names[1]]) : names.first ?? ""
        // One reaction names its friend; several are "friends", in the language's plural.
        let title = strings.count("push.reaction.title", reactions.count, ["name": reactions.first?.displayName ?? ""])
        let body = strings.count("push.reaction.body", reactions.count, ["who": who])
        return (title, body)
    }

    /// Tells every member of a subject's family about the subject's milestones just
    /// reached, whoever logged the event that reached them (the owner hears through
    /// ``milestones(_:of:)``).
    public func familyMilestones(_ unlocks: [Unlock], of owner: String) async throws {
        let subjects = Set(unlocks.compactMap(\.subject))
        guard !subjects.isEmpty else { return }
        let names = try await store.evaluate(owner) { engine, _ in
            engine.achievements.subjects.mapValues(\.name)
        }
        for subject in subjects.sorted() {
            let members = try await store.familyMembers(of: subject, owner: owner)
            guard !members.isEmpty else { continue }
            let name = names[subject] ?? subject
            for unlock in unlocks where unlock.subject == subject {
                for member in members {
                    try await social(
                        kind: .milestone, key: "family:\(owner):\(unlock.id)", to: member.user,
                        url: "/families/\(owner)/\(subject)"
                    ) { strings in
                        (
                            strings("push.family.title", ["name": name, "title": unlock.title]),
                            strings("push.family.body", ["name": name])
                        )
                    }
                }
            }
        }
    }

    /// The most milestones of one write that are each a notification of their own; more
    /// (a history brought in, a backlog synced) make one notification that names the
    /// biggest, so that the inbox is not flooded.
    public static let maximumSeparateMilestones = 3

    /// The milestones of one write as notifications: each its own, or one for them all.
    public static func grouped(
        _ notifications: [PlannedNotification], unlocks: [Unlock], now: Date, strings: Wording = .english
    ) -> [PlannedNotification] {
        guard notifications.count > maximumSeparateMilestones, let first = unlocks.first else { return notifications }
        let biggest = unlocks.enumerated().sorted {
            ($0.element.tier.rawValue, $0.element.achievedAt) > ($1.element.tier.rawValue, $1.element.achievedAt)
        }.prefix(maximumSeparateMilestones).map(\.element.title)
        let latest = unlocks.max { $0.achievedDay < $1.achievedDay }?.achievedDay ?? first.achievedDay
        return [
            PlannedNotification(
                key: "milestones:\(first.id):\(unlocks.count)", kind: .milestone,
                title: strings.count("push.grouped.title", unlocks.count),
                body: strings.count(
                    "push.grouped.body", unlocks.count - biggest.count,
                    ["titles": biggest.joined(separator: " · ")]),
                url: "/journey", day: latest, at: now, expires: now.addingTimeInterval(7 * 86_400))
        ]
    }

    // MARK: The inbox

    /// The most notifications one page of the inbox holds.
    public static let maximumPage = 100

    /// A page of the user's inbox, newest first, and how many are unread.
    public func inbox(
        of user: String, before cursor: String?, limit: Int
    ) async throws -> (notifications: [InboxNotification], unread: Int, next: String?) {
        let position = try cursor.map(Self.position)
        let limit = min(max(limit, 1), Self.maximumPage)
        let page = try await store.notifications(of: user, before: position, limit: limit)
        let unread = try await store.unreadNotificationCount(of: user)
        let next =
            page.count == limit
            ? page.last.map { Self.cursor($0) } : nil
        return (page, unread, next)
    }

    /// How many of the user's notifications are unread (the bell's count).
    public func unreadCount(of user: String) async throws -> Int {
        try await store.unreadNotificationCount(of: user)
    }

    /// Marks notifications read (all of them when `keys` is `nil`); the user's other
    /// devices hear of it.
    ///
    /// - Returns: How many are still unread.
    public func markRead(_ keys: [String]?, caller: Caller) async throws -> Int {
        let now = now()
        if try await store.markNotificationsRead(of: caller.user, keys: keys, at: now) > 0 {
            changes.publish(
                Change(kind: "notifications", device: Tokens.deviceID(caller.tokenHash), at: now), to: caller.user)
        }
        return try await store.unreadNotificationCount(of: caller.user)
    }

    /// The cursor of the page after a notification: its delivery instant (milliseconds)
    /// and key.
    public static func cursor(_ notification: InboxNotification) -> String {
        let millis = Int64((notification.createdAt.timeIntervalSince1970 * 1000).rounded())
        return "\(millis)~\(notification.notification.key)"
    }

    /// Reads a cursor made by ``cursor(_:)``.
    ///
    /// - Throws: `.invalid` naming `before` for anything else.
    public static func position(_ cursor: String) throws -> (createdAt: Date, key: String) {
        let parts = cursor.split(separator: "~", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let millis = Int64(parts[0]), (0...253_402_300_799_000).contains(millis),
            !parts[1].isEmpty
        else { throw ServiceError.invalid("is not a cursor this server gave", field: "before") }
        return (Date(timeIntervalSince1970: Double(millis) / 1000), String(parts[1]))
    }
}
