import Foundation

/// The rule packs operators upload: every version of each, and which one is active.
///
/// One area of ``MomentumStore``. Global: packs are the deployment's, not a user's. Every
/// instance reads the active versions from the database (``PackLibrary`` reloads them), so
/// an activation through one instance reaches the others within their refresh.
public protocol PackVersions: Sendable {
    /// Stores an uploaded version, inactive.
    ///
    /// - Returns: ``PackVersion/Stored/stored`` for a new version; ``PackVersion/Stored/unchanged``
    ///   when the same document is stored under that name and version; ``PackVersion/Stored/conflict``
    ///   when another document is. Nothing changes but in the first case.
    /// - Throws: ``StoreError/Code/invalidInput`` for a name, version or operator out of bounds.
    func storePackVersion(_ version: PackVersion) async throws(StoreError) -> PackVersion.Stored

    /// Every stored version, documents left empty (read one with ``packVersion(name:version:)``),
    /// by name, then newest upload first.
    func packVersions() async throws(StoreError) -> [PackVersion]

    /// One version with its document; `nil` when there is none.
    func packVersion(name: String, version: String) async throws(StoreError) -> PackVersion?

    /// The active version of every name that has one, with its document.
    func activePackVersions() async throws(StoreError) -> [PackVersion]

    /// Makes `version` the active version of `name`, in one transaction with the
    /// deactivation of the one before; `nil` deactivates every version of `name` (the
    /// bundled pack, if any, is then in force).
    ///
    /// - Returns: The version activated; `nil` for `nil`.
    /// - Throws: ``StoreError/Code/notFound`` when no such version is stored (nothing changes).
    @discardableResult
    func activatePackVersion(
        name: String, version: String?, by operatorID: String, at instant: Date
    )
        async throws(StoreError) -> PackVersion?
}
