import Foundation
import MomentumCore

/// Invitations, friends, blocks, sharing settings, posts, the feed, reactions, and subjects' families.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol SocialGraph: Sendable {
    /// Stores a new invitation (its code must be new).
    func createInvitation(_ invitation: Invitation) async throws(StoreError)

    /// The invitation with a code, in whatever state it is.
    func invitation(code: String) async throws(StoreError) -> Invitation?

    /// The invitations a user made since an instant, newest first.
    func invitations(of user: String, since: Date, limit: Int) async throws(StoreError) -> [Invitation]

    /// Withdraws an open invitation of the user's; `false` when they have none open with that code.
    func revokeInvitation(code: String, of user: String, at: Date) async throws(StoreError) -> Bool

    /// The open invitations to a subject's family that can still be accepted as far as
    /// their makers go: the owner's and those of its current co-owners, newest first.
    func familyInvitations(
        of subject: String, owner: String, at: Date, limit: Int
    ) async throws(StoreError) -> [Invitation]

    /// Withdraws an open invitation to a subject's family, whoever made it; `false` when
    /// that family has none open with that code.
    func revokeFamilyInvitation(
        code: String, subject: String, owner: String, at: Date
    ) async throws(StoreError) -> Bool

    /// Answers an open invitation, in one transaction: marks it accepted or declined and,
    /// when accepted, makes the two friends (each one's 20 most recent posts reach the
    /// other's feed) or the invitee a member of the subject's family. An invitation that
    /// is unknown, not open, the user's own, between two people one of whom blocked the
    /// other, or to a family its maker no longer manages (neither its owner nor a
    /// co-owner now) is ``InvitationOutcome/unavailable``, all alike.
    func answerInvitation(
        code: String, by user: String, accept: Bool, at: Date
    ) async throws(StoreError)
        -> InvitationOutcome

    /// A user's friends, the newest first.
    func friends(of user: String) async throws(StoreError) -> [Friend]

    /// The friendship of `user` with `other`, or `nil` when they are not friends.
    func friend(_ other: String, of user: String) async throws(StoreError) -> Friend?

    /// Ends a friendship on both sides and takes each one's posts off the other's feed.
    func removeFriend(_ other: String, of user: String) async throws(StoreError) -> Bool

    /// Blocks `other` for `user` (again: nothing changes): ends their friendship, takes
    /// each one's reactions off the other's posts, ends each one's membership in the
    /// families of the other's subjects and withdraws the open invitations each made to
    /// the other's families.
    func block(_ other: String, by user: String, at: Date) async throws(StoreError)

    /// Lifts a block; `false` when there was none.
    func unblock(_ other: String, by user: String) async throws(StoreError) -> Bool

    /// Whom a user blocked, the newest first.
    func blocks(of user: String) async throws(StoreError) -> [BlockedUser]

    /// Whether either of two people blocked the other.
    func isBlocked(between user: String, and other: String) async throws(StoreError) -> Bool

    /// What a user shares with friends.
    func sharing(of user: String) async throws(StoreError) -> SharingSettings

    /// Replaces what a user shares with friends.
    func setSharing(_ settings: SharingSettings, of user: String) async throws(StoreError)

    /// Shares an achievement: stores the post (once per id: sharing it again changes
    /// nothing) and, unless its owner has an open review flag, puts it on the owner's feed
    /// and every friend's in the same transaction (fan-out on write).
    func share(_ post: Post) async throws(StoreError) -> SharedPost

    /// A user's own posts, newest first, held ones included.
    func posts(of user: String, limit: Int) async throws(StoreError) -> [Post]

    /// Deletes a post of the user's, its reactions and its feed entries.
    ///
    /// - Returns: The readers whose feeds had it, or `nil` when the user has no such post.
    func deletePost(_ id: String, of user: String) async throws(StoreError) -> [String]?

    /// A page of a reader's feed, newest first, after `cursor` (`nil`: the first page),
    /// with each post's reaction counts and the reader's own reaction.
    func feed(of reader: String, before cursor: FeedCursor?, limit: Int) async throws(StoreError) -> [FeedItem]

    /// Sets (`nil`: removes) a reader's reaction to a post, when the post is on the
    /// reader's feed and not their own.
    ///
    /// - Returns: `nil` when the reader cannot see the post.
    func react(
        _ reaction: ReactionKind?, to post: String, of owner: String, by reactor: String, at: Date
    )
        async throws(StoreError) -> ReactionOutcome?

    /// Every reaction to a post, the newest first.
    func reactions(to post: String, of owner: String) async throws(StoreError) -> [PostReaction]

    /// Whether a reader sees a post: their own, or on their feed.
    func canSee(post: String, of owner: String, reader: String) async throws(StoreError) -> Bool

    /// The members of a subject's family (its owner not included), the earliest first.
    func familyMembers(of subject: String, owner: String) async throws(StoreError) -> [FamilyMember]

    /// The families a user belongs to.
    func memberships(of user: String) async throws(StoreError) -> [Membership]

    /// A member's role in a subject's family, or `nil` when they are not a member.
    func familyRole(of member: String, subject: String, owner: String) async throws(StoreError) -> FamilyRole?

    /// Changes a member's role; `false` when they are not a member. A member who is no
    /// longer a co-owner loses the open invitations they made to the family: they are
    /// withdrawn at `at`, in the same transaction.
    func setFamilyRole(
        _ role: FamilyRole, of member: String, subject: String, owner: String, at: Date
    )
        async throws(StoreError) -> Bool

    /// Removes a member from a subject's family (what they logged stays in the subject's
    /// log) and withdraws, at `at`, the open invitations they made to it.
    func removeFamilyMember(
        _ member: String, subject: String, owner: String, at: Date
    ) async throws(StoreError) -> Bool
}
