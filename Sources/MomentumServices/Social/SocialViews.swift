import Foundation
import MomentumCore
import MomentumStore

// The wire forms of friends, invitations, posts and families (`openapi.json`'s schemas of
// the same names). They are built from the store's types, never stored: a stored post's
// fields can be renamed without changing an answer.

/// An invitation as its inviter sees it.
struct InvitationView: Encodable, Sendable {
    var code: String
    var link: String
    var kind: String
    var state: String
    var createdAt: Date
    var expiresAt: Date
    var answeredAt: Date?
    var subject: String?
    var role: String?
    /// In a family's list of its invitations: who made it.
    var inviter: String?
    var inviterName: String?

    init(_ invitation: Invitation, now: Date, inviterName: String? = nil) {
        code = InvitationCode.display(invitation.code)
        link = "/invitations/\(code)"
        kind = invitation.kind.rawValue
        state = invitation.state(at: now).rawValue
        createdAt = invitation.createdAt
        expiresAt = invitation.expiresAt
        answeredAt = invitation.answeredAt
        subject = invitation.subject
        role = invitation.role?.rawValue
        if let inviterName {
            inviter = invitation.inviter
            self.inviterName = inviterName
        }
    }
}

/// What the invitee sees before answering.
struct InvitationPreview: Encodable, Sendable {
    var code: String
    var kind: String
    var inviterName: String
    var expiresAt: Date
    var subject: String?
    var subjectName: String?
    var role: String?
}

/// A friend.
struct FriendView: Encodable, Sendable {
    var user: String
    var displayName: String
    var since: Date

    init(_ friend: Friend) {
        user = friend.user
        displayName = friend.displayName
        since = friend.since
    }
}

/// A family the caller belongs to.
struct MembershipView: Encodable, Sendable {
    var owner: String
    var ownerName: String
    var subject: String
    var subjectName: String?
    var role: String
    var since: Date
}

/// What accepting an invitation made.
struct InvitationAccepted: Encodable, Sendable {
    var kind: String
    var friend: FriendView?
    var membership: MembershipView?
}

/// A habit a friend shares, as the server evaluates it (seed 004 R8.4).
struct SharedHabit: Encodable, Sendable {
    var habit: String
    var name: String
    var current: Int
    var best: Int
    var unit: String
    var doneToday: Bool
    var atRisk: Bool

    init(_ state: HabitState) {
        habit = state.definition.id
        name = state.definition.name
        current = state.current
        best = state.best
        unit = state.streakUnit
        doneToday = state.today.state == .completed
        atRisk = state.today.due && state.today.state == .pending && state.current > 0
    }
}

/// A friend's profile.
struct FriendProfile: Encodable, Sendable {
    var user: String
    var displayName: String
    var since: Date
    var habits: [SharedHabit]
    var achievements: [Unlock]
    var posts: [PostView]
}

/// A nudge sent.
struct NudgeView: Encodable, Sendable {
    var to: String
    var day: String
}

/// What the caller shares, and what they could.
struct SharingView: Encodable, Sendable {
    struct Habit: Encodable, Sendable {
        var id: String
        var name: String
    }

    struct Available: Encodable, Sendable {
        var habits: [Habit]
        var categories: [String]
    }

    var habits: [String]
    var categories: [String]
    var available: Available

    init(settings: SharingSettings, available: Available) {
        habits = settings.habits
        categories = settings.categories
        self.available = available
    }
}

/// A shared achievement.
struct PostView: Encodable, Sendable {
    var owner: String
    var id: String
    var unlock: Unlock
    var habitName: String?
    var subjectName: String?
    var createdAt: Date
    var held: Bool

    init(_ post: Post) {
        owner = post.owner
        id = post.id
        unlock = post.unlock
        habitName = post.habitName
        subjectName = post.subjectName
        createdAt = post.createdAt
        held = post.held
    }
}

/// A post on a feed, with its reactions.
struct FeedItemView: Encodable, Sendable {
    var post: PostView
    var authorName: String
    var reactions: [String: Int]
    var mine: String?
    var addedAt: Date

    init(_ item: FeedItem) {
        post = PostView(item.post)
        authorName = item.authorName
        reactions = Dictionary(uniqueKeysWithValues: item.reactions.map { ($0.key.rawValue, $0.value) })
        mine = item.mine?.rawValue
        addedAt = item.addedAt
    }
}

/// A page of a feed.
struct FeedView: Encodable, Sendable {
    var items: [FeedItemView]
    var next: String?
}

/// What clearing a review flag did.
struct ClearedFlagView: Encodable, Sendable {
    var openFlags: Int
    var releasedPosts: Int
    var readers: Int
}
