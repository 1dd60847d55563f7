import Foundation
import MomentumAPI
import MomentumClient
import MomentumCore
import Testing

/// Friends through the SDK, against a real server on both backends: an invitation, what a
/// friend shares, a post on the feed, a reaction and its notification, a nudge, a block.
@Suite(.serialized) struct SocialClientTests {
    @Test(arguments: Backend.allCases)
    func twoAppsBecomeFriendsShareReactAndBlock(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let ada = try MomentumClient.make(server, files: files, device: "ada-phone")
            let bob = try MomentumClient.make(server, files: files, device: "bob-phone")
            try await ada.register(.test("ada"))
            try await bob.register(.test("bob"))
            let adaID = try #require(await ada.account?.userID)
            let bobID = try #require(await bob.account?.userID)
            try await ada.record(habit("read", "Read"))
            let checkedIn = try await ada.checkIn("read")
            let milestone = try #require(checkedIn.unlocks.first, "the first check-in is a milestone")
            try await ada.sync()

            let invitation = try await ada.invite(expiresInDays: 2)
            #expect(invitation.state.known == .pending && invitation.kind.known == .friend)
            #expect(try await bob.invitation(code: invitation.code).inviterName == "Ada")
            let accepted = try await bob.acceptInvitation(code: invitation.code)
            #expect(accepted.friend?.user == adaID)
            #expect(try await ada.friends().map(\.user) == [bobID])
            do {
                try await bob.acceptInvitation(code: invitation.code)
                Issue.record("an invitation was used twice")
            } catch let error as ClientError {
                #expect(error.code == "not_found", "\(error)")
            }

            // What Ada shares, Bob sees, evaluated by the server.
            let sharing = try await ada.share(habits: ["read"])
            #expect(sharing.habits == ["read"] && sharing.available.habits.map(\.id) == ["read"])
            let profile = try await bob.friend(adaID)
            #expect(profile.habits.map(\.current) == [1])

            // The milestone the device showed is the one the server derived: it can be shared.
            let post = try await ada.sharePost(unlock: milestone.id)
            #expect(post.held == false && post.unlock.id == milestone.id)
            let feed = try await bob.feed()
            #expect(feed.items.map(\.post.id) == [post.id] && feed.next == nil)
            let reactions = try await bob.react(.party, to: post.id, of: adaID)
            #expect(reactions.map(\.reaction.known) == [.party])
            #expect(try await ada.reactions(to: post.id, of: adaID).map(\.user) == [bobID])
            #expect(try await ada.posts().map(\.id) == [post.id])
            try await bob.removeReaction(to: post.id, of: adaID)
            #expect(try await ada.reactions(to: post.id, of: adaID).isEmpty)

            // Ada blocks Bob: he sees nothing of hers any more.
            try await ada.block(bobID)
            #expect(try await ada.blocked().map(\.user) == [bobID])
            #expect(try await bob.feed().items.isEmpty)
            do {
                _ = try await bob.friend(adaID)
                Issue.record("a blocked person read a profile")
            } catch let error as ClientError {
                #expect(error.code == "not_found", "\(error)")
            }
            try await ada.unblock(bobID)
            #expect(try await ada.blocked().isEmpty)
            #expect(try await ada.families().isEmpty)
            try await ada.deletePost(post.id, owner: adaID)
            #expect(try await ada.posts().isEmpty)
        }
    }
}
