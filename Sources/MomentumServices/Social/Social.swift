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
/// them) is the same `.notFound` as for an id that does not exist.
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

    // MARK: Friends

    /// The caller's friends.
    public func friends(caller: Caller) async throws -> [FriendView] {
        try await store.friends(of: caller.user).map(FriendView.init)
    }

    /// A friend's profile: their shared habits with the server's current streaks, their
    /// achievements in the categories they share (one about a habit only when that habit is
    /// shared too), and their posts.
    ///
    /// - Throws: `.notFound` unless the two are friends.
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
    /// - Throws: `.invalid` naming a habit or category the caller does not have.
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
        if !problems.isEmpty {
            throw ServiceError.invalid(problems)
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
            let pack = (try? profile.rulePack(in: store.packLibrary).achievements.map(\.category)) ?? []
            let categories = Set(pack + engine.unlocks.map(\.category)).sorted()
            return SharingView.Available(
                habits: state.habits.filter { $0.archivedDay == nil }.map {
                    .init(id: $0.definition.id, name: $0.definition.name)
                },
                categories: categories)
        }
    }
}
