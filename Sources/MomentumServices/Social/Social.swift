import Crypto
import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

/// Friends and what they share (seed 004 R8): invitations by code, blocks, what each habit
/// and achievement category shows, shared achievements on friends' feeds, reactions and
/// nudges.
///
/// Every check of who may see or do what is here, and every refusal of something the
/// caller may not know about (a stranger's post, a removed friend, someone who blocked
/// them) is the same 404 as for an id that does not exist.
public struct Social: Sendable {
    let store: any EventStore & AccountStore & SocialGraph & ReviewFlags & NotificationInbox
    let changes: ChangePublisher
    /// The notifications.
    public let notifications: Notifications
    /// Invitations, reactions and nudges per user and minute.
    public let actions: any RequestLimit
    /// Invitation codes looked up per user and minute (guessing codes is slow).
    public let codes: any RequestLimit
    /// The now.
    public let now: @Sendable () -> Date

    /// How long an invitation stays open unless asked otherwise.
    public static let defaultInvitationDays = 7
    /// The most invitations one user makes in 24 hours.
    public static let maximumInvitationsPerDay = 50
    /// The most people one user can block.
    public static let maximumBlocks = 1_000

    // MARK: Invitations

    /// Makes a friend invitation, or (with `subject`) a family invitation.
    public func invite(
        caller: Caller, expiresInDays: Int?, family: (owner: String, subject: String, role: FamilyRole)? = nil
    ) async throws -> InvitationView {
        try actions.check("invite:" + caller.user, scope: "making invitations")
        let days = expiresInDays ?? Self.defaultInvitationDays
        guard (1...30).contains(days) else {
            throw ServiceError.invalid("must be 1 to 30 days, not \(days)", field: "expiresInDays")
        }
        let now = now()
        let recent = try await store.invitations(
            of: caller.user, since: now.addingTimeInterval(-86_400), limit: Self.maximumInvitationsPerDay + 1)
        guard recent.count < Self.maximumInvitationsPerDay else {
            throw ServiceError(
                .tooMany(retryAfterSeconds: 3600), "rate_limited",
                "at most \(Self.maximumInvitationsPerDay) invitations a day; withdrawn ones count too")
        }
        let invitation = Invitation(
            code: InvitationCode.make(), inviter: caller.user, kind: family == nil ? .friend : .family,
            subjectOwner: family?.owner, subject: family?.subject, role: family?.role, createdAt: now,
            expiresAt: now.addingTimeInterval(Double(days) * 86_400))
        try await store.createInvitation(invitation)
        return InvitationView(invitation, now: now)
    }

    /// The invitations the caller made in the last 30 days.
    public func invitations(caller: Caller) async throws -> [InvitationView] {
        let now = now()
        return try await store.invitations(of: caller.user, since: now.addingTimeInterval(-30 * 86_400), limit: 200)
            .map { InvitationView($0, now: now) }
    }

    /// What the invitee sees before answering: who invites, to what.
    ///
    /// - Throws: 404 for a code that is not open to the caller, whatever the reason.
    public func preview(code: String, caller: Caller) async throws -> InvitationPreview {
        try codes.check("code:" + caller.user, scope: "looking up invitation codes")
        let now = now()
        guard let normalized = InvitationCode.normalize(code),
            let invitation = try await store.invitation(code: normalized),
            invitation.state(at: now) == .pending,
            try await !store.isBlocked(between: invitation.inviter, and: caller.user)
        else { throw Self.noInvitation(code) }
        let inviter = try await store.profile(of: invitation.inviter)?.displayName ?? ""
        var subjectName: String?
        if let owner = invitation.subjectOwner, let subject = invitation.subject {
            // What accepting would refuse, the preview does not show: a family whose owner
            // and the caller blocked one another, or a maker who no longer manages it.
            if try await store.isBlocked(between: owner, and: caller.user) { throw Self.noInvitation(code) }
            if invitation.inviter != owner,
                try await store.familyRole(of: invitation.inviter, subject: subject, owner: owner)?.manages != true
            {
                throw Self.noInvitation(code)
            }
            subjectName = try await store.evaluate(owner) { engine, _ in engine.achievements.subjects[subject]?.name }
        }
        return InvitationPreview(
            code: InvitationCode.display(invitation.code), kind: invitation.kind.rawValue, inviterName: inviter,
            expiresAt: invitation.expiresAt, subject: invitation.subject, subjectName: subjectName,
            role: invitation.role?.rawValue)
    }

