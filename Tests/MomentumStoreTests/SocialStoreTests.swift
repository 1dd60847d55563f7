import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

private func unlock(_ id: String, day: Int = 3) -> Unlock {
    Unlock(
        id: id, rule: "streak-7", title: "7-day streak", category: "streak", tier: .notable, milestoneType: "streak",
        value: 7, achievedAt: Fixtures.day(day), achievedDay: LocalDay(year: 2026, month: 1, day: day)!,
        detectedAt: Fixtures.day(day), retroactive: false, habit: "read")
}

private func post(_ owner: String, _ id: String, day: Int = 3, hour: Int = 12) -> Post {
    Post(
        owner: owner, id: id, unlock: unlock("u-\(id)", day: day), habitName: "Read",
        createdAt: Fixtures.day(day, hour: hour))
}

private func invitation(
    _ code: String, by inviter: String, kind: InvitationKind = .friend, subject: String? = nil,
    role: FamilyRole? = nil, day: Int = 1
) -> Invitation {
    Invitation(
        code: code, inviter: inviter, kind: kind, subjectOwner: subject == nil ? nil : inviter, subject: subject,
        role: role, createdAt: Fixtures.day(day), expiresAt: Fixtures.day(day + 7))
}

/// Friends, invitations, blocks, posts, feeds, reactions and families: the same on every backend.
@Suite(.serialized)
struct SocialStoreTests {
    private static func accounts(_ store: any SQLBackend, _ names: [String]) async throws {
        for name in names {
            var profile = Fixtures.profile(pack: "habits+ollie")
            profile.displayName = name.capitalized
            try await store.createAccount(Fixtures.account(name), profile: profile)
        }
    }

