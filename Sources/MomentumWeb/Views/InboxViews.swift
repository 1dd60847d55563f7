/// `/notifications`: the in-app inbox. (Its "mark all read" shows with the bell's
/// `hasUnread`, from the layout's ``Chrome``.)
struct NotificationsPage: TemplateModel {
    static let template = "notifications"

    /// One notification of the inbox.
    struct Entry: Codable {
        var key: String
        var title: String
        var body: String
        var url: String
        var kind: String
        var unread: Bool
        var icon: String
        var when: String
    }

    var notifications: [Entry]
    var noNotifications: Bool
    /// The cursor of the next, older page; `nil` on the last.
    var next: String?
}

/// `/invitations/{code}`: who invites, to what, with accept and decline.
struct InvitationPage: TemplateModel {
    static let template = "invitation"

    /// The invitation, when it can still be accepted.
    struct Invitation: Codable {
        var code: String
        var inviter: String
        var family: Bool
        var subject: String
        var role: String
        var expires: String
        var familyHeading: String
        var familyNote: String
        var friendHeading: String
    }

    var invitation: Invitation?
    /// Why it cannot be accepted, when it cannot.
    var unavailable: String?
}

/// `/memories/{id}/share`: a memory's share card in every format. (Its heading is the
/// layout's `title`.)
struct SharePage: TemplateModel {
    static let template = "share"

    /// One format of the card.
    struct Format: Codable {
        var name: String
        var alt: String
        var format: String
        var size: String
        var width: Int
        var height: Int
        var svg: String
        var png: String
        var file: String
    }

    var formats: [Format]
}
