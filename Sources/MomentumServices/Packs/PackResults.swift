import Foundation

/// One stored version of a pack, as the admin API and the console list it.
public struct PackVersionView: Sendable, Codable, Hashable {
    /// The version (`1.1.0`).
    public var version: String
    /// Whether it is the version in force.
    public var active: Bool
    /// The operator who uploaded it.
    public var uploadedBy: String
    /// When it was uploaded.
    public var uploadedAt: Date
    /// When it was last activated, if ever.
    public var activatedAt: Date?
    /// The operator who last activated it, if any.
    public var activatedBy: String?
}

/// A pack name with its versions: what is in force, and what may be.
public struct PackSummary: Sendable, Codable, Hashable {
    /// The pack's name.
    public var name: String
    /// The version in force: the active upload's, else the bundled pack's.
    public var activeVersion: String
    /// Whether the version in force is the compiled-in one (no upload of this name is active).
    public var bundled: Bool
    /// The compiled-in version, for a bundled pack's name.
    public var bundledVersion: String?
    /// Every uploaded version, newest upload first.
    public var versions: [PackVersionView]
}

/// Every pack: the bundled ones and the uploaded ones.
public struct PackListing: Sendable, Codable, Hashable {
    /// The packs, the bundled order first, then other names sorted.
    public var packs: [PackSummary]
}

/// What an upload did.
public struct PackUploadResult: Sendable, Codable, Hashable {
    /// Whether the version is new (`false`: the same document was already stored).
    public var created: Bool
    /// The pack's name.
    public var name: String
    /// The version uploaded.
    public var version: String
    /// The pack with its versions after the upload.
    public var pack: PackSummary
}

/// One version's document: the upload as stored.
public struct PackDocument: Sendable, Hashable {
    /// The pack's name.
    public var name: String
    /// The version.
    public var version: String
    /// The upload as canonical JSON (`{"pack": …, "translations": …}`).
    public var document: Data
}
