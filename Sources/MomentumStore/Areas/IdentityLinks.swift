import Foundation

/// The identities at app identity providers that sign in to accounts: one global table,
/// `identities (provider, subject) → user_id`.
///
/// One area of ``MomentumStore``. An identity belongs to one account at most; an account
/// has at most one identity per provider.
public protocol IdentityLinks: Sendable {
    /// The identity with this provider and subject, if it is linked to an account.
    func linkedIdentity(provider: String, subject: String) async throws(StoreError) -> LinkedIdentity?

    /// The identities linked to the account, by provider.
    func linkedIdentities(of user: String) async throws(StoreError) -> [LinkedIdentity]

    /// Creates an account with its profile and its first identity, in one transaction.
    ///
    /// Two first sign-ins of one identity at once create one account: the second finds the
    /// identity linked and creates nothing.
    ///
    /// - Returns: The user id the identity signs in to: the new account's, or the account
    ///   that an earlier sign-in created.
    /// - Throws: ``StoreError/Code/emailTaken`` when the account's email belongs to another
    ///   account (nothing is created), and the errors of ``AccountStore/createAccount(_:profile:)``.
    func createAccount(
        _ account: Account, profile: Profile, identity: LinkedIdentity
    ) async throws(StoreError) -> String

    /// Links an identity to its account, unless it is linked already.
    ///
    /// - Returns: The user id it signs in to now: `identity.userID` when it is linked (now
    ///   or before), another account's when that account holds it.
    /// - Throws: ``StoreError/Code/notFound`` when the account does not exist,
    ///   ``StoreError/Code/userExists`` when the account already has an identity of this provider.
    func link(_ identity: LinkedIdentity) async throws(StoreError) -> String

    /// Unlinks the account's identity of a provider while the account keeps another way to
    /// sign in (a password or another identity), in one transaction under the user's lock.
    func unlink(provider: String, of user: String) async throws(StoreError) -> IdentityUnlinking
}

/// What ``IdentityLinks/unlink(provider:of:)`` did.
public enum IdentityUnlinking: Hashable, Sendable {
    /// The identity was unlinked.
    case unlinked
    /// The account has no identity of this provider.
    case notLinked
    /// The identity is the account's last way to sign in, and stays.
    case lastSignInMethod
}
