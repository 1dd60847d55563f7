import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

/// One subject, several people (beyond the seeds; seed 000's open question 1): a subject
/// such as Ollie belongs to one account, its owner, and can be shared with co-owners,
/// caregivers who log its events, and viewers.
///
/// A member's events go to the owner's log, the subject's one history, each recording who
/// logged it; so they count for the subject's achievements like the owner's own, and
/// leaving the family takes nothing out of it. Celebrations of the subject reach every
/// member's inbox (`Notifications.familyMilestones`), and every member sees its memories.
///
/// Whoever is not a member gets the same `.notFound` as for a subject that does not exist, and so
/// does a viewer who tries to write.
public struct Families: Sendable {
    let store: any EventStore & AccountStore & SocialGraph & PhotoStore
    let social: Social
    let ingest: EventIngest
    let changes: ChangePublisher
    /// The now.
    public let now: @Sendable () -> Date

    /// The caller's role in a subject's family: `owner` for their own subject.
    ///
    /// - Throws: `.notFound` when the caller is not in the family or the subject does not exist.
    public func role(of caller: Caller, owner: String, subject: String) async throws -> String {
        if owner == caller.user {
            let exists = try await store.evaluate(owner) { engine, _ in engine.achievements.subjects[subject] != nil }
            guard exists else { throw Self.noFamily(owner, subject) }
            return "owner"
        }
        guard let role = try await store.familyRole(of: caller.user, subject: subject, owner: owner) else {
            throw Self.noFamily(owner, subject)
        }
        return role.rawValue
    }

    static func noFamily(_ owner: String, _ subject: String) -> ServiceError {
        ServiceError.notFound("family of '\(subject.prefix(64))' of '\(owner.prefix(64))'")
    }

    /// The manages.
    public static func manages(_ role: String) -> Bool { role == "owner" || role == FamilyRole.coOwner.rawValue }

    /// The caller's own subjects and the subjects shared with them.
    public func list(caller: Caller) async throws -> [FamilyView] {
        let (own, ownerName) = try await store.evaluate(caller.user) { engine, profile in
            (engine.achievements.subjects.values.sorted { $0.id < $1.id }, profile.displayName)
        }
        var families: [FamilyView] = []
        for subject in own {
            let members = try await store.familyMembers(of: subject.id, owner: caller.user)
            families.append(
                FamilyView(
                    owner: caller.user, ownerName: ownerName, subject: subject.id, subjectName: subject.name,
                    role: "owner", members: members.count))
        }
        for membership in try await store.memberships(of: caller.user) {
            let (name, members) = (
                try await store.evaluate(membership.owner) { engine, _ in
                    engine.achievements.subjects[membership.subject]?.name
                },
                try await store.familyMembers(of: membership.subject, owner: membership.owner)
            )
            families.append(
                FamilyView(
                    owner: membership.owner, ownerName: membership.ownerName, subject: membership.subject,
                    subjectName: name ?? membership.subject, role: membership.role.rawValue, members: members.count))
        }
        return families
    }

    /// A subject's family as one of its members sees it: the members (the owner first),
    /// the subject's achievements and memories, and its latest events with who logged them.
    public func detail(owner: String, subject id: String, caller: Caller) async throws -> FamilyDetail {
        let role = try await role(of: caller, owner: owner, subject: id)
        let (subject, unlocks, ownerName) = try await store.evaluate(owner) { engine, profile in
            (
                engine.achievements.subjects[id],
                engine.unlocks.filter { $0.subject == id }.sorted { ($0.achievedAt, $0.id) > ($1.achievedAt, $1.id) },
                profile.displayName
            )
        }
        guard let subject else { throw Self.noFamily(owner, id) }
        let members = try await store.familyMembers(of: id, owner: owner)
        let unlockIDs = Set(unlocks.map(\.id))
        let memories = try await store.projection(of: owner).memories
            .filter { $0.subjectID == id || unlockIDs.contains($0.unlockID) }.sorted { $0.day > $1.day }
        var names = [owner: ownerName]
        for member in members { names[member.user] = member.displayName }
        let latest = try await store.latestEvents(of: owner, limit: 1_000).filter { Self.concerns($0.event, id) }
            .prefix(30)
        // Someone who left the family is still named beside what they logged.
        for logger in Set(latest.compactMap(\.loggedBy)) where names[logger] == nil {
            names[logger] = try await store.profile(of: logger)?.displayName ?? ""
        }
        let recent = latest.map { stored in
            let by = stored.loggedBy ?? owner
            return FamilyEvent(seq: stored.seq, event: stored.event, loggedBy: by, loggedByName: names[by] ?? "")
        }
        return FamilyDetail(
            owner: owner, ownerName: ownerName, subject: subject, role: role,
            members: [FamilyMemberView(user: owner, displayName: ownerName, role: "owner", since: nil)]
                + members.map {
                    FamilyMemberView(
                        user: $0.user, displayName: $0.displayName, role: $0.role.rawValue, since: $0.since)
                },
            achievements: Array(unlocks.prefix(100)), memories: Array(memories.prefix(100)), recent: Array(recent))
    }

