import Foundation
import MomentumCore

/// Whole accounts exported as archives and imported from them.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol AccountArchives: Sendable {
    /// Everything needed to move the account elsewhere.
    ///
    /// - Throws: ``StoreError/Code/notFound`` when the account does not exist.
    func exportAccount(_ user: String) async throws(StoreError) -> AccountArchive

    /// Creates an account from an archive, in one transaction: its events are replayed and
    /// its projections built, then its memories' notes and photos restored.
    ///
    /// - Parameters:
    ///   - archive: A checked archive.
    ///   - now: The instant to evaluate the projections at.
    /// - Throws: ``StoreError/Code/userExists`` or ``StoreError/Code/emailTaken``; nothing is
    ///   written.
    func importAccount(_ archive: AccountArchive, now: Date) async throws(StoreError)
}
