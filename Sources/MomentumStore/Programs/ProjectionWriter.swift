import Foundation
import MomentumCore

/// Turns a user's engine into the statements that bring their projection rows up to date:
/// only what changed since the last write, or everything after a rebuild.
struct ProjectionWriter {
    let user: String
    let now: Date
    /// How the documents are named on disk.
    let form: StoredForm

    /// The statements, and for each unlock that may be new the index of its `INSERT`
    /// (which changes one row only if the unlock was not stored yet).
    struct Output {
        var statements: [SQLStatement] = []
        var unlockInserts: [(unlock: Unlock, statement: Int)] = []
        /// The JSON of each habit state written, by habit id, when it is also the domain's
        /// encoding (the stored form renames no field of a habit's state).
        var habitJSON: [String: String] = [:]
    }

    func statements(
        for entry: inout EngineEntry, rewrite: Bool, newUnlocks: [Unlock], stagesChanged: Bool, headSeq: Int64
    ) throws(StoreError) -> Output {
        var out = Output()
        let u = SQLValue.text(user)
        let state = entry.user.state(at: now, calendarDays: UserProjection.calendarDays)
        entry.projected = true

        if rewrite {
            for table in ["habits", "subjects", "ledger"] {
                out.statements.append(SQLStatement("DELETE FROM \(table) WHERE user_id = ?", [u]))
            }
            entry.habits = [:]
            entry.ledger = []
            entry.subjects = [:]
        }

        // Habits: every habit whose state changed.
        var present = Set<String>()
        for (ordinal, habit) in state.habits.enumerated() {
            let id = habit.definition.id
            present.insert(id)
            guard entry.habits[id] != habit else { continue }
            entry.habits[id] = habit
            let json = try StoreJSON.encode(habit, form.habitState)
            if form.habitState.isEmpty { out.habitJSON[id] = json }
            out.statements.append(
                SQLStatement(
                    """
                    INSERT INTO habits (user_id, habit_id, ordinal, name, archived, current_streak, best_streak, state)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (user_id, habit_id) DO UPDATE SET ordinal = excluded.ordinal, name = excluded.name,
                      archived = excluded.archived, current_streak = excluded.current_streak,
                      best_streak = excluded.best_streak, state = excluded.state
                    """,
                    [
                        u, .text(id), .int(ordinal), .text(habit.definition.name), .bool(habit.archivedDay != nil),
                        .int(habit.current), .int(habit.best), .text(json),
                    ]))
        }
        for id in entry.habits.keys where !present.contains(id) {
            entry.habits[id] = nil
            out.statements.append(
                SQLStatement("DELETE FROM habits WHERE user_id = ? AND habit_id = ?", [u, .text(id)]))
        }

        // Ledger: rewrite from the first entry that differs.
        let ledger = state.ledger
        var common = 0
        while common < min(ledger.count, entry.ledger.count), ledger[common] == entry.ledger[common] { common += 1 }
        if common < entry.ledger.count {
            out.statements.append(
                SQLStatement("DELETE FROM ledger WHERE user_id = ? AND position >= ?", [u, .int(common)]))
        }
        for position in common..<ledger.count {
            let item = ledger[position]
            out.statements.append(
                SQLStatement(
                    """
                    INSERT INTO ledger (user_id, position, day, source, diamonds, freezes, diamond_balance,
                      freeze_balance, reason, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        u, .int(position), .int(item.day.number), .text(item.source.rawValue), .int(item.diamonds),
                        .int(item.freezes), .int(item.diamondBalance), .int(item.freezeBalance), .text(item.reason),
                        .text(try StoreJSON.encode(item, form.ledgerEntry)),
                    ]))
        }
        entry.ledger = ledger

        // Subjects.
        for (id, subject) in entry.user.achievements.subjects where entry.subjects[id] != subject {
            entry.subjects[id] = subject
            out.statements.append(
                SQLStatement(
                    """
                    INSERT INTO subjects (user_id, subject_id, kind, name, body) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (user_id, subject_id) DO UPDATE SET kind = excluded.kind, name = excluded.name,
                      body = excluded.body
                    """,
                    [
                        u, .text(id), .text(subject.kind), .text(subject.name),
                        .text(try StoreJSON.encode(subject, form.subject)),
                    ])
            )
        }

        // Unlocks and their memories: never revoked, so only ever inserted.
        let table = Messages.zone(of: entry.user, profile: entry.profile)
        let subjects = entry.user.achievements.subjects
        for unlock in rewrite ? entry.user.unlocks : newUnlocks {
            out.unlockInserts.append((unlock, out.statements.count))
            out.statements.append(
                SQLStatement(
                    """
                    INSERT INTO unlocks (user_id, unlock_id, rule, title, category, tier, achieved_at, detected_at,
                      retroactive, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (user_id, unlock_id) DO NOTHING
                    """,
                    [
                        u, .text(unlock.id), .text(unlock.rule), .text(unlock.title), .text(unlock.category),
                        .int(unlock.tier.rawValue), .date(unlock.achievedAt), .date(unlock.detectedAt),
                        .bool(unlock.retroactive), .text(try StoreJSON.encode(unlock, form.unlock)),
                    ]))
            let offset = table.offset(at: unlock.achievedAt)
            if let memory = Memory(
                unlock: unlock, subject: unlock.subject.flatMap { subjects[$0] }, offsetSeconds: offset,
                translation: entry.profile.translation)
            {
                out.statements.append(
                    SQLStatement(
                        """
                        INSERT INTO memories (user_id, memory_id, unlock_id, day, category, caption, note, photo,
                          share_photo, body) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?)
                        ON CONFLICT (user_id, memory_id) DO NOTHING
                        """,
                        [
                            u, .text(memory.id), .text(unlock.id), .int(memory.day.number), .text(memory.category),
                            .text(memory.caption), .text(try StoreJSON.encode(memory, form.memory)),
                        ]))
            }
        }

        // Progression timelines, recomputed when a stage event arrives.
        if rewrite || stagesChanged {
            out.statements.append(SQLStatement("DELETE FROM progression WHERE user_id = ?", [u]))
            let timelines = entry.user.summary(at: now, preferences: entry.profile.preferences).progression.timelines
            for (method, items) in timelines.sorted(by: { $0.key < $1.key }) {
                for (position, item) in items.enumerated() {
                    out.statements.append(
                        SQLStatement(
                            "INSERT INTO progression (user_id, method_id, position, event_id, body) VALUES (?, ?, ?, ?, ?)",
                            [
                                u, .text(method), .int(position), .text(item.advance.eventID),
                                .text(try StoreJSON.encode(item, form.progressionItem)),
                            ]))
                }
            }
        }

        entry.wallet = state.wallet
        out.statements.append(
            SQLStatement(
                """
                UPDATE user_heads SET version = version + 1, head_seq = ?, diamonds = ?, freezes = ?, evaluated_at = ?
                WHERE user_id = ?
                """,
                [.integer(headSeq), .int(state.wallet.diamonds), .int(state.wallet.freezes), .date(now), u]))
        return out
    }
}
