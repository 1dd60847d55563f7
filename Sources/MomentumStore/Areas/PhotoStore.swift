import Foundation
import MomentumCore

/// Photos uploaded for memories and subjects.
///
/// One area of ``MomentumStore``: a use case that needs only this area receives only
/// this protocol.
public protocol PhotoStore: Sendable {
    /// Stores a memory photo (replacing one at the same path).
    ///
    /// - Throws: ``StoreError/Code/invalidInput`` when the path is not under `memories/` or `subjects/`.
    func savePhoto(_ photo: StoredPhoto, for user: String) async throws(StoreError)

    /// The photo at a path, if any.
    func photo(of user: String, path: String) async throws(StoreError) -> StoredPhoto?

    /// Every photo of the user, by path.
    func photos(of user: String) async throws(StoreError) -> [StoredPhoto]

    /// Removes the user's photo at a path (another user's photo at the same path is
    /// untouched); `false` when there was none.
    @discardableResult
    func deletePhoto(of user: String, path: String) async throws(StoreError) -> Bool
}
