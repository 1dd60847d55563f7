import MomentumCore

/// What keeps users' earned rewards when a pack version is activated: a rule change never
/// takes away a reward already earned.
///
/// ``Packs`` calls it before a version becomes the active one of its name (rolling back
/// included); an activation it refuses (by throwing) changes nothing.
public protocol RewardKeeping: Sendable {
    /// Called before `candidate` becomes the active version of its name; returns when every
    /// user the change would take a reward from has it kept.
    ///
    /// - Parameters:
    ///   - current: The version of that name in force now.
    ///   - candidate: The version about to be put in force.
    ///   - actor: The operator activating it.
    func keepRewards(current: RulePack, candidate: RulePack, by actor: OperatorActor) async throws
}
