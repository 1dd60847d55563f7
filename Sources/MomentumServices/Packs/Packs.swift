import Foundation
import Logging
import MomentumCore
import MomentumStore

/// Rule packs as configuration: operators upload versions, Momentum checks and stores them,
/// and one version per name is active.
///
/// An upload is checked by `PackUpload.read(_:maximumBytes:)` (every problem listed,
/// nothing stored when there is one). Activating a version (or `bundled`, the compiled-in
/// pack of that name) first lets ``RewardKeeping`` keep what users earned, then flips the
/// active version in one transaction and reloads this instance's `PackLibrary` at once;
/// other instances reload within their refresh (``refresh()``, every
/// `packs.refresh_seconds`). A device gets the new version with its next sync: every state
/// carries the versions of its packs.
public struct Packs: Sendable {
    let store: any PackVersions & AccountStore
    let now: @Sendable () -> Date
    let maximumBytes: Int
    let keeper: (any RewardKeeping)?
    let logger: Logger

    /// The version name that returns a pack to its compiled-in rules.
    public static let bundledVersion = "bundled"

    /// Creates the use case.
    ///
    /// - Parameters:
    ///   - store: The pack versions, and the store whose library they feed.
    ///   - now: The clock.
    ///   - maximumBytes: The largest upload (`packs.max_bytes`).
    ///   - keeper: What keeps earned rewards before an activation; `nil` for nothing to keep.
    ///   - logger: Where a stored version that no longer reads is reported.
    public init(
        store: any PackVersions & AccountStore, now: @escaping @Sendable () -> Date, maximumBytes: Int,
        keeper: (any RewardKeeping)?, logger: Logger
    ) {
        self.store = store
        self.now = now
        self.maximumBytes = maximumBytes
        self.keeper = keeper
        self.logger = logger
    }

    /// The packs in force on this instance.
    public var library: PackLibrary { store.packLibrary }

    /// Checks and stores an uploaded version, inactive.
    ///
    /// - Parameters:
    ///   - data: The upload: `{"pack": {…}, "translations": {…}}`.
    ///   - actor: The operator uploading it.
    /// - Returns: Whether it was new, and the pack's versions.
    /// - Throws: `.tooLarge` (`pack_too_large`) beyond `packs.max_bytes`, unread; `.invalid`
    ///   (`invalid_pack`) with every problem as a field (its JSON path) and an issue;
    ///   `.conflict` (`pack_version_exists`) when that version is stored with another
    ///   document. Nothing is stored then.
    public func upload(_ data: Data, by actor: OperatorActor) async throws -> PackUploadResult {
        let upload: PackUpload
        switch PackUpload.read(data, maximumBytes: maximumBytes) {
        case .tooLarge(let bytes, let maximum):
            throw ServiceError(
                .tooLarge, "pack_too_large", "the pack has \(bytes) bytes; at most \(maximum) are accepted")
        case .invalid(let problems):
            throw ServiceError(
                .invalid, "invalid_pack",
                problems.count == 1 ? "the pack has a problem" : "the pack has \(problems.count) problems",
                fields: problems.map { ServiceError.Field(field: $0.path, issue: $0.problem) })
        case .valid(let valid):
            upload = valid
        }
        let stored = try await store.storePackVersion(
            PackVersion(
                name: upload.pack.name, version: upload.pack.version, document: upload.document,
                uploadedBy: actor.id, uploadedAt: now()))
        if stored == .conflict {
            throw ServiceError(
                .conflict, "pack_version_exists",
                "version \(upload.pack.version) of pack '\(upload.pack.name)' is stored with another document; upload a new version"
            )
        }
        return PackUploadResult(
            created: stored == .stored, name: upload.pack.name, version: upload.pack.version,
            pack: try await summary(upload.pack.name))
    }

    /// Every pack: each bundled name and each uploaded one, with its versions.
    public func list() async throws -> PackListing {
        let versions = try await store.packVersions()
        let byName = Dictionary(grouping: versions) { $0.name }
        let names =
            PackLibrary.canonicalOrder(
                (Set(RulePack.bundledOrder).union(byName.keys)).sorted().joined(separator: "+")) ?? []
        return PackListing(packs: names.map { summary($0, versions: byName[$0] ?? []) })
    }

