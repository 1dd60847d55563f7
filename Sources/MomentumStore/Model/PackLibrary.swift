import Foundation
import MomentumCore
import Synchronization

/// The rule packs in force: the active uploaded versions over the bundled packs.
///
/// One per store (``AccountStore/packLibrary``). An upload may be a pack of a new name
/// (`puppy`) or a new version of a bundled one (`habits` 1.1.0 over the compiled-in 1.0.0);
/// a name with no active upload is its bundled pack. ``generation`` changes with every
/// change, so that an engine built before it is rebuilt with the new rules (the engine cache
/// treats an older generation as a miss). Each instance reloads the active versions from
/// the store (``reload(from:)``), every few seconds and at once after a change of its own.
public final class PackLibrary: Sendable {
    private struct State {
        var generation = 0
        /// The active uploads, by pack name.
        var uploads: [String: PackUpload] = [:]
        /// What was loaded, by name: `version` and the document, to tell a change.
        var loaded: [String: Data] = [:]
        /// Combinations built so far, by canonical name.
        var combinations: [String: RulePack] = [:]
        /// Translations with every upload's texts, by language.
        var translations: [String: Translation] = [:]
    }

    private let state = Mutex(State())

    /// A library of the bundled packs alone, until uploads are loaded.
    public init() {}

    /// A library of the bundled packs alone, never changed: for tools without a server.
    public static let bundled = PackLibrary()

    /// A number that changes whenever the packs in force change.
    public var generation: Int { state.withLock { $0.generation } }

    /// The pack in force for one name: its active upload, else the bundled pack; `nil` for
    /// neither.
    public func pack(_ name: String) -> RulePack? {
        state.withLock { $0.uploads[name]?.pack } ?? RulePack.bundled[name]
    }

    /// The active upload of a name, if one is active.
    public func upload(_ name: String) -> PackUpload? {
        state.withLock { $0.uploads[name] }
    }

    /// Every name a profile may use: the bundled packs in their order, then uploaded ones
    /// sorted.
    public var names: [String] {
        let uploaded = state.withLock { Array($0.uploads.keys) }
        return Self.order(Set(RulePack.bundledOrder + uploaded))
    }

    /// A pack or a combination (`habits+puppy`, in any order); `nil` when a name is
    /// unknown, repeated or empty.
    public func named(_ name: String) -> RulePack? {
        guard let names = canonicalNames(name) else { return nil }
        let key = names.joined(separator: "+")
        if let cached = state.withLock({ $0.combinations[key] }) { return cached }
        let members = names.compactMap(pack)
        guard members.count == names.count else { return nil }
        let combined = RulePack.combining(members)
        state.withLock { $0.combinations[key] = combined }
        return combined
    }

    /// ``named(_:)`` with the member of `candidate`'s name replaced by `candidate` (a
    /// version not yet active, for a what-if); `candidate`'s name may be new.
    public func named(_ name: String, replacing candidate: RulePack) -> RulePack? {
        guard let names = Self.canonicalOrder(name) else { return nil }
        var members: [RulePack] = []
        for member in names {
            guard let pack = member == candidate.name ? candidate : pack(member) else { return nil }
            members.append(pack)
        }
        return RulePack.combining(members)
    }

    /// The names of `name` (`puppy+habits`) in canonical order (`["habits", "puppy"]`):
    /// the bundled order, then other names sorted; `nil` when one is unknown or repeated,
    /// or the list is empty.
    public func canonicalNames(_ name: String) -> [String]? {
        guard let names = Self.canonicalOrder(name), names.allSatisfy({ pack($0) != nil }) else { return nil }
        return names
    }

    /// The version in force of one pack; `nil` when there is no such pack.
    public func version(of name: String) -> String? {
        pack(name)?.version
    }

    /// The versions a state computed with these packs carries: this engine's, and each
    /// named pack's in force (names unknown here are left out).
    public func ruleVersions(of names: [String]) -> RuleVersions {
        var packs: [String: String] = [:]
        for name in names { packs[name] = version(of: name) }
        return RuleVersions(engine: MomentumUser.engineVersion, packs: packs)
    }

    /// `translation` with the texts of every active upload in its language.
    public func translation(_ translation: Translation) -> Translation {
        if let cached = state.withLock({ $0.translations[translation.language] }), cached.plurals == translation.plurals
        {
            return cached
        }
        let uploads = state.withLock { Array($0.uploads.values) }
        var merged = translation
        for upload in uploads.sorted(by: { $0.pack.name < $1.pack.name }) { merged = upload.translation(merged) }
        state.withLock { $0.translations[translation.language] = merged }
        return merged
    }

    /// The order a combination lists names in: the bundled order, then other names sorted;
    /// `nil` for an empty list, an empty name or a repeated one. Whether the names exist is
    /// not checked.
    public static func canonicalOrder(_ name: String) -> [String]? {
        let names = name.split(separator: "+", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !names.isEmpty, !names.contains(""), Set(names).count == names.count else { return nil }
        return order(Set(names))
    }

    private static func order(_ names: Set<String>) -> [String] {
        RulePack.bundledOrder.filter(names.contains) + names.subtracting(RulePack.bundledOrder).sorted()
    }

    /// Puts `active` in force in place of the uploads before: one version per name, each
    /// document read again (`PackUpload.read(_:maximumBytes:)`). A document that no
    /// longer reads is skipped (its name falls back to its bundled pack, if any).
    ///
    /// - Parameter active: The active versions, with their documents.
    /// - Returns: What was skipped and why, one line each, for the log.
    @discardableResult
    public func update(active: [PackVersion]) -> [String] {
        var skipped: [String] = []
        var loaded: [String: Data] = [:]
        for version in active { loaded[version.name] = Data(version.version.utf8) + version.document }
        guard loaded != state.withLock({ $0.loaded }) else { return [] }
        var uploads: [String: PackUpload] = [:]
        for version in active {
            switch PackUpload.read(version.document, maximumBytes: Int.max) {
            case .valid(let upload) where upload.pack.name == version.name && upload.pack.version == version.version:
                uploads[version.name] = upload
            case .valid:
                skipped.append("pack \(version.name) \(version.version): its document names another pack or version")
            case .invalid(let problems):
                let listed = problems.prefix(3).map { "\($0.path): \($0.problem)" }.joined(separator: "; ")
                skipped.append("pack \(version.name) \(version.version) no longer reads: \(listed)")
            case .tooLarge:
                skipped.append("pack \(version.name) \(version.version): too large")
            }
        }
        state.withLock { state in
            state.uploads = uploads
            state.loaded = loaded
            state.combinations = [:]
            state.translations = [:]
            state.generation += 1
        }
        return skipped
    }

    /// Reads the active versions from the store and puts them in force when they changed.
    ///
    /// - Parameter store: The store's packs.
    /// - Returns: What was skipped and why (see ``update(active:)``).
    @discardableResult
    public func reload(from store: any PackVersions) async throws(StoreError) -> [String] {
        update(active: try await store.activePackVersions())
    }
}
