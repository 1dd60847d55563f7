import Foundation
import MomentumCore

/// Loads a user's engine inside a write transaction: from the cache when it is at the
/// stored projection version, otherwise by replaying the user's log from the database.
package enum EngineLoader {
    static let headAndProfile = """
        SELECT h.version, h.head_seq, p.display_name, p.time_zone, p.day_start_hour, p.pack, p.preferences,
          p.updated_at, p.notifications, h.diamonds, h.freezes, p.language
        FROM user_heads h JOIN profiles p ON p.user_id = h.user_id WHERE h.user_id = ?
        """

    /// Continues with the user's engine in `slot` and whether it was rebuilt (in which case
    /// every projection must be rewritten).
    ///
    /// - Parameters:
    ///   - user: The user, already locked.
    ///   - cache: The engine cache.
    ///   - slot: Receives the engine.
    ///   - profile: A profile to evaluate with instead of the stored one (forces a rebuild).
    ///   - next: The rest of the program.
    /// Loads a user's engine into `slot`: the cached one when it is current, else one
    /// replayed from the log. A writer takes the cached engine out (it puts it back after
    /// its commit); a reader (`peek`) leaves it in place and works on a copy.
    static func load<R: Sendable>(
        _ user: String, cache: EngineCache, into slot: Slot<EngineEntry?>, profile override: Profile? = nil,
        peek: Bool = false, _ next: @escaping @Sendable (_ rebuilt: Bool) throws(StoreError) -> StoreStep<R>
    ) -> StoreStep<R> {
        guard peek, override == nil else {
            return loadStored(user, cache: cache, into: slot, profile: override, peek: peek, next)
        }
        // A reader whose engine is cached needs only the stored version (a single-table
        // lookup; the join with the profile is for a miss).
        return .query(versionOnly(user)) { rows throws(StoreError) in
            guard let row = rows.first else { throw StoreError(.notFound, "no account '\(user)'") }
            if let entry = cache.peek(user, version: try row.int(0, "version")) {
                cache.countHit()
                slot.value = entry
                return try next(false)
            }
            return loadStored(user, cache: cache, into: slot, profile: nil, peek: true, next)
        }
    }

    /// The statement that reads a user's stored projection version.
    package static func versionOnly(_ user: String) -> SQLStatement {
        SQLStatement(versionOnlySQL, [.text(user)])
    }

    private static let versionOnlySQL = "SELECT version FROM user_heads WHERE user_id = ?"

    /// The user whose stored version `statement` reads, when it is ``versionOnly(_:)``'s
    /// statement: a backend may read several users' versions in one statement (a single
    /// column `version`, one row, none for an unknown user).
    package static func versionRead(by statement: SQLStatement) -> String? {
        guard statement.arguments.count == 1, case .text(let user) = statement.arguments[0],
            statement.sql == versionOnlySQL
        else { return nil }
        return user
    }

    /// ``load(_:cache:into:profile:peek:_:)`` with the head and the profile read together.
    private static func loadStored<R: Sendable>(
        _ user: String, cache: EngineCache, into slot: Slot<EngineEntry?>, profile override: Profile?,
        peek: Bool, _ next: @escaping @Sendable (_ rebuilt: Bool) throws(StoreError) -> StoreStep<R>
    ) -> StoreStep<R> {
        .query(SQLStatement(headAndProfile, [.text(user)])) { rows throws(StoreError) in
            guard let row = rows.first else { throw StoreError(.notFound, "no account '\(user)'") }
            let version = try row.int(0, "version")
            let headSeq = try row.int(1, "head_seq")
            // A cached engine at the stored version was built with the stored profile (a
            // profile change bumps the version), so the profile is decoded only on a miss.
            if override == nil,
                let entry = peek ? cache.peek(user, version: version) : cache.take(user, version: version)
            {
                cache.countHit()
                slot.value = entry
                // A writer given an engine that a reader rebuilt must rewrite the projection.
                return try next(!peek && !entry.projected)
            }
            let profile: Profile
            if let override {
                profile = override
            } else {
                profile = try AccountPrograms.profile(
                    from: SQLRow(Array(row.values[2...8]) + [row.values[11]]), form: cache.storedForm)
            }
            // The generation first: a change while the engine is built makes it a miss later.
            let generation = cache.packs.generation
            let pack = try profile.rulePack(in: cache.packs)
            return .query([
                SQLStatement("SELECT body, received_at FROM events WHERE user_id = ? ORDER BY seq", [.text(user)]),
                SQLStatement("SELECT planner FROM celebration_planners WHERE user_id = ?", [.text(user)]),
            ]) { results throws(StoreError) in
                var engine = MomentumUser(pack: pack, dayStartHour: profile.dayStartHour)
                for row in results[0] {
                    // Stored events were valid when they arrived; one that today's limits
                    // (EventLimits) refuse to decode, or that a changed pack now refuses,
                    // stays in the log but counts for nothing: the account stays readable.
                    guard let event = try? StoreJSON.decode(Event.self, try row.text(0, "body"), "event") else {
                        continue
                    }
                    let receivedAt = try row.date(1, "received_at")
                    _ = try? engine.append(event, detectedAt: receivedAt)
                }
                cache.countReplay(events: results[0].count)
                var planner: CelebrationPlanner
                if let text = results[1].first?[0].string {
                    planner = try StoreJSON.decode(
                        CelebrationPlanner.self, text, "celebration planner", cache.storedForm.celebrationPlanner)
                } else {
                    planner = CelebrationPlanner(
                        preferences: profile.preferences, zone: ZoneOffsetTable.named(profile.timeZone) ?? .utc,
                        clock: DayClock(dayStartHour: profile.dayStartHour))
                }
                planner.preferences = profile.preferences
                planner.clock = DayClock(dayStartHour: profile.dayStartHour)
                var entry = EngineEntry(
                    version: version, headSeq: headSeq, user: engine, profile: profile,
                    wallet: Wallet(), planner: planner)
                entry.recentTemplates = Messages.recentTemplates(for: engine, profile: profile)
                entry.packGeneration = generation
                // Replayed from committed rows; with another profile it is not what is stored.
                entry.committed = override == nil
                slot.value = entry
                return try next(true)
            }
        }
    }
}

extension ZoneOffsetTable {
    /// Coordinated Universal Time.
    static var utc: ZoneOffsetTable {
        // UTC is always available: the table is built in, not read from the system.
        ZoneOffsetTable.named("UTC")!
    }
}

/// Celebration messages for new unlocks, phrased as the app shows them.
enum Messages {
    static func zone(of engine: MomentumUser, profile: Profile) -> ZoneOffsetTable {
        ZoneOffsetTable.named(engine.streaks.latestZone ?? profile.timeZone) ?? .utc
    }

    /// The templates of the last few messages, replaying every unlock in order.
    static func recentTemplates(for engine: MomentumUser, profile: Profile) -> [String] {
        var recent: [String] = []
        _ = messages(for: engine.unlocks, engine: engine, profile: profile, recent: &recent)
        return recent
    }

    /// The message for each unlock, by unlock id; `recent` is updated as they are chosen.
    static func messages(
        for unlocks: [Unlock], engine: MomentumUser, profile: Profile, recent: inout [String]
    ) -> [String: Message] {
        MessageCatalog.standard.translated(profile.translation).messages(
            for: unlocks, subjects: engine.achievements.subjects, clock: engine.streaks.clock,
            zone: zone(of: engine, profile: profile), recentTemplateIDs: &recent)
    }
}
