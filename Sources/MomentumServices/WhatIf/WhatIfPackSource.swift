import Foundation
import MomentumCore
import MomentumStore

/// Where a what-if finds its packs: the candidate version, and the pack a user's profile
/// would run with the candidate in place of its member of the same name.
public protocol WhatIfPackSource: Sendable {
    /// Version `version` of the pack `name`, or `nil` when there is none.
    func candidate(_ name: String, version: String) async throws -> RulePack?

    /// The pack in force for `profile`, in its language.
    func current(for profile: Profile) throws -> RulePack

    /// The pack `profile` names with `candidate` in place of its member of the same name,
    /// in the profile's language; `nil` when the profile does not use that pack.
    func pack(for profile: Profile, replacing candidate: RulePack) -> RulePack?
}

/// The compiled-in packs: a bundled pack's candidate is its compiled-in version.
public struct BundledPackSource: WhatIfPackSource {
    /// Creates the source.
    public init() {}

    /// The bundled pack of that name when `version` is its version.
    public func candidate(_ name: String, version: String) async throws -> RulePack? {
        RulePack.bundled[name].flatMap { $0.version == version ? $0 : nil }
    }

    /// The profile's bundled pack.
    public func current(for profile: Profile) throws -> RulePack { try profile.rulePack() }

    /// The profile's bundled members, `candidate` in place of its namesake.
    public func pack(for profile: Profile, replacing candidate: RulePack) -> RulePack? {
        let names = profile.pack.split(separator: "+").map { $0.trimmingCharacters(in: .whitespaces) }
        guard names.contains(candidate.name) else { return nil }
        let members = names.compactMap { name in name == candidate.name ? candidate : RulePack.bundled[name] }
        guard members.count == names.count, !members.isEmpty else { return nil }
        return RulePack.combining(members).translated(profile.translation)
    }
}