    @Test(arguments: Backend.allCases)
    func anInvitationIsAnsweredOnceAndMakesFriendsOnBothSides(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await Self.accounts(store, ["ada", "bob", "cy"])
            // Ada shared a post before Bob was her friend: he sees it once they are friends.
            _ = try await store.share(post("ada", "p_old", day: 1))
            try await store.createInvitation(invitation("CODE1", by: "ada"))
            #expect(
                try await store.answerInvitation(code: "CODE1", by: "ada", accept: true, at: Fixtures.day(2))
                    == .unavailable)
            #expect(
                try await store.answerInvitation(code: "NOPE", by: "bob", accept: true, at: Fixtures.day(2))
                    == .unavailable)
            guard
                case .accepted(let accepted) = try await store.answerInvitation(
                    code: "CODE1", by: "bob", accept: true, at: Fixtures.day(2))
            else { Issue.record("not accepted"); return }
            #expect(accepted.answeredBy == "bob")
            #expect(accepted.state(at: Fixtures.day(2)) == .accepted)
            // Answered: nobody else can use it.
            #expect(
                try await store.answerInvitation(code: "CODE1", by: "cy", accept: true, at: Fixtures.day(2))
                    == .unavailable)
            #expect(try await store.friends(of: "ada").map(\.user) == ["bob"])
            #expect(try await store.friends(of: "bob").map(\.displayName) == ["Ada"])
            #expect(try await store.friend("ada", of: "bob")?.since == Fixtures.day(2))
            #expect(try await store.friend("cy", of: "bob") == nil)
            #expect(try await store.feed(of: "bob", before: nil, limit: 10).map(\.post.id) == ["p_old"])
            // A second invitation to a friend changes nothing and stays open.
            try await store.createInvitation(invitation("CODE2", by: "bob"))
            #expect(
                try await store.answerInvitation(code: "CODE2", by: "ada", accept: true, at: Fixtures.day(2))
                    == .alreadyConnected)
            #expect(try await store.invitation(code: "CODE2")?.state(at: Fixtures.day(2)) == .pending)
            // Declined, revoked and expired invitations make nobody friends.
            guard
                case .declined = try await store.answerInvitation(
                    code: "CODE2", by: "cy", accept: false, at: Fixtures.day(2))
            else { Issue.record("not declined"); return }
            try await store.createInvitation(invitation("CODE3", by: "cy"))
            #expect(try await store.revokeInvitation(code: "CODE3", of: "ada", at: Fixtures.day(2)) == false)
            #expect(try await store.revokeInvitation(code: "CODE3", of: "cy", at: Fixtures.day(2)))
            #expect(
                try await store.answerInvitation(code: "CODE3", by: "ada", accept: true, at: Fixtures.day(2))
                    == .unavailable)
            try await store.createInvitation(invitation("CODE4", by: "cy"))
            #expect(
                try await store.answerInvitation(code: "CODE4", by: "ada", accept: true, at: Fixtures.day(9))
                    == .unavailable)
            #expect(try await store.friends(of: "cy").isEmpty)
            #expect(
                try await store.invitations(of: "cy", since: Fixtures.day(0), limit: 10).map(\.code) == [
                    "CODE4", "CODE3",
                ])
            // Removing a friend removes both sides and each one's posts from the other's feed.
            #expect(try await store.removeFriend("ada", of: "bob"))
            #expect(try await store.friends(of: "ada").isEmpty)
            #expect(try await store.feed(of: "bob", before: nil, limit: 10).isEmpty)
            #expect(try await store.removeFriend("ada", of: "bob") == false)
        }
    }

    @Test(arguments: Backend.allCases)
    func aBlockEndsTheFriendshipAndEveryWayBackIn(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await Self.accounts(store, ["ada", "bob"])
            try await store.createInvitation(invitation("C1", by: "ada"))
            _ = try await store.answerInvitation(code: "C1", by: "bob", accept: true, at: Fixtures.day(1, hour: 13))
            _ = try await store.share(post("bob", "p_bob"))
            _ = try await store.react(.fire, to: "p_bob", of: "bob", by: "ada", at: Fixtures.day(3, hour: 13))
            try await store.createInvitation(invitation("C2", by: "ada", day: 3))
            try await store.block("bob", by: "ada", at: Fixtures.day(3, hour: 14))
            try await store.block("bob", by: "ada", at: Fixtures.day(3, hour: 15))
            #expect(try await store.isBlocked(between: "bob", and: "ada"))
            #expect(try await store.blocks(of: "ada").map(\.user) == ["bob"])
            #expect(try await store.blocks(of: "ada").first?.since == Fixtures.day(3, hour: 14))
            #expect(try await store.friends(of: "bob").isEmpty)
            #expect(try await store.reactions(to: "p_bob", of: "bob").isEmpty)
            #expect(try await store.feed(of: "ada", before: nil, limit: 10).isEmpty)
            // Bob's way back in looks like any unknown code.
            #expect(
                try await store.answerInvitation(code: "C2", by: "bob", accept: true, at: Fixtures.day(3, hour: 16))
                    == .unavailable)
            #expect(try await store.unblock("bob", by: "ada"))
            #expect(try await store.unblock("bob", by: "ada") == false)
            guard
                case .accepted = try await store.answerInvitation(
                    code: "C2", by: "bob", accept: true, at: Fixtures.day(3, hour: 17))
            else { Issue.record("not accepted after unblocking"); return }
        }
    }

    @Test(arguments: Backend.allCases)
    func aPostReachesEveryFriendOnceAndReactionsAreOnePerFriend(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await Self.accounts(store, ["ada", "bob", "cy", "dee"])
            for (code, friend) in [("C1", "bob"), ("C2", "cy")] {
                try await store.createInvitation(invitation(code, by: "ada"))
                _ = try await store.answerInvitation(
                    code: code, by: friend, accept: true, at: Fixtures.day(1, hour: 13))
            }
            let shared = try await store.share(post("ada", "p_1"))
            #expect(shared.created)
            #expect(Set(shared.readers) == ["ada", "bob", "cy"])
            // Sharing it again changes nothing.
            let again = try await store.share(post("ada", "p_1", hour: 18))
            #expect(!again.created && again.readers.isEmpty && again.post.createdAt == Fixtures.day(3))
            _ = try await store.share(post("ada", "p_2", day: 4))
            #expect(try await store.posts(of: "ada", limit: 10).map(\.id) == ["p_2", "p_1"])
            // Bob's feed, newest first, a page at a time.
            let first = try await store.feed(of: "bob", before: nil, limit: 1)
            #expect(first.map(\.post.id) == ["p_2"])
            #expect(first.first?.authorName == "Ada")
            let cursor = FeedCursor(addedAt: first[0].addedAt, author: first[0].post.owner, post: first[0].post.id)
            #expect(try await store.feed(of: "bob", before: cursor, limit: 10).map(\.post.id) == ["p_1"])
            // Reactions: one per friend, changeable, removable; not from a stranger or the owner.
            #expect(try await store.react(.clap, to: "p_1", of: "ada", by: "dee", at: Fixtures.day(5)) == nil)
            #expect(try await store.react(.clap, to: "p_1", of: "ada", by: "ada", at: Fixtures.day(5)) == nil)
            let clap = try await store.react(.clap, to: "p_1", of: "ada", by: "bob", at: Fixtures.day(5))
            #expect(clap?.previous == nil)
            let fire = try await store.react(.fire, to: "p_1", of: "ada", by: "bob", at: Fixtures.day(5, hour: 13))
            #expect(fire?.previous == .clap)
            #expect(fire?.reactions.map(\.reaction) == [.fire])
            _ = try await store.react(.fire, to: "p_1", of: "ada", by: "cy", at: Fixtures.day(5, hour: 14))
            let feed = try await store.feed(of: "bob", before: nil, limit: 10)
            #expect(feed.first { $0.post.id == "p_1" }?.reactions == [.fire: 2])
            #expect(feed.first { $0.post.id == "p_1" }?.mine == .fire)
            #expect(feed.first { $0.post.id == "p_2" }?.reactions == [:])
            #expect(try await store.reactions(to: "p_1", of: "ada").map(\.displayName) == ["Cy", "Bob"])
            let removed = try await store.react(nil, to: "p_1", of: "ada", by: "bob", at: Fixtures.day(6))
            #expect(removed?.previous == .fire)
            #expect(removed?.reactions.map(\.user) == ["cy"])
            #expect(try await store.canSee(post: "p_1", of: "ada", reader: "cy"))
            #expect(try await !store.canSee(post: "p_1", of: "ada", reader: "dee"))
            // Deleting the post takes it off every feed, with its reactions.
            #expect(Set(try await store.deletePost("p_1", of: "ada") ?? []) == ["ada", "bob", "cy"])
            #expect(try await store.deletePost("p_1", of: "ada") == nil)
            #expect(try await store.feed(of: "cy", before: nil, limit: 10).map(\.post.id) == ["p_2"])
            #expect(try await store.reactions(to: "p_1", of: "ada").isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func aFlaggedAccountsPostsWaitUntilItsLastFlagIsCleared(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await Self.accounts(store, ["ada", "bob"])
            try await store.createInvitation(invitation("C1", by: "ada"))
            _ = try await store.answerInvitation(code: "C1", by: "bob", accept: true, at: Fixtures.day(1, hour: 13))
            for id in ["f1", "f2"] {
                try await store.flag(
                    ReviewFlag(
                        user: "ada", id: id, kind: .burst, detail: "many", events: [], createdAt: Fixtures.day(2)))
            }
            let held = try await store.share(post("ada", "p_1"))
            #expect(held.post.held && held.readers.isEmpty)
            #expect(try await store.feed(of: "bob", before: nil, limit: 10).isEmpty)
            #expect(try await store.feed(of: "ada", before: nil, limit: 10).isEmpty)
            #expect(try await store.posts(of: "ada", limit: 10).first?.held == true)
            #expect(
                try await store.clearReviewFlag("f1", of: "ada", at: Fixtures.day(4))
                    == ClearedFlag(openFlags: 1, released: [:]))
            #expect(try await store.clearReviewFlag("f1", of: "ada", at: Fixtures.day(4)) == nil)
            #expect(try await store.openReviewFlagCount(of: "ada") == 1)
            let cleared = try await store.clearReviewFlag("f2", of: "ada", at: Fixtures.day(4))
            #expect(cleared?.openFlags == 0)
            #expect(Set(cleared?.released["p_1"] ?? []) == ["ada", "bob"])
            #expect(try await store.feed(of: "bob", before: nil, limit: 10).map { $0.post.held } == [false])
            #expect(try await store.posts(of: "ada", limit: 10).first?.held == false)
            #expect(try await store.reviewFlags(limit: 10).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func sharingSettingsAndFamiliesAreKeptAndAccountsLeaveNoTrace(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await Self.accounts(store, ["ada", "bob", "cy"])
            #expect(try await store.sharing(of: "ada") == .none)
            try await store.setSharing(
                SharingSettings(habits: ["run", "read", "read"], categories: ["streak"]), of: "ada")
            #expect(
                try await store.sharing(of: "ada") == SharingSettings(habits: ["read", "run"], categories: ["streak"]))
            // A family: only a subject that exists can be joined.
            _ = try await store.append(
                [
                    try Fixtures.event(
                        #"{"type":"subject","id":"s1","at":"2026-01-01T10:00:00Z","tz":"UTC","subject":"ollie","name":"Ollie","kind":"puppy"}"#
                    )
                ],
                for: "ada", receivedAt: Fixtures.day(1))
            try await store.createInvitation(
                invitation("F1", by: "ada", kind: .family, subject: "ollie", role: .caregiver))
            try await store.createInvitation(
                invitation("F2", by: "ada", kind: .family, subject: "nobody", role: .viewer))
            #expect(
                try await store.answerInvitation(code: "F2", by: "bob", accept: true, at: Fixtures.day(2))
                    == .unavailable)
            guard
                case .accepted = try await store.answerInvitation(
                    code: "F1", by: "bob", accept: true, at: Fixtures.day(2))
            else { Issue.record("not a member"); return }
            #expect(try await store.familyRole(of: "bob", subject: "ollie", owner: "ada") == .caregiver)
            #expect(try await store.familyMembers(of: "ollie", owner: "ada").map(\.displayName) == ["Bob"])
            #expect(try await store.memberships(of: "bob").map(\.ownerName) == ["Ada"])
            #expect(
                try await store.setFamilyRole(.coOwner, of: "bob", subject: "ollie", owner: "ada", at: Fixtures.day(2)))
            #expect(try await store.memberships(of: "bob").first?.role == .coOwner)
            #expect(
                try await store.setFamilyRole(.viewer, of: "cy", subject: "ollie", owner: "ada", at: Fixtures.day(2))
                    == false)
            // Friends with Cy, then Cy's account goes: nothing of Cy's is left in Ada's rows.
            try await store.createInvitation(invitation("C1", by: "cy"))
            _ = try await store.answerInvitation(code: "C1", by: "ada", accept: true, at: Fixtures.day(2))
            _ = try await store.share(post("ada", "p_1"))
            _ = try await store.react(.heart, to: "p_1", of: "ada", by: "cy", at: Fixtures.day(4))
            _ = try await store.share(post("cy", "p_cy"))
            try await store.block("cy", by: "bob", at: Fixtures.day(4))
            #expect(try await store.deleteAccount(id: "cy"))
            #expect(try await store.friends(of: "ada").isEmpty)
            #expect(try await store.reactions(to: "p_1", of: "ada").isEmpty)
            #expect(try await store.feed(of: "ada", before: nil, limit: 10).map(\.post.id) == ["p_1"])
            #expect(try await store.blocks(of: "bob").isEmpty)
            // Bob leaves Ada's family; so does Ada's whole account later.
            #expect(try await store.removeFamilyMember("bob", subject: "ollie", owner: "ada", at: Fixtures.day(4)))
            #expect(try await store.memberships(of: "bob").isEmpty)
            #expect(
                try await store.removeFamilyMember("bob", subject: "ollie", owner: "ada", at: Fixtures.day(4)) == false)
        }
    }
}
