import Foundation
import MomentumCore
import Synchronization

/// The programs that change a user's log or the settings it is evaluated with, and bring
/// the projections along in the same transaction.
enum AppendPrograms {
    /// The engine work of an append, done: what to write, or the answer when there is
    /// nothing to write.
    enum Work: Sendable {
        /// Nothing changed (duplicates or refusals only); the engine is back in the cache.
        case done(AppendResult)
        /// The statements to run, and the engine as it will be once they are committed.
        case write(Prepared)
    }

    /// An append's statements, computed against one stored projection version.
    struct Prepared: Sendable {
        /// The stored version the work was computed against.
        var version: Int64
        /// The engine after the events (its version is bumped when the write commits).
        var entry: EngineEntry
        /// The event inserts, then the projection statements.
        var statements: [SQLStatement]
        var eventCount: Int
        var output: ProjectionWriter.Output
        var outcomes: [EventOutcome]
    }

    /// Applies `events` to `entry` (taken out of the cache at the stored version) and
    /// works out the statements that store them.
    static func work(
        _ events: [Event], for user: String, now: Date, device: String?, rebuilt: Bool, entry current: EngineEntry,
        cache: EngineCache
    ) throws(StoreError) -> Work {
        var current = current
        var outcomes: [EventOutcome] = []
        var unlocks: [Unlock] = []
        var inserts: [SQLStatement] = []
        var seq = current.headSeq
        var stagesChanged = false
        // The engine work the request's events cause together (each far-back event rewinds
        // again), bounded so that no request holds a core for long.
        var spent = 0
        for event in events {
            let result: MomentumCore.AppendResult
            let granted: [Unlock]
            do throws(MomentumError) {
                // A retry of a stored event costs nothing (it is a duplicate).
                let cost =
                    current.user.streaks.event(id: event.id) == nil ? current.user.streaks.evaluationCost(of: event) : 0
                if cost > 0 {
                    let (total, overflow) = spent.addingReportingOverflow(cost)
                    guard !overflow, total <= EventLimits.requestEvaluationBudget else {
                        throw MomentumError(
                            .limitExceeded,
                            "the events of this request before this one already re-evaluate "
                                + "\(spent) habit-days of history; send this one in another request "
                                + "(at most \(EventLimits.requestEvaluationBudget) a request)",
                            field: "at")
                    }
                    spent = total
                }
                (result, granted) = try current.user.append(event, now: now, detectedAt: now)
            } catch {
                outcomes.append(EventOutcome(id: event.id, status: .invalid(error)))
                continue
            }
            switch result {
            case .applied:
                seq += 1
                inserts.append(try insertEvent(event, user: user, seq: seq, receivedAt: now, device: device))
                outcomes.append(EventOutcome(id: event.id, status: .applied(seq: seq)))
                unlocks += granted
                if case .stage = event.payload { stagesChanged = true }
            case .duplicate:
                outcomes.append(EventOutcome(id: event.id, status: .duplicate))
            case .rejected(let error):
                outcomes.append(EventOutcome(id: event.id, status: .rejected(error)))
            }
        }
        if inserts.isEmpty, !rebuilt {
            // Back in the cache, unless a writer cached a newer engine meanwhile.
            cache.offer(user, current)
            return .done(
                AppendResult(
                    outcomes: outcomes, unlocks: [], headSeq: current.headSeq, wallet: current.wallet,
                    version: current.version))
        }
        unlocks += current.user.advance(to: now)
        let output = try ProjectionWriter(user: user, now: now, form: cache.storedForm).statements(
            for: &current, rewrite: rebuilt, newUnlocks: unlocks, stagesChanged: stagesChanged, headSeq: seq)
        current.headSeq = seq
        return .write(
            Prepared(
                version: current.version, entry: current, statements: inserts + output.statements,
                eventCount: inserts.count, output: output, outcomes: outcomes))
    }

    /// Runs a prepared append's statements, then finishes it (queues new unlocks for
    /// celebration, caches the engine).
    static func write(
        _ prepared: Prepared, for user: String, now: Date, slot: Slot<EngineEntry?>, cache: EngineCache
    ) -> StoreStep<AppendResult> {
        slot.value = prepared.entry
        let outcomes = prepared.outcomes
        let habits = prepared.output.habitJSON
        let finish = finishing(user, slot: slot, cache: cache, output: prepared.output, now: now) { entry, stored in
            AppendResult(
                outcomes: outcomes, unlocks: stored, headSeq: entry.headSeq, wallet: entry.wallet,
                version: entry.version, habitJSON: habits)
        }
        let eventCount = prepared.eventCount
        return .execute(
            prepared.statements,
            { counts throws(StoreError) in
                try finish(Array(counts.dropFirst(eventCount)))
            })
    }