    /// A photo of the subject's (its own, or a memory's) for a member of its family: the
    /// owner's stored photo, when that path belongs to the subject.
    ///
    /// - Throws: `.notFound` for anyone outside the family, and for a path of the owner's that is
    ///   not the subject's.
    public func photo(owner: String, subject id: String, path: String, caller: Caller) async throws -> StoredPhoto {
        _ = try await role(of: caller, owner: owner, subject: id)
        let (subjectPhoto, unlockIDs) = try await store.evaluate(owner) { engine, _ in
            (engine.achievements.subjects[id]?.photo, Set(engine.unlocks.filter { $0.subject == id }.map(\.id)))
        }
        var allowed = Set([subjectPhoto].compactMap { $0 })
        for memory in try await store.projection(of: owner).memories
        where memory.subjectID == id || unlockIDs.contains(memory.unlockID) {
            if let photo = memory.photo {
                allowed.insert(photo.original)
                if let copy = photo.shareCopy { allowed.insert(copy) }
            }
        }
        guard allowed.contains(path), let photo = try await store.photo(of: owner, path: path) else {
            throw ServiceError.notFound("photo '\(path.prefix(128))'")
        }
        return photo
    }

    /// Whether an event is about a subject.
    public static func concerns(_ event: Event, _ subject: String) -> Bool {
        switch event.payload {
        case .activity(let activity): activity.subject == subject
        case .subject(let changed): changed.id == subject
        default: false
        }
    }

    /// Invites someone into a subject's family (the owner and co-owners).
    public func invite(
        owner: String, subject: String, role: FamilyRole, expiresInDays: Int?, caller: Caller
    ) async throws -> InvitationView {
        guard Self.manages(try await self.role(of: caller, owner: owner, subject: subject)) else {
            throw Self.noFamily(owner, subject)
        }
        return try await social.invite(caller: caller, expiresInDays: expiresInDays, family: (owner, subject, role))
    }

    /// The open invitations to a subject's family: every one for its owner, the caller's
    /// own for a co-owner. An invitation carries its maker's authority only while they hold
    /// it, so the owner sees (and can withdraw) all that could still admit someone.
    ///
    /// - Throws: `.notFound` for anyone who does not manage the family.
    public func invitations(owner: String, subject: String, caller: Caller) async throws -> [InvitationView] {
        let role = try await role(of: caller, owner: owner, subject: subject)
        guard Self.manages(role) else { throw Self.noFamily(owner, subject) }
        let now = now()
        let open = try await store.familyInvitations(of: subject, owner: owner, at: now, limit: 1_000)
            .filter { role == "owner" || $0.inviter == caller.user }
        var names = [owner: try await store.profile(of: owner)?.displayName ?? ""]
        for member in try await store.familyMembers(of: subject, owner: owner) {
            names[member.user] = member.displayName
        }
        return open.map { InvitationView($0, now: now, inviterName: names[$0.inviter] ?? "") }
    }

    /// Withdraws an open invitation to a subject's family: the owner any, a co-owner their own.
    ///
    /// - Throws: `.notFound` for anyone who does not manage the family, and for a code that is not
    ///   an open invitation to it the caller may withdraw.
    public func revokeInvitation(code: String, owner: String, subject: String, caller: Caller) async throws {
        let role = try await role(of: caller, owner: owner, subject: subject)
        guard Self.manages(role) else { throw Self.noFamily(owner, subject) }
        // Each await its own statement: Swift 6.3.1's optimizer crashed splitting this
        // coroutine (CoroFrame, swifterror) when both awaits sat in one `guard` on a
        // composition of store protocols; a release build failed.
        guard let normalized = InvitationCode.normalize(code) else { throw Social.noInvitation(code) }
        let invitation = try await store.invitation(code: normalized)
        guard let invitation, role == "owner" || invitation.inviter == caller.user else {
            throw Social.noInvitation(code)
        }
        let revoked = try await store.revokeFamilyInvitation(
            code: normalized, subject: subject, owner: owner, at: now())
        guard revoked else { throw Social.noInvitation(code) }
    }

