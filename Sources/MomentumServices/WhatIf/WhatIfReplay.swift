import Foundation
import MomentumCore
import MomentumStore

/// A user's log replayed under a pack, the way the store rebuilds an engine: every stored
/// event in log order, each detected when it arrived; one the pack refuses counts for
/// nothing, as it would in the store.
public enum WhatIfReplay {
    /// The engine `pack` makes of `log`.
    ///
    /// - Parameters:
    ///   - log: The user's stored events, in log order.
    ///   - pack: The pack (translated into the user's language).
    ///   - dayStartHour: The user's day start hour.
    public static func engine(_ log: [StoredEvent], pack: RulePack, dayStartHour: Int) -> MomentumUser {
        var engine = MomentumUser(pack: pack, dayStartHour: dayStartHour)
        for stored in log { _ = try? engine.append(stored.event, detectedAt: stored.receivedAt) }
        return engine
    }

    /// What `candidate` would change for the user whose log is `log`, compared with
    /// `current`, both at `now`.
    ///
    /// - Parameters:
    ///   - log: The user's stored events, in log order.
    ///   - current: The pack in force.
    ///   - candidate: The candidate pack.
    ///   - profile: The user's profile (day start hour, celebration preferences).
    ///   - now: The instant both are evaluated at.
    public static func change(
        _ log: [StoredEvent], current: RulePack, candidate: RulePack, profile: Profile, now: Date
    ) -> RewardChange {
        var before = engine(log, pack: current, dayStartHour: profile.dayStartHour)
        return change(log, current: RewardSnapshot(&before, at: now), candidate: candidate, profile: profile, now: now)
    }

    /// What `candidate` would change, given the user's rewards under the pack in force
    /// (read from the store's engine, so the log is replayed once).
    public static func change(
        _ log: [StoredEvent], current: RewardSnapshot, candidate: RulePack, profile: Profile, now: Date
    ) -> RewardChange {
        var after = engine(log, pack: candidate, dayStartHour: profile.dayStartHour)
        return RewardChange.between(current, RewardSnapshot(&after, at: now), preferences: profile.preferences)
    }
}
