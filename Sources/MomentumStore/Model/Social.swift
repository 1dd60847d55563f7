import Foundation
import MomentumCore

/// What an invitation offers: friendship, or a place in a subject's family.
public enum InvitationKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// Becoming friends: each sees the other's shared habits and posts.
    case friend
    /// Joining the family of one of the inviter's subjects (the puppy), in a role.
    case family
}

/// A member's role in a subject's family.
public enum FamilyRole: String, Hashable, Sendable, Codable, CaseIterable {
    /// Logs events, invites and removes members, like the owner (but cannot remove the owner).
    case coOwner = "co-owner"
    /// Logs events for the subject.
    case caregiver
    /// Sees the subject's achievements and memories; logs nothing.
    case viewer

    /// Whether the role may log the subject's events.
    public var logs: Bool { self != .viewer }
    /// Whether the role may invite, change and remove members.
    public var manages: Bool { self == .coOwner }
}

/// An invitation by code: one person accepts or declines it, once.
public struct Invitation: Hashable, Sendable {
    /// How an invitation was answered.
    public enum Answer: String, Hashable, Sendable, Codable {
        /// The invitee accepted.
        case accepted
        /// The invitee declined.
        case declined
    }

    /// Where an invitation stands at an instant.
    public enum State: String, Hashable, Sendable, Codable {
        /// Open: it can be accepted or declined.
        case pending
        /// Accepted.
        case accepted
        /// Declined.
        case declined
        /// Withdrawn by its inviter.
        case revoked
        /// Past its expiry, unanswered.
        case expired
    }

    /// The code (also the link's last path component); unique across the server.
    public var code: String
    /// The user who made it.
    public var inviter: String
    /// Friendship or family.
    public var kind: InvitationKind
    /// For a family invitation: the subject's owner (the inviter, or the owner a co-owner
    /// invites for).
    public var subjectOwner: String?
    /// For a family invitation: the subject.
    public var subject: String?
    /// For a family invitation: the role offered.
    public var role: FamilyRole?
    /// When it was made.
    public var createdAt: Date
    /// When it stops being valid.
    public var expiresAt: Date
    /// When its inviter withdrew it, if they did.
    public var revokedAt: Date?
    /// The answer, if any.
    public var answer: Answer?
    /// Who answered, if anyone.
    public var answeredBy: String?
    /// When it was answered.
    public var answeredAt: Date?

    /// Creates an invitation.
    public init(
        code: String, inviter: String, kind: InvitationKind, subjectOwner: String? = nil, subject: String? = nil,
        role: FamilyRole? = nil, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil, answer: Answer? = nil,
        answeredBy: String? = nil, answeredAt: Date? = nil
    ) {
        self.code = code
        self.inviter = inviter
        self.kind = kind
        self.subjectOwner = subjectOwner
        self.subject = subject
        self.role = role
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.answer = answer
        self.answeredBy = answeredBy
        self.answeredAt = answeredAt
    }

    /// Where it stands at `now`.
    public func state(at now: Date) -> State {
        if let answer { return answer == .accepted ? .accepted : .declined }
        if revokedAt != nil { return .revoked }
        return now >= expiresAt ? .expired : .pending
    }
}

/// What answering an invitation did.
public enum InvitationOutcome: Hashable, Sendable {
    /// Accepted: the two are friends, or the invitee is a member of the family.
    case accepted(Invitation)
    /// Declined.
    case declined(Invitation)
    /// No open invitation with that code for this person: unknown, expired, revoked,
    /// answered, made by someone who blocked them or whom they blocked, or their own.
    case unavailable
    /// The invitee is already a friend or a member; nothing changed and the invitation stays open.
    case alreadyConnected
}

/// One of a user's friends.
public struct Friend: Hashable, Sendable, Codable {
    /// The friend's user id.
    public var user: String
    /// The name their profile shows.
    public var displayName: String
    /// When they became friends.
    public var since: Date

    /// Creates a friend entry.
    public init(user: String, displayName: String, since: Date) {
        self.user = user
        self.displayName = displayName
        self.since = since
    }
}

/// Someone a user blocked.
public struct BlockedUser: Hashable, Sendable, Codable {
    /// The blocked person's user id.
    public var user: String
    /// The name their profile shows (empty when the account is gone).
    public var displayName: String
    /// When they were blocked.
    public var since: Date

    /// Creates a block entry.
    public init(user: String, displayName: String, since: Date) {
        self.user = user
        self.displayName = displayName
        self.since = since
    }
}

/// What a user shares with friends: habits and achievement categories, each private
/// until it is named here.
public struct SharingSettings: Hashable, Sendable, Codable {
    /// The habits whose current streaks friends see.
    public var habits: [String]
    /// The achievement categories whose achievements friends see on the profile.
    public var categories: [String]

    /// Creates sharing settings; each list is sorted and without repeats.
    public init(habits: [String] = [], categories: [String] = []) {
        self.habits = Array(Set(habits)).sorted()
        self.categories = Array(Set(categories)).sorted()
    }

    /// Nothing shared.
    public static let none = SharingSettings()
}