    /// Appends events in one write transaction: the engine work happens inside it.
    static func append(
        _ events: [Event], for user: String, receivedAt: Date, device: String?, cache: EngineCache
    ) -> StoreProgram<AppendResult> {
        let events = events.map(StoreJSON.canonical)
        let now = StoreJSON.canonical(receivedAt)
        return StoreProgram(writes: true, user: user, rollback: { cache.forget(user) }) { () throws(StoreError) in
            let slot = Slot<EngineEntry?>(nil)
            return .lock(user) { () throws(StoreError) in
                EngineLoader.load(user, cache: cache, into: slot) { rebuilt throws(StoreError) in
                    guard let current = slot.value else { throw .corrupt("engine missing") }
                    slot.value = nil
                    let done = try work(
                        events, for: user, now: now, device: device, rebuilt: rebuilt, entry: current, cache: cache)
                    switch done {
                    case .done(let result): return .done(result)
                    case .write(let prepared): return write(prepared, for: user, now: now, slot: slot, cache: cache)
                    }
                }
            }
        }
    }

    /// The first half of a two-phase append: the engine work, on a read snapshot, outside
    /// any write transaction. The caller serializes one user's appends, and hands the
    /// result to ``commit(_:for:receivedAt:cache:)``.
    static func prepare(
        _ events: [Event], for user: String, receivedAt: Date, device: String?, cache: EngineCache
    ) -> StoreProgram<Work> {
        let events = events.map(StoreJSON.canonical)
        let now = StoreJSON.canonical(receivedAt)
        return StoreProgram(writes: false, user: user) { () throws(StoreError) in
            let slot = Slot<EngineEntry?>(nil)
            return EngineLoader.load(user, cache: cache, into: slot) { rebuilt throws(StoreError) in
                guard let current = slot.value else { throw .corrupt("engine missing") }
                return .done(
                    try work(
                        events, for: user, now: now, device: device, rebuilt: rebuilt, entry: current, cache: cache))
            }
        }
    }

    /// The second half: a short write that runs the prepared statements if the user's
    /// projection version is still the one they were computed against; `nil` (nothing
    /// written, the cached engine dropped) if another writer got there first.
    static func commit(
        _ prepared: Prepared, for user: String, receivedAt: Date, cache: EngineCache
    ) -> StoreProgram<AppendResult?> {
        let now = StoreJSON.canonical(receivedAt)
        return StoreProgram(writes: true, user: user, rollback: { cache.forget(user) }) { () throws(StoreError) in
            let slot = Slot<EngineEntry?>(nil)
            return .lock(user) { () throws(StoreError) in
                .query(EngineLoader.versionOnly(user)) {
                    rows throws(StoreError) in
                    guard let row = rows.first, try row.int(0, "version") == prepared.version else {
                        cache.forget(user)
                        return .done(nil)
                    }
                    return try optional(write(prepared, for: user, now: now, slot: slot, cache: cache))
                }
            }
        }
    }

    /// A prepared append's whole write as one PostgreSQL statement, which commits on its
    /// own: one round trip instead of seven (BEGIN, the lock, the version check, three
    /// writes, COMMIT). `nil` when its statements cannot be combined safely; the append then
    /// runs ``commit(_:for:receivedAt:cache:)`` in a transaction.
    ///
    /// The statement is a chain of data-modifying `WITH` queries. The first updates the
    /// user's head only if the stored version is still the prepared one, after taking the
    /// user's transaction lock (the lock every other write of the user takes, so none runs
    /// in between; a write that committed while this one waited for the lock makes the
    /// version check fail, because PostgreSQL re-reads an updated row before changing it).
    /// Every other write is an `INSERT … SELECT … WHERE EXISTS (the head update)`, so it
    /// writes nothing when the check fails. The one row answered holds each query's count
    /// of written rows, the head update's first.
    ///
    /// Only plain inserts of distinct rows are combined (every query of the chain sees the
    /// database as it was before the statement, so a delete followed by an insert of the
    /// same key could not be), and no unlock inserts (whose counts decide what a further
    /// statement writes).
    static func singleStatement(_ statements: [SQLStatement], version: Int64, user: String) -> SQLStatement? {
        guard let head = statements.last else { return nil }
        let texts = statements.map(\.sql)
        let sql: String?
        if let known = combinedSQL.withLock({ $0[texts] }) {
            sql = known
        } else {
            sql = combine(texts)
            combinedSQL.withLock { shapes in
                if shapes.count >= maximumShapes { shapes.removeAll() }
                shapes[texts] = .some(sql)
            }
        }
        guard let sql else { return nil }
        var arguments = head.arguments + [.integer(version), .text(user)]
        for statement in statements.dropLast() { arguments += statement.arguments }
        return SQLStatement(sql, arguments)
    }

