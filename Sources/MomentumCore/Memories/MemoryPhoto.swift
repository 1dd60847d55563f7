/// The photo of a ``Memory``: the original, and optionally a compressed copy for sharing.
///
/// Seed 000 keeps photos in a dedicated `memories/` directory, "compressed for sharing but
/// original quality retained". Both paths are relative to the app's data directory and must
/// lie under `memories/` (`memories/2026-02-27-potty-streak.jpg`): no leading `/`, no `.` or
/// `..` segments, no empty segments, no backslashes and no control characters, so a path read
/// from an imported file can never point outside that directory.
///
/// JSON: `{"original": "memories/a.jpg", "shareCopy": "memories/a-share.jpg"}`; decoding
/// applies the same checks.
public struct MemoryPhoto: Hashable, Sendable, Codable {
    /// The directory every memory photo lives in, with its trailing slash.
    public static let directory = "memories/"

    /// The original photo, at full quality.
    public let original: String
    /// The compressed copy for sharing, if one was made.
    public let shareCopy: String?

    /// Creates a photo after checking both paths.
    ///
    /// - Parameters:
    ///   - original: The original photo's path (`memories/2026-02-27-potty-streak.jpg`).
    ///   - shareCopy: The compressed copy's path, if any.
    /// - Throws: ``MomentumError`` with code ``MomentumError/Code/invalidEvent`` and field
    ///   `photo` or `share_photo` when a path is not a relative path under `memories/`.
    public init(original: String, shareCopy: String? = nil) throws(MomentumError) {
        try Self.validate(original, field: "photo")
        if let shareCopy { try Self.validate(shareCopy, field: "share_photo") }
        self.original = original
        self.shareCopy = shareCopy
    }

    /// Checks that a path is a relative path to a file under `memories/` (or another
    /// photo directory, such as ``Subject/photoDirectory``).
    ///
    /// - Parameters:
    ///   - path: The path to check.
    ///   - field: The field to name in the error.
    ///   - directory: The directory the file must lie under, with its trailing slash.
    /// - Throws: ``MomentumError`` (``MomentumError/Code/invalidEvent``) saying what is wrong.
    public static func validate(
        _ path: String, field: String = "photo", under directory: String = directory
    ) throws(MomentumError) {
        func fail(_ reason: String) -> MomentumError {
            MomentumError(.invalidEvent, "photo path '\(path)' \(reason)", field: field)
        }
        if path.hasPrefix("/") { throw fail("must be relative, not absolute") }
        if path.unicodeScalars.contains(where: { $0 == "\\" || $0.properties.generalCategory == .control }) {
            throw fail("must not contain backslashes or control characters")
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains("..") { throw fail("must not contain '..'") }
        if segments.contains(".") || segments.contains("") { throw fail("must not contain '.' or empty segments") }
        guard segments.count >= 2, segments[0] == directory.dropLast() else {
            throw fail("must be a file under '\(directory)'")
        }
    }

    /// The directories uploaded photos live in: memories' and subjects'
    /// (``Subject/photoDirectory``).
    public static let directories = [directory, Subject.photoDirectory]

    /// Checks that a path is a relative path to a file under one of ``directories``, as
    /// every stored photo's is.
    ///
    /// - Throws: ``MomentumError`` (``MomentumError/Code/invalidEvent``) saying what is wrong.
    public static func validateStored(_ path: String, field: String = "photo") throws(MomentumError) {
        try validate(path, field: field, under: directories.first { path.hasPrefix($0) } ?? directory)
    }

    private enum CodingKeys: String, CodingKey {
        case original, shareCopy
    }

    /// Decodes a photo, applying the checks of ``init(original:shareCopy:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let original = try container.decode(String.self, forKey: .original)
        let shareCopy = try container.decodeIfPresent(String.self, forKey: .shareCopy)
        do {
            try self.init(original: original, shareCopy: shareCopy)
        } catch {
            let key: CodingKeys = error.field == "share_photo" ? .shareCopy : .original
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.message)
        }
    }
}
