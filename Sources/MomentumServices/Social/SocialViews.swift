import Foundation
import MomentumCore
import MomentumStore

// The wire forms of friends, invitations, posts and families (`openapi.json`'s schemas of
// the same names). They are built from the store's types, never stored: a stored post's
// fields can be renamed without changing an answer.

/// An invitation as its inviter sees it.
public struct InvitationView: Encodable, Sendable {
    /// The code.
    public var code: String
    /// The link.
    public var link: String
    /// The kind.
    public var kind: String
    /// The state.
    public var state: String
    /// The created at.
    public var createdAt: Date
    /// The expires at.
    public var expiresAt: Date
    /// The answered at.
    public var answeredAt: Date?
    /// The subject.
    public var subject: String?
    /// The role.
    public var role: String?
    /// In a family's list of its invitations: who made it.
    public var inviter: String?
    /// The inviter name.
    public var inviterName: String?

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
public struct InvitationPreview: Encodable, Sendable {
    /// The code.
    public var code: String
    /// The kind.
    public var kind: String
    /// The inviter name.
    public var inviterName: String
    /// The expires at.
    public var expiresAt: Date
    /// The subject.
    public var subject: String?
    /// The subject name.
    public var subjectName: String?
    /// The role.
    public var role: String?
}

/// A friend.
public struct FriendView: Encodable, Sendable {
    /// The user.
    public var user: String
    /// The display name.
    public var displayName: String
    /// The since.
    public var since: Date

    init(_ friend: Friend) {
        user = friend.user
        displayName = friend.displayName
        since = friend.since
    }
}

/// A family the caller belongs to.
public struct MembershipView: Encodable, Sendable {
    /// The owner.
    public var owner: String
    /// The owner name.
    public var ownerName: String
    /// The subject.
    public var subject: String
    /// The subject name.
    public var subjectName: String?
    /// The role.
    public var role: String
    /// The since.
    public var since: Date
}

/// What accepting an invitation made.
public struct InvitationAccepted: Encodable, Sendable {
    /// The kind.
    public var kind: String
    /// The friend.
    public var friend: FriendView?
    /// The membership.
    public var membership: MembershipView?
}

/// A habit a friend shares, as the server evaluates it (seed 004 R8.4).
public struct SharedHabit: Encodable, Sendable {
    /// The habit.
    public var habit: String
    /// The name.
    public var name: String
    /// The current.
    public var current: Int
    /// The best.
    public var best: Int
    /// The unit.
    public var unit: String
    /// The done today.
    public var doneToday: Bool
    /// The at risk.
    public var atRisk: Bool

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
public struct FriendProfile: Encodable, Sendable {
    /// The user.
    public var user: String
    /// The display name.
    public var displayName: String
    /// The since.
    public var since: Date
    /// The habits.
    public var habits: [SharedHabit]
    /// The achievements.
    public var achievements: [Unlock]
    /// The posts.
    public var posts: [PostView]
}

/// A nudge sent.
public struct NudgeView: Encodable, Sendable {
    /// The to.
    public var to: String
    /// The day.
    public var day: String
}

/// What the caller shares, and what they could.
public struct SharingView: Encodable, Sendable {
    /// A habit the user could share.
    public struct Habit: Encodable, Sendable {
        /// The id.
        public var id: String
        /// The name.
        public var name: String
    }

    /// What the user could share: their habits and the memories' categories.
    public struct Available: Encodable, Sendable {
        /// The habits.
        public var habits: [Habit]
        /// The categories.
        public var categories: [String]
    }

    /// The habits.
    public var habits: [String]
    /// The categories.
    public var categories: [String]
    /// What the user could share.
    public var available: Available

    init(settings: SharingSettings, available: Available) {
        habits = settings.habits
        categories = settings.categories
        self.available = available
    }
}

/// A shared achievement.
public struct PostView: Encodable, Sendable {
    /// The owner.
    public var owner: String
    /// The id.
    public var id: String
    /// The unlock.
    public var unlock: Unlock
    /// The habit name.
    public var habitName: String?
    /// The subject name.
    public var subjectName: String?
    /// The created at.
    public var createdAt: Date
    /// The held.
    public var held: Bool

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
public struct FeedItemView: Encodable, Sendable {
    /// The post.
    public var post: PostView
    /// The author name.
    public var authorName: String
    /// The reactions.
    public var reactions: [String: Int]
    /// The mine.
    public var mine: String?
    /// The added at.
    public var addedAt: Date

    init(_ item: FeedItem) {
        post = PostView(item.post)
        authorName = item.authorName
        reactions = Dictionary(uniqueKeysWithValues: item.reactions.map { ($0.key.rawValue, $0.value) })
        mine = item.mine?.rawValue
        addedAt = item.addedAt
    }
}

/// A page of a feed.
public struct FeedView: Encodable, Sendable {
    /// The items.
    public var items: [FeedItemView]
    /// The next.
    public var next: String?
}

/// What clearing a review flag did.
public struct ClearedFlagView: Encodable, Sendable {
    /// The open flags.
    public var openFlags: Int
    /// The released posts.
    public var releasedPosts: Int
    /// The readers.
    public var readers: Int
}