    /// Accepts or declines an invitation; accepting makes friends (or a family member) and
    /// tells the inviter.
    ///
    /// - Returns: The friendship or membership made, `nil` when declined.
    /// - Throws: 404 for a code that is not open to the caller; 409 when the two are
    ///   already friends (the member already in the family).
    @discardableResult
    public func answer(code: String, accept: Bool, caller: Caller) async throws -> InvitationAccepted? {
        try codes.check("code:" + caller.user, scope: "looking up invitation codes")
        guard let normalized = InvitationCode.normalize(code) else { throw Self.noInvitation(code) }
        let now = now()
        switch try await store.answerInvitation(code: normalized, by: caller.user, accept: accept, at: now) {
        case .unavailable:
            throw Self.noInvitation(code)
        case .alreadyConnected:
            throw ServiceError(.conflict, "already_connected", "you are already friends (or in this family)")
        case .declined:
            return nil
        case .accepted(let invitation):
            let name = try await store.profile(of: caller.user)?.displayName ?? "Someone"
            changes.publish(Change(kind: "friends", at: now), to: invitation.inviter)
            changes.publish(Change(kind: "friends", at: now), to: caller.user)
            if let owner = invitation.subjectOwner, let subject = invitation.subject {
                let subjectName =
                    try await store.evaluate(owner) { engine, _ in engine.achievements.subjects[subject]?.name }
                    ?? subject
                let role = invitation.role ?? .viewer
                try await notifications.social(
                    kind: .friend, key: "family:\(invitation.code)", to: invitation.inviter,
                    url: "/families/\(owner)/\(subject)"
                ) { strings in
                    let values = ["name": name, "subject": subjectName]
                    let body =
                        switch role {
                        case .coOwner: strings("push.familyJoined.coOwner", values)
                        case .caregiver: strings("push.familyJoined.caregiver", values)
                        case .viewer: strings("push.familyJoined.viewer", values)
                        }
                    return (strings("push.familyJoined.title", values), body)
                }
                let ownerName = try await store.profile(of: owner)?.displayName ?? ""
                return InvitationAccepted(
                    kind: "family", friend: nil,
                    membership: MembershipView(
                        owner: owner, ownerName: ownerName, subject: subject, subjectName: subjectName,
                        role: (invitation.role ?? .viewer).rawValue, since: now))
            }
            try await notifications.social(
                kind: .friend, key: "friend:\(invitation.code)", to: invitation.inviter, url: "/friends/\(caller.user)"
            ) { strings in
                (
                    strings("push.friendAccepted.title", ["name": name]),
                    strings("push.friendAccepted.body", ["name": name])
                )
            }
            let friend = try await store.friend(invitation.inviter, of: caller.user)
            return InvitationAccepted(kind: "friend", friend: friend.map(FriendView.init), membership: nil)
        }
    }

    /// Withdraws an open invitation of the caller's.
    public func revoke(code: String, caller: Caller) async throws {
        guard let normalized = InvitationCode.normalize(code),
            try await store.revokeInvitation(code: normalized, of: caller.user, at: now())
        else { throw Self.noInvitation(code) }
    }

    static func noInvitation(_ code: String) -> ServiceError {
        ServiceError(
            .notFound, "not_found",
            "invitation '\(code.prefix(40))' not found: it may be mistyped, expired, withdrawn or used")
    }

    // MARK: Friends

    /// The caller's friends.
    public func friends(caller: Caller) async throws -> [FriendView] {
        try await store.friends(of: caller.user).map(FriendView.init)
    }

    /// A friend's profile: their shared habits with the server's current streaks, their
    /// achievements in the categories they share (one about a habit only when that habit is
    /// shared too), and their posts.
    ///
    /// - Throws: 404 unless the two are friends.
    public func profile(of friendID: String, caller: Caller) async throws -> FriendProfile {
        guard let friend = try await store.friend(friendID, of: caller.user) else { throw Self.noFriend(friendID) }
        let sharing = try await store.sharing(of: friendID)
        let now = now()
        let (habits, unlocks) = try await store.evaluate(friendID) { engine, profile in
            let state = engine.state(now: now, profile: profile, days: 1)
            let shared = Set(sharing.habits)
            let categories = Set(sharing.categories)
            return (
                state.habits.filter { shared.contains($0.definition.id) && $0.archivedDay == nil }.map(
                    SharedHabit.init),
                engine.unlocks.filter { Self.shows($0, categories: categories, habits: shared) }
                    .sorted { ($0.achievedAt, $0.id) > ($1.achievedAt, $1.id) }.prefix(50).map { $0 }
            )
        }
        let posts = try await store.posts(of: friendID, limit: 20).filter { !$0.held }.map(PostView.init)
        return FriendProfile(
            user: friend.user, displayName: friend.displayName, since: friend.since, habits: habits,
            achievements: unlocks, posts: posts)
    }

