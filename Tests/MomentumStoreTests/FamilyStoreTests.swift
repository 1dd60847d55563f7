import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

/// A family invitation made by `inviter` to a subject of `owner`'s.
private func familyInvitation(
    _ code: String, by inviter: String, owner: String, subject: String = "ollie", role: FamilyRole = .coOwner,
    day: Int = 1
) -> Invitation {
    Invitation(
        code: code, inviter: inviter, kind: .family, subjectOwner: owner, subject: subject, role: role,
        createdAt: Fixtures.day(day), expiresAt: Fixtures.day(day + 7))
}

/// Who may let someone into a family, and what a block does to one: the same on every backend.
@Suite(.serialized)
struct FamilyStoreTests {
    private static func accounts(_ store: any SQLBackend, _ names: [String]) async throws {
        for name in names {
            var profile = Fixtures.profile(pack: "habits+ollie")
            profile.displayName = name.capitalized
            try await store.createAccount(Fixtures.account(name), profile: profile)
        }
    }

    /// Gives `owner` a subject.
    private static func subject(_ store: any SQLBackend, _ id: String, of owner: String) async throws {
        _ = try await store.append(
            [
                try Fixtures.event(
                    #"{"type":"subject","id":"s-\#(id)","at":"2026-01-01T10:00:00Z","tz":"UTC","subject":"\#(id)","name":"\#(id.capitalized)","kind":"puppy"}"#
                )
            ],
            for: owner, receivedAt: Fixtures.day(1))
    }

    private static func join(
        _ store: any SQLBackend, _ member: String, _ subject: String, of owner: String, as role: FamilyRole
    ) async throws {
        let code = "J-\(member)-\(subject)"
        try await store.createInvitation(familyInvitation(code, by: owner, owner: owner, subject: subject, role: role))
        guard
            case .accepted = try await store.answerInvitation(
                code: code, by: member, accept: true, at: Fixtures.day(1, hour: 13))
        else {
            Issue.record("\(member) did not join \(owner)'s \(subject)")
            return
        }
    }

