import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

/// Friend invitations by code: making, listing, previewing, answering and withdrawing them.
extension Social {
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
    /// - Throws: `.notFound` for a code that is not open to the caller, whatever the reason.
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
    /// - Throws: `.notFound` for a code that is not open to the caller; `.conflict` when the two are
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
}
