/// `/families/{owner}/{subject}`: a subject's family as one of its members sees it.
struct FamilyPage: TemplateModel {
    static let template = "family"

    /// An achievement of the subject.
    struct Achievement: Codable {
        var badge: String
        var title: String
        var day: String
    }

    /// A memory of the subject.
    struct Memory: Codable {
        var title: String
        var caption: String
        var day: String
        var photo: String
        var hasPhoto: Bool
        var familyOwner: String
        var familySubject: String
    }

    /// An entry someone of the family logged lately.
    struct Entry: Codable {
        var what: String
        var by: String
        var when: String
    }

    /// A kind a caregiver logs with one tap, and its buttons.
    struct LogKind: Codable {
        /// One button.
        struct Item: Codable {
            var field: String
            var value: String
            var label: String
            var icon: String
        }

        var kind: String
        var title: String
        var icon: String
        var items: [Item]
        var hasItems: Bool
    }

    var family: FamilyCard
    var logTitle: String
    var achievements: [Achievement]
    var hasAchievements: Bool
    var memories: [Memory]
    var hasMemories: Bool
    var recent: [Entry]
    var hasRecent: Bool
    var canLog: Bool
    var logKinds: [LogKind]
}

/// A subject's family card (`familycard.mustache`, and the line of the pack page's
/// subject): its members, with invite and remove for those who manage it.
struct FamilyCard: Codable {
    /// An open invitation to the family.
    struct Invitation: Codable {
        var code: String
        var link: String
        var line: String
        var expires: String
    }

    /// A role to give.
    struct Role: Codable {
        var value: String
        var label: String
    }

    /// A member's role as its menu offers it.
    struct RoleChoice: Codable {
        var value: String
        var label: String
        var selected: Bool
    }

    /// A member.
    struct Member: Codable {
        var id: String
        var name: String
        var role: String
        var roleLabel: String
        var isOwner: Bool
        var removable: Bool
        var leave: Bool
        var roles: [RoleChoice]
        var canChange: Bool
    }

    /// A member but the first (the owner), as the pack page's line names them.
    struct Other: Codable {
        var name: String
        var role: String
        var last: Bool
        /// The role's name, on the pack page.
        var roleName: String?
    }

    var invitations: [Invitation]
    var hasInvitations: Bool
    var owner: String
    var subject: String
    var name: String
    var role: String
    var manages: Bool
    var isOwner: Bool
    var heading: String
    var note: String
    var members: [Member]
    var roles: [Role]
    var hasMembers: Bool
    var others: [Other]
}
