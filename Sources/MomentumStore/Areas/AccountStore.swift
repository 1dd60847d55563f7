import Foundation
import MomentumCore

/// Accounts, profiles and device sessions.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol AccountStore: Sendable {
    /// The rule packs in force for this store's profiles: the active uploaded versions over
    /// the bundled packs (``Profile/rulePack(in:)``).
    var packLibrary: PackLibrary { get }

    /// Creates an account with its profile.
    ///
    /// - Throws: ``StoreError/Code/emailTaken``, ``StoreError/Code/userExists`` or
    ///   ``StoreError/Code/invalidInput``.
    func createAccount(_ account: Account, profile: Profile) async throws(StoreError)

    /// The account with this user id, if any.
    func account(id: String) async throws(StoreError) -> Account?

    /// The account with this email address (compared case-insensitively), if any.
    func account(email: String) async throws(StoreError) -> Account?

    /// Deletes an account and every row of its user.
    ///
    /// - Returns: Whether there was such an account.
    @discardableResult
    func deleteAccount(id: String) async throws(StoreError) -> Bool

    /// The user's profile, if the account exists.
    func profile(of user: String) async throws(StoreError) -> Profile?

    /// Replaces the user's profile. A change of pack or day-start hour re-evaluates the log
    /// and rewrites the projections in the same transaction.
    ///
    /// - Throws: ``StoreError/Code/notFound`` or ``StoreError/Code/invalidInput``.
    func updateProfile(_ profile: Profile, for user: String) async throws(StoreError)

    /// Replaces the account's password hash and, when `keeping` is given, ends every device
    /// session but that one, in one transaction.
    ///
    /// - Parameters:
    ///   - hash: The new password's hash.
    ///   - user: The account.
    ///   - keeping: The token hash of the one session to keep (the device that changed the
    ///     password) when the others are signed out; `nil` keeps them all.
    /// - Returns: The token hashes of the sessions ended; `nil` when there is no such account.
    func changePassword(
        to hash: String, of user: String, keeping: String?
    ) async throws(StoreError) -> [String]?

    // MARK: Device sessions

    /// Stores a new device session (or replaces one with the same token hash).
    func saveSession(_ session: DeviceSession) async throws(StoreError)

    /// The session with this token hash, if any.
    func session(of user: String, tokenHash: String) async throws(StoreError) -> DeviceSession?

    /// Every session of the user, newest first.
    func sessions(of user: String) async throws(StoreError) -> [DeviceSession]

    /// Records that a session was used.
    func touchSession(of user: String, tokenHash: String, at instant: Date) async throws(StoreError)

    /// Deletes a session (sign-out).
    ///
    /// - Returns: Whether there was such a session.
    @discardableResult
    func deleteSession(of user: String, tokenHash: String) async throws(StoreError) -> Bool
}