    /// Whether friends see an achievement on its owner's profile: its category is shared
    /// and, when it is about a habit, so is that habit (a shared category does not reveal a
    /// private habit's name or id).
    public static func shows(_ unlock: Unlock, categories: Set<String>, habits: Set<String>) -> Bool {
        guard categories.contains(unlock.category) else { return false }
        guard let habit = unlock.habit else { return true }
        return habits.contains(habit)
    }

    /// Ends a friendship.
    public func remove(friend friendID: String, caller: Caller) async throws {
        guard try await store.removeFriend(friendID, of: caller.user) else { throw Self.noFriend(friendID) }
        let now = now()
        changes.publish(Change(kind: "friends", at: now), to: caller.user)
        changes.publish(Change(kind: "friends", at: now), to: friendID)
    }

    /// Cheers on a friend whose shared streak is at risk today: at most once a day from
    /// each friend, never more than the friend takes in a day, and only when they take nudges.
    public func nudge(_ friendID: String, caller: Caller) async throws -> NudgeView {
        try actions.check("nudge:" + caller.user, scope: "nudging")
        guard try await store.friend(friendID, of: caller.user) != nil else { throw Self.noFriend(friendID) }
        let sharing = Set(try await store.sharing(of: friendID).habits)
        let now = now()
        let (atRisk, day, zoneName, preferences, name, dayStartHour) = try await store.evaluate(friendID) {
            engine, profile in
            let state = engine.state(now: now, profile: profile, days: 1)
            let risky = state.habits.filter { sharing.contains($0.definition.id) && SharedHabit($0).atRisk }
            return (
                risky, state.today, engine.streaks.latestZone ?? profile.timeZone, profile.notifications,
                profile.displayName, profile.dayStartHour
            )
        }
        guard preferences.nudges else {
            throw ServiceError(.conflict, "not_taking_nudges", "\(name) is not taking nudges")
        }
        guard let habit = atRisk.max(by: { $0.current < $1.current }) else {
            throw ServiceError(.conflict, "nothing_at_risk", "none of \(name)'s shared streaks is at risk today")
        }
        let prefix = "nudge:\(day):"
        let today = try await store.notifications(of: friendID, before: nil, limit: 200)
            .filter { $0.notification.key.hasPrefix(prefix) }
        if today.contains(where: { $0.notification.key == prefix + caller.user }) {
            throw ServiceError(.conflict, "already_nudged", "you cheered \(name) on today already")
        }
        guard today.count < preferences.nudgesPerDay else {
            throw ServiceError(.conflict, "not_taking_nudges", "\(name) has had all the cheering they take today")
        }
        let sender = try await store.profile(of: caller.user)?.displayName ?? "A friend"
        let zone = ZoneOffsetTable.named(zoneName) ?? ZoneOffsetTable.named("UTC")!
        let dayEnd = Date(
            timeIntervalSince1970: Double(DayClock(dayStartHour: dayStartHour).start(of: day.advanced(by: 1), in: zone))
        )
        let unit = habit.streakUnit
        try await notifications.social(
            kind: .nudge, key: prefix + caller.user, to: friendID, url: "/today", habit: habit.definition.id, day: day,
            expires: dayEnd
        ) { strings in
            let values = [
                "sender": sender, "count": strings.number(Double(habit.current)), "habit": habit.definition.name,
            ]
            let body =
                switch unit {
                case "week": strings.count("push.nudge.body.week", habit.current, values)
                case "month": strings.count("push.nudge.body.month", habit.current, values)
                default: strings.count("push.nudge.body.day", habit.current, values)
                }
            return (strings("push.nudge.title", values), body)
        }
        return NudgeView(to: friendID, day: day.description)
    }

    static func noFriend(_ id: String) -> ServiceError { ServiceError.notFound("friend '\(id.prefix(64))'") }

    // MARK: Blocks

