import Foundation
import MomentumStore

/// Uploaded photos, for memories and subjects alike: proving an upload is a JPEG or PNG by
/// decoding it, storing it without its metadata, and deleting the files of a photo no
/// longer shown.
public struct PhotoUploads: Sendable {
    let store: any PhotoStore
    /// The now.
    public let now: @Sendable () -> Date
    /// Its threads decode photos, off the event loops (and bcrypt's pool).
    public let rasterizer: Rasterizer
    let photoDecoder: PhotoDecoder

    /// The paths a stored upload got.
    public struct Stored: Sendable, Equatable {
        /// The photo without its metadata.
        public var original: String
        /// Its size-limited copy for share cards, when one was asked for.
        public var shareCopy: String?
    }

    /// Checks and stores an upload under `directory` (`memories/`, `subjects/`) with a
    /// fresh name, so that a path is never reused and may be cached for ever.
    ///
    ///
    /// - Parameters:
    ///   - bytes: The photo's bytes, as uploaded.
    ///   - directory: Where the photo is kept (`memories` or `subjects`).
    ///   - shareCopy: Whether to store the size-limited copy share cards show.
    ///   - user: The user's id.
    /// - Throws: `.unsupported` for a file that is not a JPEG or PNG, `.invalid` for one that does not decode
    ///   or is too large.
    public func store(
        _ bytes: [UInt8], under directory: String, shareCopy: Bool, for user: String
    ) async throws -> Stored {
        let decoder = photoDecoder
        // Decoding a photo of up to 40 megapixels takes a core for a while: on the image
        // threads, not an event loop.
        let outcome = try await rasterizer.decodePhoto {
            Result { () throws(PhotoSanitizer.Failure) in try PhotoSanitizer.sanitize(bytes, decoder: decoder) }
        }
        let sanitized: PhotoSanitizer.Sanitized
        switch outcome {
        case .success(let value):
            sanitized = value
        case .failure(.unsupportedType):
            throw ServiceError(.unsupported, "unsupported_photo_type", "upload a JPEG or PNG photo")
        case .failure(.malformed(let reason)):
            throw ServiceError(.invalid, "invalid_photo", "the photo could not be read: \(reason)")
        case .failure(.tooLarge(let reason)):
            throw ServiceError(.invalid, "photo_too_large", reason)
        }
        let name = "\(directory)\(Tokens.id("p_"))"
        var stored = Stored(original: "\(name).\(sanitized.ext)")
        if shareCopy {
            // The copy first: a photo is only ever referenced once both of its files exist.
            let path = "\(name)-share.\(sanitized.shareCopy.ext)"
            try await store.savePhoto(
                StoredPhoto(
                    path: path, contentType: sanitized.shareCopy.contentType, bytes: sanitized.shareCopy.bytes,
                    createdAt: now()),
                for: user)
            stored.shareCopy = path
        }
        try await store.savePhoto(
            StoredPhoto(
                path: stored.original, contentType: sanitized.contentType, bytes: sanitized.bytes, createdAt: now()),
            for: user)
        return stored
    }

    /// Deletes the user's photos at these paths (a path with no photo is passed over).
    public func delete(_ paths: [String], of user: String) async throws {
        for path in paths { _ = try await store.deletePhoto(of: user, path: path) }
    }
}