    /// A prepared append as a ``GuardedWrite``, unless it inserts unlocks (whose counts
    /// decide what a further statement writes) or its statements cannot be combined.
    static func guardedWrite(_ prepared: Prepared, for user: String) -> GuardedWrite? {
        guard prepared.output.unlockInserts.isEmpty else { return nil }
        return GuardedWrite(user: user, version: prepared.version, statements: prepared.statements)
    }

    /// The single statement of each shape of append seen (by the texts of its statements),
    /// or `nil` for a shape that cannot be one: the text depends on nothing else, and
    /// building it was a twentieth of a PostgreSQL check-in's time in the server.
    private static let combinedSQL = Mutex<[[String]: String?]>([:])
    /// The most shapes remembered (an append writes one of a few dozen); beyond it the
    /// memory starts over.
    private static let maximumShapes = 1_024

    /// The text of ``singleStatement(_:version:user:)`` for statements with these texts (the head
    /// update last), or `nil` when they cannot be combined.
    static func combine(_ texts: [String]) -> String? {
        guard let head = texts.last, head.hasPrefix(headUpdatePrefix), head.hasSuffix("WHERE user_id = ?") else {
            return nil
        }
        var queries = [
            "h AS (\(head) AND version = ? AND "
                + "(SELECT count(*) FROM pg_advisory_xact_lock(hashtextextended(?, 0))) = 1 RETURNING 1)"
        ]
        for (index, sql) in texts.dropLast().enumerated() {
            guard sql.hasPrefix("INSERT INTO "), let values = sql.range(of: "VALUES ("),
                let close = sql[values.upperBound...].firstIndex(of: ")"),
                !sql[values.upperBound..<close].contains("(")
            else { return nil }
            let guarded =
                sql[..<values.lowerBound] + "SELECT " + sql[values.upperBound..<close]
                + " WHERE EXISTS (SELECT 1 FROM h)" + sql[sql.index(after: close)...]
            queries.append("s\(index) AS (\(guarded) RETURNING 1)")
        }
        let counts = ["h"] + texts.dropLast().indices.map { "s\($0)" }
        return "WITH " + queries.joined(separator: ",\n") + "\nSELECT "
            + counts.map { "(SELECT count(*) FROM \($0))" }.joined(separator: ", ")
    }

    /// Finishes an append written as a ``GuardedWrite`` whose version check passed (so
    /// everything was written).
    static func finishGuarded(
        _ prepared: Prepared, for user: String, receivedAt: Date, cache: EngineCache
    ) throws(StoreError) -> AppendResult {
        // What each statement wrote only matters for unlock inserts, which a guarded write
        // never holds.
        let counts = Array(repeating: 1, count: prepared.statements.count)
        let slot = Slot<EngineEntry?>(nil)
        let step = write(prepared, for: user, now: StoreJSON.canonical(receivedAt), slot: slot, cache: cache)
        guard case .execute(_, let next) = step, case .done(let result) = try next(counts) else {
            throw .corrupt("a guarded append asked for more statements")
        }
        return result
    }

    /// How the head update every append ends with begins.
    static let headUpdatePrefix = "UPDATE user_heads SET version = version + 1,"

    /// The user's stored projection version.
    static func storedVersion(of user: String) -> StoreProgram<Int64> {
        StoreProgram(writes: false) { () throws(StoreError) in
            .query(EngineLoader.versionOnly(user)) {
                rows throws(StoreError) in
                guard let row = rows.first else { throw StoreError(.notFound, "no account '\(user)'") }
                return .done(try row.int(0, "version"))
            }
        }
    }

