import Foundation
import MomentumCore
import MomentumStore

extension WhatIfReplays: RewardKeeping {
    /// Keeps the rewards a candidate version would take: for every user of its pack whose
    /// unlocks, or diamonds or freezes earned by rewards, the candidate would not give, one
    /// `rewards.kept` event (server-authored) listing the unlocks it would take and what
    /// their rewards earned so far. Under the rules in force the event changes nothing;
    /// under the candidate the engine keeps what it lists.
    ///
    /// Each user's event has an id made of the pack's name, the version and the user, so an
    /// activation tried again appends nothing twice. Users are paged as a what-if pages
    /// them: one page of users and one user's log at a time.
    ///
    /// - Parameters:
    ///   - current: The version in force (the users' engines are read as they stand).
    ///   - candidate: The version about to be put in force.
    ///   - actor: The operator activating it.
    public func keepRewards(current: RulePack, candidate: RulePack, by actor: OperatorActor) async throws {
        var after: String?
        var kept = 0
        while let page = try await nextPage(after: after, chosen: nil, pack: candidate.name) {
            for user in page.users where try await keep(user, candidate: candidate) { kept += 1 }
            after = page.last
        }
        logger.notice(
            "rewards kept before a pack activation",
            metadata: [
                "pack": .string(candidate.name), "version": .string(candidate.version),
                "users": .stringConvertible(kept), "operator": .string(actor.id),
            ])
    }

    /// Appends `user`'s `rewards.kept` event when `candidate` would take a reward from them.
    ///
    /// - Returns: Whether they had anything to keep.
    func keep(_ user: String, candidate: RulePack) async throws -> Bool {
        guard let ingest, let (change, current, profile) = try await change(for: user, candidate: candidate),
            change.takesRewards
        else { return false }
        let unlocks = change.lost.prefix(KeptRewards.maximumUnlocks).map { unlock in
            KeptRewards.KeptUnlock(
                rule: unlock.rule, key: unlock.id, title: String(unlock.title.prefix(200)), at: unlock.achievedAt)
        }
        let rewards = KeptRewards(
            pack: candidate.name, version: candidate.version, unlocks: Array(unlocks),
            diamondsEarned: min(current.diamondsEarned, KeptRewards.maximumDiamonds),
            freezesEarned: min(current.freezesEarned, KeptRewards.maximumFreezes))
        let event = Event(
            id: Self.keptEventID(pack: candidate.name, version: candidate.version, user: user), at: now(),
            timeZone: profile.timeZone, payload: .rewardsKept(rewards))
        _ = try await ingest.appendServerAuthored([event], for: user)
        return true
    }

    /// The id of the `rewards.kept` event of `user` for version `version` of `pack`.
    static func keptEventID(pack: String, version: String, user: String) -> String {
        "kept_" + Tokens.hash("\(pack)\n\(version)\n\(user)").prefix(40)
    }
}
