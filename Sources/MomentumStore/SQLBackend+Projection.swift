import Foundation
import MomentumCore

extension SQLBackend {
    /// Implements ``MomentumStore`` `append`; see the protocol for its contract.
    public func append(
        _ events: [Event], for user: String, receivedAt: Date, device: String? = nil
    )
        async throws(StoreError) -> AppendResult
    {
        try await run(AppendPrograms.append(events, for: user, receivedAt: receivedAt, device: device, cache: engines))
    }

    /// Appends like ``EventStore/append(_:for:receivedAt:device:)``, with the engine work
    /// done outside the write transaction.
    ///
    /// The events are applied to the user's cached engine (or, on a miss, to one replayed
    /// from a read snapshot) with no transaction open; then a short write checks that the
    /// user's projection version is still the one the work was computed against and runs
    /// the prepared statements. For a database with a single writer
    /// (SQLite), the engine work of many users then runs in parallel while the writer only
    /// writes. On PostgreSQL the check and the statements are one statement that commits on
    /// its own (``SQLBackend/writeAlone(_:)``), when the statements allow it. If another writer changed the user in between (another process, or a
    /// celebration or profile write), the append runs again the ordinary way, inside the
    /// transaction, so the outcome is the same either way.
    ///
    /// - Parameters:
    ///   - events: The events, in the order to apply them.
    ///   - user: The user whose log they join.
    ///   - receivedAt: When the server received them (the engine's "now").
    ///   - device: The device that sent them, if known.
    ///   - locks: Serializes this process's appends of one user (so that they do not
    ///     prepare against the same version).
    /// - Returns: What the append did, as ``EventStore/append(_:for:receivedAt:device:)``
    ///   reports it.
    public func appendPreparingOutside(
        _ events: [Event], for user: String, receivedAt: Date, device: String?, locks: UserLocks
    ) async throws(StoreError) -> AppendResult {
        let cache = engines
        return try await locks.withLock(user) { () async throws(StoreError) -> AppendResult in
            let ordinary = AppendPrograms.append(
                events, for: user, receivedAt: receivedAt, device: device, cache: cache)
            let work: AppendPrograms.Work
            var verified = true
            if let cached = cache.takeLatest(user) {
                cache.countHit()
                // A committed engine, at whatever version: the write checks it against the
                // stored one, so a warm user's append reads nothing before its write.
                verified = false
                work = try AppendPrograms.work(
                    events.map(StoreJSON.canonical), for: user, now: StoreJSON.canonical(receivedAt), device: device,
                    rebuilt: !cached.projected, entry: cached, cache: cache)
            } else {
                work = try await run(
                    AppendPrograms.prepare(events, for: user, receivedAt: receivedAt, device: device, cache: cache))
            }
            switch work {
            case .done(let result) where verified:
                return result
            case .done(let result):
                // Nothing to write, so no write checked the engine: check its version now
                // (another process may have stored what these events needed).
                if try await run(AppendPrograms.storedVersion(of: user)) == result.version {
                    return result
                }
                cache.forget(user)
                cache.count(\.fellBack)
                return try await confirmed(run(ordinary), cache: cache, user: user)
            case .write(let prepared):
                if dialect == .postgres, let guarded = AppendPrograms.guardedWrite(prepared, for: user) {
                    // Any failure (a deadlock the database broke, a lost connection) leaves
                    // nothing written: the append then runs the ordinary way, which retries
                    // what can be retried and reports what cannot.
                    if (try? await writeGuarded(guarded)) == true {
                        let result = try AppendPrograms.finishGuarded(
                            prepared, for: user, receivedAt: receivedAt, cache: cache)
                        cache.count(\.oneStatement)
                        return confirmed(result, cache: cache, user: user)
                    }
                    cache.forget(user)
                    cache.count(\.fellBack)
                    return try await confirmed(run(ordinary), cache: cache, user: user)
                }
                if let result = try await run(
                    AppendPrograms.commit(prepared, for: user, receivedAt: receivedAt, cache: cache))
                {
                    cache.count(\.checkedTransaction)
                    return confirmed(result, cache: cache, user: user)
                }
                cache.count(\.fellBack)
                return try await confirmed(run(ordinary), cache: cache, user: user)
            }
        }
    }

