/// `/friends`: invitations, friends, what the user shares, and whom they blocked.
struct FriendsPage: TemplateModel {
    static let template = "friends"

    /// A friend, or someone blocked (without `since`).
    struct Person: Codable {
        var id: String
        var name: String
        var since: String?
    }

    /// An open friend invitation.
    struct Invitation: Codable {
        var code: String
        var link: String
        var expires: String
    }

    /// A habit or a category the user may share, checked when shared.
    struct Shareable: Codable {
        var id: String
        var name: String
        var checked: Bool
    }

    /// A family the user belongs to (not as its owner).
    struct Family: Codable {
        var owner: String
        var subject: String
        var subjectName: String
        var line: String
    }

    var friends: [Person]
    var noFriends: Bool
    var invitations: [Invitation]
    var hasInvitations: Bool
    var shareHabits: [Shareable]
    var shareCategories: [Shareable]
    var noHabitsToShare: Bool
    var blocked: [Person]
    var hasBlocked: Bool
    var families: [Family]
    var hasFamilies: Bool
}

/// `/friends/{id}`: a friend's shared streaks, achievements and posts.
struct FriendPage: TemplateModel {
    static let template = "friend"

    /// Who the friend is.
    struct Friend: Codable {
        var id: String
        var name: String
        var since: String
        var noStreaks: String
        var cheer: String
    }

    /// A habit the friend shares.
    struct Habit: Codable {
        var name: String
        var current: Int
        var best: Int
        var streak: String
        var doneToday: Bool
        var atRisk: Bool
    }

    /// An achievement or a post: its badge, title and day.
    struct Unlock: Codable {
        var badge: String
        var title: String
        var day: String
    }

    var friend: Friend
    var habits: [Habit]
    var noHabits: Bool
    var canNudge: Bool
    var achievements: [Unlock]
    var hasAchievements: Bool
    var posts: [Unlock]
    var hasPosts: Bool
}

/// `/feed`: friends' posts and the user's own, newest first, with reactions.
struct FeedPage: TemplateModel {
    static let template = "feed"

    /// One post.
    struct Item: Codable {
        var owner: String
        var post: String
        var own: Bool
        var author: String
        var badge: String
        var title: String
        var tier: Int
        var detail: String
        var when: String
        var reactions: [Reaction]
    }

    /// One kind of reaction to a post.
    struct Reaction: Codable {
        var kind: String
        var emoji: String
        var count: Int
        var hasCount: Bool
        var mine: Bool
        var canReact: Bool
        var label: String
    }

    var items: [Item]
    var noItems: Bool
    /// The cursor of the next, older page; `nil` on the last.
    var next: String?
}

/// `/memories`: the user's memories, by category, and those of this day in past years.
struct MemoriesPage: TemplateModel {
    static let template = "memories"

    /// A category's link.
    struct Category: Codable {
        var name: String
        var href: String
        var current: Bool
    }

    var memories: [MemoryCard]
    var noMemories: Bool
    var onThisDay: [MemoryCard]
    var hasOnThisDay: Bool
    var categories: [Category]
}

/// A memory as a card shows it.
struct MemoryCard: Codable {
    var id: String
    /// The id as a path segment.
    var escapedID: String
    var illustration: String
    var title: String
    var caption: String
    var categoryName: String
    var photoAlt: String
    var day: String
    var note: String
    var photo: String
    var hasPhoto: Bool
}
