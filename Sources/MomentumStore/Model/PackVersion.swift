import Foundation

/// One uploaded version of a rule pack, as stored.
///
/// Versions are kept for good: several may exist for one name, and at most one of them is
/// active. A name with no active version uses its bundled pack, if Momentum has one.
public struct PackVersion: Hashable, Sendable {
    /// The pack's name (`puppy`, `habits`).
    public var name: String
    /// Its semantic version (`1.1.0`).
    public var version: String
    /// The upload as canonical JSON: `{"pack": {…}, "translations": {…}}`.
    public var document: Data
    /// The operator who uploaded it.
    public var uploadedBy: String
    /// When it was uploaded.
    public var uploadedAt: Date
    /// Whether it is the version in force for its name.
    public var active: Bool
    /// When it was last activated; `nil` if it never was.
    public var activatedAt: Date?
    /// The operator who last activated it; `nil` if none did.
    public var activatedBy: String?

    /// A version as given.
    public init(
        name: String, version: String, document: Data, uploadedBy: String, uploadedAt: Date, active: Bool = false,
        activatedAt: Date? = nil, activatedBy: String? = nil
    ) {
        self.name = name
        self.version = version
        self.document = document
        self.uploadedBy = uploadedBy
        self.uploadedAt = uploadedAt
        self.active = active
        self.activatedAt = activatedAt
        self.activatedBy = activatedBy
    }

    /// What storing a version did.
    public enum Stored: Hashable, Sendable {
        /// It was new, and is stored.
        case stored
        /// The same name, version and document were already stored: nothing changed.
        case unchanged
        /// The version exists with another document: nothing changed.
        case conflict
    }
}