    /// One pack with its versions.
    ///
    /// - Throws: `.notFound` when no pack has that name.
    public func summary(_ name: String) async throws -> PackSummary {
        let versions = try await store.packVersions().filter { $0.name == name }
        guard !versions.isEmpty || RulePack.bundled[name] != nil else { throw ServiceError.notFound("pack") }
        return summary(name, versions: versions)
    }

    private func summary(_ name: String, versions: [PackVersion]) -> PackSummary {
        let active = versions.first(where: \.active)
        let bundled = RulePack.bundled[name]?.version
        return PackSummary(
            name: name, activeVersion: active?.version ?? bundled ?? "", bundled: active == nil,
            bundledVersion: bundled,
            versions: versions.map {
                PackVersionView(
                    version: $0.version, active: $0.active, uploadedBy: $0.uploadedBy, uploadedAt: $0.uploadedAt,
                    activatedAt: $0.activatedAt, activatedBy: $0.activatedBy)
            })
    }

    /// One version's document as stored; `bundled` (or the compiled-in version's number when
    /// no upload has it) for a bundled pack's own document.
    ///
    /// - Throws: `.notFound` when there is no such version.
    public func document(_ name: String, version: String) async throws -> PackDocument {
        if let stored = try await store.packVersion(name: name, version: version) {
            return PackDocument(name: name, version: version, document: stored.document)
        }
        guard let bundled = Self.bundledDocument(name),
            version == Self.bundledVersion || version == RulePack.bundled[name]?.version
        else { throw ServiceError.notFound("pack version") }
        return PackDocument(name: name, version: RulePack.bundled[name]?.version ?? version, document: bundled)
    }

    /// A stored version as a pack, in English, for a what-if; `nil` when there is none (or
    /// it no longer reads).
    public func candidate(_ name: String, version: String) async throws -> RulePack? {
        guard let stored = try await store.packVersion(name: name, version: version),
            case .valid(let upload) = PackUpload.read(stored.document, maximumBytes: Int.max)
        else {
            return version == Self.bundledVersion ? RulePack.bundled[name] : nil
        }
        return upload.pack
    }

    /// Puts a version in force for its name: a stored version, or ``bundledVersion`` to return
    /// to the compiled-in pack (rolling back is activating an earlier version).
    ///
    /// The ``RewardKeeping`` hook runs first, with the pack in force and the candidate; then
    /// the flip, in one transaction; then this instance's library reloads.
    ///
    /// - Returns: The pack with its versions after the change.
    /// - Throws: `.notFound` for a version not stored (or `bundled` for a name Momentum does
    ///   not bundle); `.failed` (`pack_unreadable`) for a stored version that no longer reads.
    ///   Nothing changes then.
    public func activate(_ name: String, version: String, by actor: OperatorActor) async throws -> PackSummary {
        let candidate: RulePack
        if version == Self.bundledVersion {
            guard let bundled = RulePack.bundled[name] else { throw ServiceError.notFound("bundled pack") }
            candidate = bundled
        } else {
            guard let stored = try await store.packVersion(name: name, version: version)
            else { throw ServiceError.notFound("pack version") }
            guard case .valid(let upload) = PackUpload.read(stored.document, maximumBytes: Int.max) else {
                throw ServiceError(
                    .failed, "pack_unreadable", "version \(version) of pack '\(name)' no longer reads; upload it again")
            }
            candidate = upload.pack
        }
        try await refresh()
        if let keeper, let current = library.pack(name) {
            try await keeper.keepRewards(current: current, candidate: candidate, by: actor)
        }
        try await store.activatePackVersion(
            name: name, version: version == Self.bundledVersion ? nil : version, by: actor.id, at: now())
        try await refresh()
        return try await summary(name)
    }

    /// Reloads the active versions into this instance's library (a server does it every
    /// `packs.refresh_seconds`); a stored version that no longer reads is logged and skipped.
    public func refresh() async throws {
        let skipped = try await library.reload(from: store)
        for line in skipped { logger.error("\(line)") }
    }

    /// A bundled pack's document as an upload (`{"pack": …}`).
    static func bundledDocument(_ name: String) -> Data? {
        let json: String
        switch name {
        case "habits": json = RulePack.habitsJSON
        case "ollie": json = RulePack.ollieJSON
        case "savings": json = RulePack.savingsJSON
        case "growth": json = RulePack.growthJSON
        default: return nil
        }
        return Data(#"{"pack": \#(json)}"#.utf8)
    }
}