    /// Changes a member's role (the owner and co-owners); a co-owner who becomes a
    /// caregiver or viewer loses the open invitations they made.
    public func changeRole(
        owner: String, subject: String, member: String, to role: FamilyRole, caller: Caller
    ) async throws -> FamilyMemberView {
        guard Self.manages(try await self.role(of: caller, owner: owner, subject: subject)) else {
            throw Self.noFamily(owner, subject)
        }
        guard try await store.setFamilyRole(role, of: member, subject: subject, owner: owner, at: now()),
            let changed = try await store.familyMembers(of: subject, owner: owner).first(where: { $0.user == member })
        else { throw ServiceError.notFound("member '\(member.prefix(64))'") }
        changes.publish(Change(kind: "families", at: now()), to: member)
        return FamilyMemberView(
            user: member, displayName: changed.displayName, role: role.rawValue, since: changed.since)
    }

    /// Removes a member (the owner and co-owners), or the caller leaves (any member).
    /// What they logged stays in the subject's log; the open invitations they made are
    /// withdrawn.
    public func remove(owner: String, subject: String, member: String, caller: Caller) async throws {
        let role = try await role(of: caller, owner: owner, subject: subject)
        guard Self.manages(role) || member == caller.user else { throw Self.noFamily(owner, subject) }
        guard member != owner else {
            throw ServiceError.invalid("the owner cannot leave their own subject's family", field: "member")
        }
        let now = now()
        guard try await store.removeFamilyMember(member, subject: subject, owner: owner, at: now) else {
            throw ServiceError.notFound("member '\(member.prefix(64))'")
        }
        changes.publish(Change(kind: "families", at: now), to: member)
        changes.publish(Change(kind: "families", at: now), to: owner)
    }

    /// Stores events a caregiver or co-owner logs for the subject in the owner's log, each
    /// recording who logged it. Only `log` events about this subject are taken.
    public func log(_ events: [Event], owner: String, subject: String, caller: Caller) async throws -> PushResponse {
        let role = try await role(of: caller, owner: owner, subject: subject)
        guard role != FamilyRole.viewer.rawValue else { throw Self.noFamily(owner, subject) }
        var problems: [ServiceError.Field] = []
        for (index, event) in events.enumerated() {
            guard case .activity(let activity) = event.payload, activity.subject == subject else {
                problems.append(
                    .init(
                        field: "events[\(index)]",
                        issue: "a family member logs `log` events with \"subject\": \"\(subject.prefix(64))\" only"))
                continue
            }
        }
        if !problems.isEmpty {
            throw ServiceError.invalid(problems)
        }
        let ownerCaller = Caller(user: owner, tokenHash: caller.tokenHash, deviceName: caller.deviceName)
        return try await ingest.append(events, caller: ownerCaller, loggedBy: owner == caller.user ? nil : caller.user)
    }
}

/// A subject's family in a list.
public struct FamilyView: Encodable, Sendable {
    /// The owner.
    public var owner: String
    /// The owner name.
    public var ownerName: String
    /// The subject.
    public var subject: String
    /// The subject name.
    public var subjectName: String
    /// The role.
    public var role: String
    /// The members.
    public var members: Int
}

/// A member of a family (the owner too).
public struct FamilyMemberView: Encodable, Sendable {
    /// The user.
    public var user: String
    /// The display name.
    public var displayName: String
    /// The role.
    public var role: String
    /// The since.
    public var since: Date?
}

/// An event about the subject, with who logged it.
public struct FamilyEvent: Encodable, Sendable {
    /// The seq.
    public var seq: Int64
    /// The event.
    public var event: Event
    /// The logged by.
    public var loggedBy: String
    /// The logged by name.
    public var loggedByName: String
}

/// A subject's family in full.
public struct FamilyDetail: Encodable, Sendable {
    /// The owner.
    public var owner: String
    /// The owner name.
    public var ownerName: String
    /// The subject.
    public var subject: Subject
    /// The role.
    public var role: String
    /// The members.
    public var members: [FamilyMemberView]
    /// The achievements.
    public var achievements: [Unlock]
    /// The memories.
    public var memories: [Memory]
    /// The recent.
    public var recent: [FamilyEvent]
}
