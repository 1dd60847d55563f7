import Foundation

/// The mail outbox, the single-use links that mails carry, and verified email addresses.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol MailOutbox: Sendable {
    /// Queues a mail and, in the same transaction, stores the link it carries: any older
    /// link of the same account and purpose is deleted (a newer mail supersedes it).
    func enqueueMail(_ mail: OutgoingMail, link: AccountLink?) async throws(StoreError)

    /// Claims up to `limit` mails due at `now` for `lease` seconds. On PostgreSQL several
    /// instances share the outbox (`FOR UPDATE SKIP LOCKED`): a mail is claimed by one
    /// sender at a time, and one whose sender died is claimed again after the lease.
    func claimMail(now: Date, lease: TimeInterval, limit: Int) async throws(StoreError) -> [OutgoingMail]

    /// Records what became of a claimed mail.
    func finishMail(_ id: String, _ outcome: MailOutcome, at: Date) async throws(StoreError)

    /// Where a mail stands, if it is in the outbox.
    func mailStatus(_ id: String) async throws(StoreError) -> MailStatus?

    /// Forgets mails sent or given up before an instant, and links that expired before it.
    ///
    /// - Returns: How many mails were forgotten.
    @discardableResult
    func pruneMail(finishedBefore: Date) async throws(StoreError) -> Int

    /// Uses a link: when the link with this token hash and purpose is live at `now`, marks
    /// it used (once: of two concurrent uses, one wins) and answers its account.
    func useLink(tokenHash: String, purpose: AccountLink.Purpose, now: Date) async throws(StoreError) -> LinkUse

    /// Records that the user's address `email` is verified.
    func markEmailVerified(_ email: String, of user: String, at: Date) async throws(StoreError)

    /// The user's verified address, if any (an account whose email changed later has
    /// another one than this).
    func verifiedEmail(of user: String) async throws(StoreError) -> String?
}
