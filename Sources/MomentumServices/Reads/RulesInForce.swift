import MomentumCore
import MomentumStore

/// The versions of the rules this server computes with, as its answers announce them: the
/// engine's and those of the packs an account uses (`RuleVersions`).
///
/// `GET /v1/today`, a push's and a pull's answers and the change stream carry them, so that
/// a device can tell whether its own rules are older than the server's (and then show the
/// server's state rather than compute another).
public struct RulesInForce: Sendable {
    let store: any AccountStore & EventStore
    /// The versions announced for a list of pack names (`ServerConfiguration.ruleVersions`).
    let announced: @Sendable ([String]) -> RuleVersions

    /// The versions of the rules of `profile`'s packs.
    public func versions(of profile: Profile) -> RuleVersions {
        inForce(profile.packs)
    }

    /// The versions announced for `names`, each uploaded pack at its active version (the
    /// store's `PackLibrary`), so that a device sees a new version at its next sync.
    private func inForce(_ names: [String]) -> RuleVersions {
        var versions = announced(names)
        let library = store.packLibrary
        for name in names where library.upload(name) != nil || versions.packs[name] == nil {
            if let version = library.version(of: name) { versions.packs[name] = version }
        }
        return versions
    }

    /// The versions of the rules of `user`'s packs, from their profile.
    ///
    /// - Throws: `.notFound` when the user has no profile.
    public func versions(of user: String) async throws -> RuleVersions {
        guard let profile = try await store.profile(of: user) else { throw ServiceError.notFound("account") }
        return versions(of: profile)
    }

    /// The versions of the rules of `user`'s packs, from the engine cache's entry at the
    /// projection `version` (a write's own, so that a push costs no read of the profile).
    func versions(of user: String, after version: Int64) async throws -> RuleVersions {
        let packs = try await store.evaluate(user, after: version) { _, profile in profile.packs }
        return inForce(packs)
    }
}
