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
        announced(profile.packs)
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
        return announced(packs)
    }
}