    /// Blocks someone; the answer is the same whether or not the id is an account. It also
    /// ends each one's membership in the families of the other's subjects: a block is not
    /// compatible with looking after someone's subject, logging into their history, or
    /// letting them log into one's own.
    public func block(_ other: String, caller: Caller) async throws {
        guard other != caller.user else { throw ServiceError.invalid("you cannot block yourself", field: "user") }
        guard other.utf8.count <= 128 else { throw ServiceError.invalid("is not a user id", field: "user") }
        guard try await store.blocks(of: caller.user).count < Self.maximumBlocks else {
            throw ServiceError(.conflict, "too_many_blocks", "at most \(Self.maximumBlocks) people can be blocked")
        }
        let now = now()
        try await store.block(other, by: caller.user, at: now)
        for kind in ["friends", "families"] {
            changes.publish(Change(kind: kind, at: now), to: caller.user)
            changes.publish(Change(kind: kind, at: now), to: other)
        }
    }

    /// Lifts a block.
    public func unblock(_ other: String, caller: Caller) async throws {
        guard try await store.unblock(other, by: caller.user) else {
            throw ServiceError.notFound("block of '\(other.prefix(64))'")
        }
    }

    /// Whom the caller blocked.
    public func blocks(caller: Caller) async throws -> [BlockedUser] { try await store.blocks(of: caller.user) }

    // MARK: Sharing

    /// What the caller shares, and what they could.
    public func sharing(caller: Caller) async throws -> SharingView {
        let settings = try await store.sharing(of: caller.user)
        return SharingView(settings: settings, available: try await available(caller.user))
    }

    /// Replaces what the caller shares (a list left out keeps its value).
    ///
    /// - Throws: 422 naming a habit or category the caller does not have.
    public func setSharing(habits: [String]?, categories: [String]?, caller: Caller) async throws -> SharingView {
        let available = try await available(caller.user)
        var problems: [ServiceError.Field] = []
        let habitIDs = Set(available.habits.map(\.id))
        for (index, habit) in (habits ?? []).enumerated() where !habitIDs.contains(habit) {
            problems.append(.init(field: "habits[\(index)]", issue: "'\(habit.prefix(64))' is not one of your habits"))
        }
        let categoryIDs = Set(available.categories)
        for (index, category) in (categories ?? []).enumerated() where !categoryIDs.contains(category) {
            problems.append(
                .init(
                    field: "categories[\(index)]",
                    issue:
                        "'\(category.prefix(64))' is not an achievement category: \(available.categories.joined(separator: ", "))"
                ))
        }
        if (habits?.count ?? 0) > 500 { problems.append(.init(field: "habits", issue: "at most 500 habits")) }
        if (categories?.count ?? 0) > 100 {
            problems.append(.init(field: "categories", issue: "at most 100 categories"))
        }
        if let first = problems.first {
            throw ServiceError(.invalid, "invalid_input", first.issue, fields: problems)
        }
        let current = try await store.sharing(of: caller.user)
        let settings = SharingSettings(
            habits: habits ?? current.habits, categories: categories ?? current.categories)
        try await store.setSharing(settings, of: caller.user)
        return SharingView(settings: settings, available: available)
    }

    /// The habits and achievement categories a user could share.
    private func available(_ user: String) async throws -> SharingView.Available {
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            let state = engine.state(now: now, profile: profile, days: 1)
            let pack = (try? profile.rulePack().achievements.map(\.category)) ?? []
            let categories = Set(pack + engine.unlocks.map(\.category)).sorted()
            return SharingView.Available(
                habits: state.habits.filter { $0.archivedDay == nil }.map {
                    .init(id: $0.definition.id, name: $0.definition.name)
                },
                categories: categories)
        }
    }

    // MARK: Posts

    /// Shares an achievement the server derived (seed 004 R8.1, R8.2).
    ///
    /// - Returns: The post, and whether this share made it.
    /// - Throws: 404 for an achievement the caller does not have.
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
    /// - Throws: 404 when the caller cannot see the post (or it is their own).
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

/// Invitation codes: 12 characters of an alphabet without look-alikes (60 bits), shown
/// as `XXXX-XXXX-XXXX`, typed in any case, with or without dashes and spaces.
public enum InvitationCode: Sendable {
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789".utf8) + [UInt8(ascii: "L")]

    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bits = generator.next() as UInt64
        var code = ""
        for _ in 0..<12 {
            code.append(Character(UnicodeScalar(alphabet[Int(bits & 31)])))
            bits >>= 5
        }
        return code
    }

    static func normalize(_ text: String) -> String? {
        let kept = text.uppercased().filter { $0 != "-" && $0 != " " }
        guard kept.count == 12, kept.utf8.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return kept
    }

    static func display(_ code: String) -> String {
        let characters = Array(code)
        guard characters.count == 12 else { return code }
        return String(characters[0..<4]) + "-" + String(characters[4..<8]) + "-" + String(characters[8..<12])
    }
}