/// A shared achievement: a post on the achiever's friends' feeds.
public struct Post: Hashable, Sendable, Codable {
    /// The achiever's user id.
    public var owner: String
    /// The post's id, the same for every share of one achievement.
    public var id: String
    /// The achievement, as the server derived it.
    public var unlock: Unlock
    /// The name of the habit it is about, if any.
    public var habitName: String?
    /// The name of the subject it is about (the puppy), if any.
    public var subjectName: String?
    /// When it was shared.
    public var createdAt: Date
    /// Whether it waits for a review of its owner's account before friends see it.
    public var held: Bool

    /// Creates a post.
    public init(
        owner: String, id: String, unlock: Unlock, habitName: String? = nil, subjectName: String? = nil,
        createdAt: Date, held: Bool = false
    ) {
        self.owner = owner
        self.id = id
        self.unlock = unlock
        self.habitName = habitName
        self.subjectName = subjectName
        self.createdAt = createdAt
        self.held = held
    }
}

/// The congratulations a friend can give a post (seed 004 R8.3).
public enum ReactionKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// 👏
    case clap
    /// 🔥
    case fire
    /// 🎉
    case party
    /// 💪
    case strong
    /// ❤️
    case heart

    /// The emoji shown for it.
    public var emoji: String {
        switch self {
        case .clap: "👏"
        case .fire: "🔥"
        case .party: "🎉"
        case .strong: "💪"
        case .heart: "❤️"
        }
    }
}

/// One friend's reaction to a post.
public struct PostReaction: Hashable, Sendable, Codable {
    /// Who reacted.
    public var user: String
    /// Their name.
    public var displayName: String
    /// The reaction.
    public var reaction: ReactionKind
    /// When they reacted (or last changed it).
    public var at: Date

    /// Creates a reaction entry.
    public init(user: String, displayName: String, reaction: ReactionKind, at: Date) {
        self.user = user
        self.displayName = displayName
        self.reaction = reaction
        self.at = at
    }
}

/// A post as one reader sees it on their feed.
public struct FeedItem: Hashable, Sendable {
    /// The post.
    public var post: Post
    /// Its author's name as their profile shows it now.
    public var authorName: String
    /// How many of each reaction it has.
    public var reactions: [ReactionKind: Int]
    /// The reader's own reaction, if any.
    public var mine: ReactionKind?
    /// When it reached this feed (the order of the feed, newest first).
    public var addedAt: Date

    /// Creates a feed item.
    public init(
        post: Post, authorName: String, reactions: [ReactionKind: Int], mine: ReactionKind?, addedAt: Date
    ) {
        self.post = post
        self.authorName = authorName
        self.reactions = reactions
        self.mine = mine
        self.addedAt = addedAt
    }
}

/// What reacting did to a post.
public struct ReactionOutcome: Hashable, Sendable {
    /// The reaction before.
    public var previous: ReactionKind?
    /// The post's reactions after, every friend's, newest first.
    public var reactions: [PostReaction]

    /// Creates an outcome.
    public init(previous: ReactionKind?, reactions: [PostReaction]) {
        self.previous = previous
        self.reactions = reactions
    }
}

/// One member of a subject's family.
public struct FamilyMember: Hashable, Sendable, Codable {
    /// The subject's owner.
    public var owner: String
    /// The subject.
    public var subject: String
    /// The member's user id.
    public var user: String
    /// The member's name.
    public var displayName: String
    /// The member's role.
    public var role: FamilyRole
    /// When they joined.
    public var since: Date

    /// Creates a member entry.
    public init(owner: String, subject: String, user: String, displayName: String, role: FamilyRole, since: Date) {
        self.owner = owner
        self.subject = subject
        self.user = user
        self.displayName = displayName
        self.role = role
        self.since = since
    }
}

/// A subject shared with a user: the family they belong to.
public struct Membership: Hashable, Sendable, Codable {
    /// The subject's owner.
    public var owner: String
    /// The owner's name.
    public var ownerName: String
    /// The subject.
    public var subject: String
    /// The user's role.
    public var role: FamilyRole
    /// When they joined.
    public var since: Date

    /// Creates a membership.
    public init(owner: String, ownerName: String, subject: String, role: FamilyRole, since: Date) {
        self.owner = owner
        self.ownerName = ownerName
        self.subject = subject
        self.role = role
        self.since = since
    }
}

/// What sharing an achievement did.
public struct SharedPost: Hashable, Sendable {
    /// The post as stored (the earlier one when it had been shared before).
    public var post: Post
    /// Whether this share made it.
    public var created: Bool
    /// The readers whose feeds received it (none while it is held, or when it existed).
    public var readers: [String]

    /// Creates an outcome.
    public init(post: Post, created: Bool, readers: [String]) {
        self.post = post
        self.created = created
        self.readers = readers
    }
}

/// Where a page of a feed ends: the next page begins after it.
public struct FeedCursor: Hashable, Sendable {
    /// When the last item reached the feed.
    public var addedAt: Date
    /// Its author.
    public var author: String
    /// Its post.
    public var post: String

    /// Creates a cursor.
    public init(addedAt: Date, author: String, post: String) {
        self.addedAt = addedAt
        self.author = author
        self.post = post
    }
}

/// What clearing a review flag did.
public struct ClearedFlag: Hashable, Sendable {
    /// The user's flags still open.
    public var openFlags: Int
    /// When none is left: each held post now released, with the readers it reached.
    public var released: [String: [String]]

    /// Creates an outcome.
    public init(openFlags: Int, released: [String: [String]]) {
        self.openFlags = openFlags
        self.released = released
    }
}