    /// Marks the engine an append left in the cache as committed (it was cached before its
    /// transaction committed), so that the next append may take it without a read.
    private func confirmed(_ result: AppendResult, cache: EngineCache, user: String) -> AppendResult {
        cache.confirm(user, version: result.version)
        return result
    }

    /// Implements ``MomentumStore`` `events`; see the protocol for its contract.
    public func events(of user: String, after seq: Int64, limit: Int) async throws(StoreError) -> [StoredEvent] {
        guard limit > 0 else { return [] }
        return try await storedEvents(
            SQLStatement(
                "SELECT seq, body, received_at, device FROM events WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                [.text(user), .integer(seq), .int(limit)]))
    }

    /// Implements ``MomentumStore`` `latestEvents`; see the protocol for its contract.
    public func latestEvents(of user: String, limit: Int) async throws(StoreError) -> [StoredEvent] {
        guard limit > 0 else { return [] }
        return try await storedEvents(
            SQLStatement(
                "SELECT seq, body, received_at, device FROM events WHERE user_id = ? ORDER BY seq DESC LIMIT ?",
                [.text(user), .int(min(limit, 1_000))]))
    }

    private func storedEvents(_ statement: SQLStatement) async throws(StoreError) -> [StoredEvent] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in
                    // An event stored before today's limits (EventLimits) that they refuse
                    // counts for nothing (see EngineLoader) and is left out here too.
                    var events: [StoredEvent] = []
                    for row in rows {
                        guard let event = try? StoreJSON.decode(Event.self, try row.text(1, "body"), "event")
                        else { continue }
                        events.append(
                            StoredEvent(
                                seq: try row.int(0, "seq"), event: event,
                                receivedAt: try row.date(2, "received_at"), device: row.optionalText(3)))
                    }
                    return .done(events)
                }
            })
    }

    /// Implements ``MomentumStore`` `evaluate`; see the protocol for its contract.
    public func evaluate<Result: Sendable>(
        _ user: String, _ body: @escaping @Sendable (inout MomentumUser, Profile) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result {
        try await evaluateWithVersion(user) { engine, profile, _ throws(StoreError) in try body(&engine, profile) }
    }

    /// Implements ``MomentumStore`` `evaluateWithVersion`; see the protocol for its contract.
    public func evaluateWithVersion<Result: Sendable>(
        _ user: String, _ body: @escaping @Sendable (inout MomentumUser, Profile, Int64) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result {
        let cache = engines
        // A cold load (the engine replayed from the log) may be served by a replica.
        return try await ReplicaReads.allowing { () throws(StoreError) in
            try await evaluatingWithVersion(user, cache: cache, body)
        }
    }

    private func evaluatingWithVersion<Result: Sendable>(
        _ user: String, cache: EngineCache,
        _ body: @escaping @Sendable (inout MomentumUser, Profile, Int64) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                let slot = Slot<EngineEntry?>(nil)
                return EngineLoader.load(user, cache: cache, into: slot, peek: true) { rebuilt throws(StoreError) in
                    guard let entry = slot.value else { throw .corrupt("engine missing") }
                    if rebuilt {
                        var offered = entry
                        offered.projected = false
                        cache.offer(user, offered)
                    }
                    var engine = entry.user
                    return .done(try body(&engine, entry.profile, entry.version))
                }
            })
    }

    /// Implements ``MomentumStore`` `evaluate(_:after:_:)`; see the protocol for its contract.
    public func evaluate<Result: Sendable>(
        _ user: String, after version: Int64,
        _ body: @escaping @Sendable (inout MomentumUser, Profile) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result {
        // Only an append's committed version is ever asked for, so an entry at exactly that
        // version is the state the append committed (a later writer bumps the version).
        if let entry = engines.peek(user, version: version) {
            engines.countHit()
            var engine = entry.user
            return try body(&engine, entry.profile)
        }
        return try await evaluate(user, body)
    }

    /// Implements ``MomentumStore`` `projection`; see the protocol for its contract.
    public func projection(of user: String) async throws(StoreError) -> UserProjection {
        try await run(ProjectionReader.projection(of: user, form: storedForm))
    }

    /// Implements ``MomentumStore`` `updateMemory`; see the protocol for its contract.
    @discardableResult
    public func updateMemory(
        of user: String, id: String, note: String?, photo: MemoryPhoto?
    ) async throws(StoreError)
        -> Memory
    {
        if let note, note.count > 2_000 { throw StoreError(.invalidInput, "a note may have at most 2,000 characters") }
        let form = storedForm
        return try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .lock(user) { () throws(StoreError) in
                    .execute([
                        SQLStatement(
                            "UPDATE memories SET note = ?, photo = ?, share_photo = ? WHERE user_id = ? AND memory_id = ?",
                            [
                                .optional(note), .optional(photo?.original), .optional(photo?.shareCopy), .text(user),
                                .text(id),
                            ])
                    ]) { counts throws(StoreError) in
                        guard counts[0] == 1 else { throw StoreError(.notFound, "no memory '\(id)'") }
                        return .query(
                            SQLStatement(
                                "\(ProjectionReader.memoryColumns) WHERE user_id = ? AND memory_id = ?",
                                [.text(user), .text(id)])
                        ) { rows throws(StoreError) in
                            guard let row = rows.first else { throw StoreError(.notFound, "no memory '\(id)'") }
                            return .done(try ProjectionReader.memory(from: row, form: form))
                        }
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `updateCelebrations`; see the protocol for its contract.
    public func updateCelebrations<Result: Sendable>(
        of user: String, now: Date, _ change: @escaping @Sendable (inout CelebrationPlanner) -> Result
    ) async throws(StoreError) -> Result {
        let cache = engines
        return try await run(
            StoreProgram(writes: true, user: user, rollback: { cache.forget(user) }) { () throws(StoreError) in
                .lock(user) { () throws(StoreError) in
                    .query([
                        SQLStatement("SELECT planner FROM celebration_planners WHERE user_id = ?", [.text(user)]),
                        SQLStatement(
                            "SELECT time_zone, day_start_hour, preferences FROM profiles WHERE user_id = ?",
                            [.text(user)]),
                    ]) { results throws(StoreError) in
                        guard let profile = results[1].first else {
                            throw StoreError(.notFound, "no account '\(user)'")
                        }
                        var planner: CelebrationPlanner
                        let form = cache.storedForm
                        if let text = results[0].first?[0].string {
                            planner = try StoreJSON.decode(
                                CelebrationPlanner.self, text, "celebration planner", form.celebrationPlanner)
                        } else {
                            planner = CelebrationPlanner(
                                preferences: try StoreJSON.decode(
                                    CelebrationPreferences.self, try profile.text(2, "preferences"), "preferences",
                                    form.preferences),
                                zone: ZoneOffsetTable.named(try profile.text(0, "time_zone")) ?? .utc,
                                clock: DayClock(dayStartHour: Int(try profile.int(1, "day_start_hour"))))
                        }
                        let value = change(&planner)
                        // The cached engine holds a copy of the planner: drop it, and move the
                        // user's version on, so that an append prepared outside the writer
                        // with the old planner falls back instead of writing it over this one.
                        cache.forget(user)
                        return .execute([
                            try AppendPrograms.savePlanner(planner, user: user, now: now, form: form),
                            SQLStatement(
                                "UPDATE user_heads SET version = version + 1 WHERE user_id = ?", [.text(user)]),
                        ]) { _ throws(StoreError) in .done(value) }
                    }
                }
            })
    }
}

/// Reads a user's projections back into Momentum's types.
enum ProjectionReader {
    static let memoryColumns = "SELECT body, note, photo, share_photo FROM memories"

    static func memory(from row: SQLRow, form: StoredForm) throws(StoreError) -> Memory {
        var memory = try StoreJSON.decode(Memory.self, try row.text(0, "body"), "memory", form.memory)
        memory.note = row.optionalText(1)
        if let original = row.optionalText(2) {
            do throws(MomentumError) {
                memory.photo = try MemoryPhoto(original: original, shareCopy: row.optionalText(3))
            } catch {
                throw .corrupt("memory photo: \(error.message)")
            }
        } else {
            memory.photo = nil
        }
        return memory
    }

    static func projection(of user: String, form: StoredForm) -> StoreProgram<UserProjection> {
        let u = SQLValue.text(user)
        return StoreProgram(writes: false) { () throws(StoreError) in
            .query([
                SQLStatement(
                    "SELECT head_seq, version, evaluated_at, diamonds, freezes FROM user_heads WHERE user_id = ?", [u]),
                SQLStatement("SELECT state FROM habits WHERE user_id = ? ORDER BY ordinal", [u]),
                SQLStatement("SELECT body FROM ledger WHERE user_id = ? ORDER BY position", [u]),
                SQLStatement("SELECT body FROM unlocks WHERE user_id = ? ORDER BY achieved_at, unlock_id", [u]),
                SQLStatement("\(memoryColumns) WHERE user_id = ? ORDER BY day, memory_id", [u]),
                SQLStatement("SELECT body FROM subjects WHERE user_id = ? ORDER BY subject_id", [u]),
                SQLStatement(
                    "SELECT method_id, body FROM progression WHERE user_id = ? ORDER BY method_id, position", [u]),
                SQLStatement("SELECT planner FROM celebration_planners WHERE user_id = ?", [u]),
            ]) { r throws(StoreError) in
                guard let head = r[0].first else { throw StoreError(.notFound, "no account '\(user)'") }
                func bodies<T: Decodable>(
                    _ rows: [SQLRow], _ type: T.Type, _ what: String, _ renames: JSONKeyRenames
                ) throws(StoreError) -> [T] {
                    try rows.map { row throws(StoreError) in
                        try StoreJSON.decode(type, try row.text(0, what), what, renames)
                    }
                }
                var progression: [String: [ProgressionTimelineItem]] = [:]
                for row in r[6] {
                    progression[try row.text(0, "method_id"), default: []].append(
                        try StoreJSON.decode(
                            ProgressionTimelineItem.self, try row.text(1, "body"), "progression", form.progressionItem))
                }
                return .done(
                    UserProjection(
                        headSeq: try head.int(0, "head_seq"), version: try head.int(1, "version"),
                        evaluatedAt: try head.date(2, "evaluated_at"),
                        wallet: Wallet(
                            diamonds: Int(try head.int(3, "diamonds")), freezes: Int(try head.int(4, "freezes"))),
                        habits: try bodies(r[1], HabitState.self, "habit state", form.habitState),
                        ledger: try bodies(r[2], LedgerEntry.self, "ledger entry", form.ledgerEntry),
                        unlocks: try bodies(r[3], Unlock.self, "unlock", form.unlock),
                        memories: try r[4].map { row throws(StoreError) in try memory(from: row, form: form) },
                        subjects: try bodies(r[5], Subject.self, "subject", form.subject),
                        progression: progression,
                        celebrations: try r[7].first.map { row throws(StoreError) in
                            try StoreJSON.decode(
                                CelebrationPlanner.self, try row.text(0, "planner"), "planner", form.celebrationPlanner)
                        }))
            }
        }
    }
}
