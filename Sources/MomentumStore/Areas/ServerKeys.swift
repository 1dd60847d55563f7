import Foundation

/// Server keys and the users an app's backend knows by its own ids.
///
/// One area of ``MomentumStore``. Both tables are global: a key is found by its id before
/// any user is known, and an app's user by the app's id. Every instance reads them from the
/// database, so a key revoked through one instance is refused by all at once.
public protocol ServerKeys: Sendable {
    /// Stores a new key.
    ///
    /// - Throws: ``StoreError/Code/invalidInput`` for an id, app, name or scope out of
    ///   bounds; ``StoreError/Code/userExists`` when the id is taken.
    func createServerKey(_ key: ServerKey) async throws(StoreError)

    /// Every key, revoked ones too, newest first.
    func serverKeys() async throws(StoreError) -> [ServerKey]

    /// The key with this id, revoked or not; `nil` when there is none.
    func serverKey(id: String) async throws(StoreError) -> ServerKey?

    /// Revokes a key; revoking a revoked key keeps its first revocation time.
    ///
    /// - Returns: The key as it now is; `nil` when there is no such key.
    func revokeServerKey(id: String, at instant: Date) async throws(StoreError) -> ServerKey?

    /// Records that a key was used at `instant`.
    func touchServerKey(id: String, at instant: Date) async throws(StoreError)

    /// The Momentum user an app knows by `appUserID`, if it was provisioned.
    func appUser(app: String, appUserID: String) async throws(StoreError) -> AppUser?

    /// The app user a Momentum user is, if an app's backend provisioned it.
    func appUser(of user: String) async throws(StoreError) -> AppUser?

    /// Creates an account without email or password for an app's user, with its profile,
    /// and maps the app's id to it, in one transaction.
    ///
    /// - Returns: The mapping: the new one, or the one a concurrent call made first (then
    ///   `account` was not created).
    func provisionAppUser(_ user: AppUser, account: Account, profile: Profile) async throws(StoreError) -> AppUser
}