    /// The same steps, with an optional result.
    private static func optional<R: Sendable>(_ step: StoreStep<R>) throws(StoreError) -> StoreStep<R?> {
        switch step {
        case .done(let value): return .done(value)
        case .lock(let name, let next): return .lock(name) { () throws(StoreError) in try optional(try next()) }
        case .query(let statements, let next):
            return .query(statements) { rows throws(StoreError) in try optional(try next(rows)) }
        case .execute(let statements, let next):
            return .execute(statements) { counts throws(StoreError) in try optional(try next(counts)) }
        }
    }

    /// Rewrites a user's projections with a new profile (a different pack or day start
    /// changes what the log means).
    static func updateProfile(_ profile: Profile, for user: String, cache: EngineCache) -> StoreProgram<Bool> {
        StoreProgram(writes: true, user: user, rollback: { cache.forget(user) }) { () throws(StoreError) in
            let slot = Slot<EngineEntry?>(nil)
            return .lock(user) { () throws(StoreError) in
                .execute([try AccountPrograms.insertProfile(profile, for: user, form: cache.storedForm)]) {
                    _ throws(StoreError) in
                    EngineLoader.load(user, cache: cache, into: slot, profile: profile) { _ throws(StoreError) in
                        try slot.with { (entry: inout EngineEntry?) throws(StoreError) -> StoreStep<Bool> in
                            guard var current = entry.take() else { throw .corrupt("engine missing") }
                            let now = StoreJSON.canonical(profile.updatedAt)
                            let output = try ProjectionWriter(user: user, now: now, form: cache.storedForm).statements(
                                for: &current, rewrite: true, newUnlocks: [], stagesChanged: true,
                                headSeq: current.headSeq)
                            entry = current
                            let finish = finishing(user, slot: slot, cache: cache, output: output, now: now) { _, _ in
                                true
                            }
                            let statements =
                                try output.statements + [
                                    savePlanner(current.planner, user: user, now: now, form: cache.storedForm)
                                ]
                            return .execute(statements, { counts throws(StoreError) in try finish(counts) })
                        }
                    }
                }
            }
        }
    }

    /// After the projection statements ran: queues the unlocks that were new for
    /// celebration, stores the planner, and puts the engine back in the cache.
    static func finishing<R: Sendable>(
        _ user: String, slot: Slot<EngineEntry?>, cache: EngineCache, output: ProjectionWriter.Output, now: Date,
        _ result: @escaping @Sendable (EngineEntry, [Unlock]) -> R
    ) -> @Sendable ([Int]) throws(StoreError) -> StoreStep<R> {
        let inserts = output.unlockInserts.map { (unlock: $0.unlock, statement: $0.statement) }
        return { counts throws(StoreError) in
            try slot.with { (entry: inout EngineEntry?) throws(StoreError) -> StoreStep<R> in
                guard var current = entry.take() else { throw .corrupt("engine missing") }
                let stored = inserts.filter { counts[$0.statement] > 0 }.map(\.unlock)
                current.version += 1
                // Not committed yet: the caller confirms it once the transaction is.
                current.committed = false
                var statements: [SQLStatement] = []
                if !stored.isEmpty {
                    let messages = Messages.messages(
                        for: stored, engine: current.user, profile: current.profile, recent: &current.recentTemplates)
                    current.planner.zone = Messages.zone(of: current.user, profile: current.profile)
                    current.planner.enqueue(stored, messages: messages.mapValues(\.text), at: now)
                    statements.append(try savePlanner(current.planner, user: user, now: now, form: cache.storedForm))
                }
                cache.put(user, current)
                let value = result(current, stored)
                return try .then(statements) { () throws(StoreError) in .done(value) }
            }
        }
    }

    static func savePlanner(
        _ planner: CelebrationPlanner, user: String, now: Date, form: StoredForm
    ) throws(StoreError) -> SQLStatement {
        SQLStatement(
            """
            INSERT INTO celebration_planners (user_id, planner, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET planner = excluded.planner, updated_at = excluded.updated_at
            """, [.text(user), .text(try StoreJSON.encode(planner, form.celebrationPlanner)), .date(now)])
    }

    static func insertEvent(
        _ event: Event, user: String, seq: Int64, receivedAt: Date, device: String?
    ) throws(StoreError) -> SQLStatement {
        SQLStatement(
            """
            INSERT INTO events (user_id, seq, event_id, type, at, time_zone, body, received_at, device)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(user), .integer(seq), .text(event.id), .text(event.payload.type), .date(event.at),
                .text(event.timeZone), .text(try StoreJSON.encode(event)), .date(receivedAt), .optional(device),
            ])
    }
}
