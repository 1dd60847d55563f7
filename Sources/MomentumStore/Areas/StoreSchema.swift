import Foundation
import MomentumCore

/// The schema: its migrations.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol StoreSchema: Sendable {
    /// Brings the schema to ``Schema/latestVersion``, one migration per transaction.
    ///
    /// - Throws: ``StoreError/Code/migration`` naming the migration that failed.
    func migrate() async throws(StoreError)

    /// The versions of the migrations applied, in order.
    func appliedMigrations() async throws(StoreError) -> [Int]
}