    @Test(arguments: Backend.allCases)
    func aFamilyInvitationAdmitsOnlyWhileItsMakerManagesTheFamily(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await Self.accounts(store, ["ada", "bob", "cy", "dee", "eve"])
            try await Self.subject(store, "ollie", of: "ada")
            try await Self.join(store, "bob", "ollie", of: "ada", as: .coOwner)
            // Bob, a co-owner, and Ada, the owner, each make invitations.
            try await store.createInvitation(familyInvitation("B1", by: "bob", owner: "ada"))
            try await store.createInvitation(familyInvitation("B2", by: "bob", owner: "ada", role: .caregiver))
            try await store.createInvitation(familyInvitation("A1", by: "ada", owner: "ada", role: .viewer))
            // Someone who never was a member, claiming Ada's subject.
            try await store.createInvitation(familyInvitation("D1", by: "dee", owner: "ada"))
            #expect(
                try await store.familyInvitations(of: "ollie", owner: "ada", at: Fixtures.day(2), limit: 10).map(
                    \.code) == ["B2", "B1", "A1"])
            #expect(
                try await store.answerInvitation(code: "D1", by: "eve", accept: true, at: Fixtures.day(2))
                    == .unavailable)

            // Bob is made a caregiver: his open invitations are withdrawn with his authority.
            #expect(
                try await store.setFamilyRole(
                    .caregiver, of: "bob", subject: "ollie", owner: "ada", at: Fixtures.day(2)))
            #expect(try await store.invitation(code: "B1")?.state(at: Fixtures.day(2)) == .revoked)
            #expect(try await store.invitation(code: "B2")?.revokedAt == Fixtures.day(2))
            #expect(try await store.invitation(code: "A1")?.state(at: Fixtures.day(2)) == .pending)
            #expect(
                try await store.familyInvitations(of: "ollie", owner: "ada", at: Fixtures.day(2), limit: 10).map(
                    \.code) == ["A1"])
            // An invitation a caregiver holds (however it was made) admits nobody: the rule is
            // checked when it is answered, not only when it is made.
            try await store.createInvitation(familyInvitation("B3", by: "bob", owner: "ada", day: 2))
            for code in ["B1", "B3"] {
                #expect(
                    try await store.answerInvitation(code: code, by: "eve", accept: true, at: Fixtures.day(3))
                        == .unavailable)
            }
            #expect(try await store.familyRole(of: "eve", subject: "ollie", owner: "ada") == nil)
            // A co-owner again: what he holds now carries his authority; what was withdrawn stays so.
            #expect(
                try await store.setFamilyRole(.coOwner, of: "bob", subject: "ollie", owner: "ada", at: Fixtures.day(3)))
            #expect(try await store.invitation(code: "B3")?.state(at: Fixtures.day(3)) == .pending)
            #expect(
                try await store.answerInvitation(code: "B1", by: "eve", accept: true, at: Fixtures.day(3))
                    == .unavailable)
            guard
                case .accepted = try await store.answerInvitation(
                    code: "B3", by: "eve", accept: true, at: Fixtures.day(3))
            else { Issue.record("a co-owner's invitation was refused"); return }
            #expect(try await store.familyRole(of: "eve", subject: "ollie", owner: "ada") == .coOwner)
            // Removed, Bob loses what he made too; a role given to someone not in the family
            // withdraws nothing.
            try await store.createInvitation(familyInvitation("B4", by: "bob", owner: "ada", day: 3))
            #expect(try await store.removeFamilyMember("bob", subject: "ollie", owner: "ada", at: Fixtures.day(4)))
            #expect(try await store.invitation(code: "B4")?.state(at: Fixtures.day(4)) == .revoked)
            #expect(
                try await store.setFamilyRole(.viewer, of: "dee", subject: "ollie", owner: "ada", at: Fixtures.day(4))
                    == false)
            #expect(try await store.invitation(code: "D1")?.revokedAt == nil)

            // The owner withdraws any open invitation to the family, and only to that family.
            try await store.createInvitation(familyInvitation("E1", by: "eve", owner: "ada", day: 4))
            #expect(
                try await store.revokeFamilyInvitation(code: "E1", subject: "rex", owner: "ada", at: Fixtures.day(4))
                    == false)
            #expect(
                try await store.revokeFamilyInvitation(code: "E1", subject: "ollie", owner: "eve", at: Fixtures.day(4))
                    == false)
            #expect(
                try await store.familyInvitations(of: "ollie", owner: "ada", at: Fixtures.day(4), limit: 10).map(
                    \.code) == ["E1", "A1"])
            #expect(
                try await store.revokeFamilyInvitation(code: "E1", subject: "ollie", owner: "ada", at: Fixtures.day(4)))
            #expect(
                try await store.revokeFamilyInvitation(code: "E1", subject: "ollie", owner: "ada", at: Fixtures.day(4))
                    == false)
            // Expired invitations are not open.
            #expect(
                try await store.familyInvitations(of: "ollie", owner: "ada", at: Fixtures.day(9), limit: 10).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func aBlockEndsFamilyMembershipBothWaysAndWithdrawsWhatEachMadeForTheOther(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await Self.accounts(store, ["ada", "bob", "cy"])
            try await Self.subject(store, "ollie", of: "ada")
            try await Self.subject(store, "rex", of: "bob")
            // Bob is a co-owner of Ada's Ollie, Ada a co-owner of Bob's Rex; Cy helps with both.
            try await Self.join(store, "bob", "ollie", of: "ada", as: .coOwner)
            try await Self.join(store, "ada", "rex", of: "bob", as: .coOwner)
            try await Self.join(store, "cy", "ollie", of: "ada", as: .caregiver)
            try await Self.join(store, "cy", "rex", of: "bob", as: .viewer)
            try await store.createInvitation(familyInvitation("B1", by: "bob", owner: "ada", day: 2))
            try await store.createInvitation(familyInvitation("A1", by: "ada", owner: "bob", subject: "rex", day: 2))
            try await store.createInvitation(familyInvitation("A2", by: "ada", owner: "ada", day: 2))
            try await store.createInvitation(familyInvitation("B2", by: "bob", owner: "bob", subject: "rex", day: 2))

            try await store.block("bob", by: "ada", at: Fixtures.day(3))
            #expect(try await store.familyMembers(of: "ollie", owner: "ada").map(\.user) == ["cy"])
            #expect(try await store.familyMembers(of: "rex", owner: "bob").map(\.user) == ["cy"])
            #expect(try await store.familyRole(of: "bob", subject: "ollie", owner: "ada") == nil)
            #expect(try await store.memberships(of: "bob").isEmpty)
            #expect(try await store.memberships(of: "ada").isEmpty)
            #expect(Set(try await store.memberships(of: "cy").map(\.owner)) == ["ada", "bob"])
            // What each made for the other's family is withdrawn; each one's own stays theirs.
            #expect(try await store.invitation(code: "B1")?.revokedAt == Fixtures.day(3))
            #expect(try await store.invitation(code: "A1")?.revokedAt == Fixtures.day(3))
            #expect(try await store.invitation(code: "A2")?.state(at: Fixtures.day(3)) == .pending)
            #expect(try await store.invitation(code: "B2")?.state(at: Fixtures.day(3)) == .pending)
            // And neither gets into the other's family by a code of a third member's.
            try await store.createInvitation(familyInvitation("C1", by: "cy", owner: "ada", day: 3))
            #expect(
                try await store.setFamilyRole(.coOwner, of: "cy", subject: "ollie", owner: "ada", at: Fixtures.day(3)))
            #expect(
                try await store.answerInvitation(code: "C1", by: "bob", accept: true, at: Fixtures.day(3))
                    == .unavailable)
        }
    }
}
