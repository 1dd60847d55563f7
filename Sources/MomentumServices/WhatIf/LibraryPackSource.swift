import Foundation
import MomentumCore
import MomentumStore

/// The packs as configured: a candidate is a stored version (or `bundled`, the compiled-in
/// pack of that name), and a user's packs are those in force in the store's
/// `PackLibrary`.
public struct LibraryPackSource: WhatIfPackSource {
    let store: any PackVersions & AccountStore

    /// The source over `store`'s versions and library.
    public init(store: any PackVersions & AccountStore) {
        self.store = store
    }

    /// A stored version of `name` (one that no longer reads is none), or the compiled-in
    /// pack for `bundled` or its own version.
    public func candidate(_ name: String, version: String) async throws -> RulePack? {
        if let bundled = RulePack.bundled[name], version == Packs.bundledVersion || version == bundled.version {
            if try await store.packVersion(name: name, version: version) == nil { return bundled }
        }
        guard let stored = try await store.packVersion(name: name, version: version),
            case .valid(let upload) = PackUpload.read(stored.document, maximumBytes: Int.max)
        else { return nil }
        return upload.pack
    }

    /// The profile's pack in force.
    public func current(for profile: Profile) throws -> RulePack {
        try profile.rulePack(in: store.packLibrary)
    }

    /// The profile's packs in force with `candidate` in place of its namesake.
    public func pack(for profile: Profile, replacing candidate: RulePack) -> RulePack? {
        guard WhatIfReplays.uses(profile.pack, candidate.name) else { return nil }
        let library = store.packLibrary
        return library.named(profile.pack, replacing: candidate)?.translated(library.translation(profile.translation))
    }
}
