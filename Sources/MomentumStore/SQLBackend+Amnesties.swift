import Foundation

extension SQLBackend {
    static var amnestyColumns: String {
        """
        SELECT id, start_at, end_at, reason, declared_by, declared_at, lifted_by, lifted_at, status, users_done,
        users_total, cursor, lease_until FROM amnesties
        """
    }

    /// Implements ``MomentumStore`` `declareAmnesty`; see the protocol for its contract.
    public func declareAmnesty(_ amnesty: AmnestyRecord) async throws(StoreError) {
        guard (1...64).contains(amnesty.id.utf8.count), !amnesty.reason.isEmpty, !amnesty.declaredBy.isEmpty,
            amnesty.end > amnesty.start
        else {
            throw StoreError(.invalidInput, "an amnesty needs an id, a window, a reason and who declared it")
        }
        let changed = try await write(
            nil,
            SQLStatement(
                """
                INSERT INTO amnesties (id, start_at, end_at, reason, declared_by, declared_at, lifted_by, lifted_at,
                status, users_done, users_total, cursor, lease_until)
                VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """,
                [
                    .text(amnesty.id), .date(StoreJSON.canonical(amnesty.start)),
                    .date(StoreJSON.canonical(amnesty.end)), .text(amnesty.reason), .text(amnesty.declaredBy),
                    .date(StoreJSON.canonical(amnesty.declaredAt)), .text(amnesty.status.rawValue),
                    .int(amnesty.usersDone), .int(amnesty.usersTotal), .optional(amnesty.cursor),
                    amnesty.leaseUntil.map { SQLValue.date(StoreJSON.canonical($0)) } ?? .null,
                ]))
        guard changed == 1 else { throw StoreError(.invalidInput, "amnesty '\(amnesty.id)' already exists") }
    }

    /// Implements ``MomentumStore`` `amnesty(id:)`; see the protocol for its contract.
    public func amnesty(id: String) async throws(StoreError) -> AmnestyRecord? {
        try await amnesties(SQLStatement("\(Self.amnestyColumns) WHERE id = ?", [.text(id)])).first
    }

    /// Implements ``MomentumStore`` `amnesties(limit:)`; see the protocol for its contract.
    public func amnesties(limit: Int) async throws(StoreError) -> [AmnestyRecord] {
        try await amnesties(
            SQLStatement(
                "\(Self.amnestyColumns) ORDER BY declared_at DESC, id LIMIT ?", [.int(max(0, min(limit, 1_000)))]))
    }

    /// Implements ``MomentumStore`` `liftAmnesty`; see the protocol for its contract.
    public func liftAmnesty(
        id: String, by operatorID: String, at instant: Date, leaseUntil: Date
    ) async throws(StoreError) -> AmnestyRecord? {
        _ = try await write(
            nil,
            SQLStatement(
                """
                UPDATE amnesties SET status = 'lifting', lifted_by = ?, lifted_at = ?, users_done = 0, cursor = NULL,
                lease_until = ? WHERE id = ? AND status = 'active'
                """,
                [
                    .text(operatorID), .date(StoreJSON.canonical(instant)), .date(StoreJSON.canonical(leaseUntil)),
                    .text(id),
                ]))
        return try await amnesty(id: id)
    }

    /// Implements ``MomentumStore`` `recordAmnestyProgress`; see the protocol for its contract.
    public func recordAmnestyProgress(
        id: String, status: AmnestyRecord.Status, done: Int, total: Int, cursor: String?, leaseUntil: Date
    ) async throws(StoreError) -> Bool {
        let changed = try await write(
            nil,
            SQLStatement(
                """
                UPDATE amnesties SET users_done = ?, users_total = ?, cursor = ?, lease_until = ?
                WHERE id = ? AND status = ?
                """,
                [
                    .int(done), .int(total), .optional(cursor), .date(StoreJSON.canonical(leaseUntil)), .text(id),
                    .text(status.rawValue),
                ]))
        return changed == 1
    }

    /// Implements ``MomentumStore`` `finishAmnestyJob`; see the protocol for its contract.
    public func finishAmnestyJob(id: String, status: AmnestyRecord.Status) async throws(StoreError) -> Bool {
        let next: AmnestyRecord.Status
        switch status {
        case .declaring: next = .active
        case .lifting: next = .lifted
        case .active, .lifted: throw StoreError(.invalidInput, "only a declaring or lifting amnesty's job finishes")
        }
        let changed = try await write(
            nil,
            SQLStatement(
                "UPDATE amnesties SET status = ?, lease_until = NULL WHERE id = ? AND status = ?",
                [.text(next.rawValue), .text(id), .text(status.rawValue)]))
        return changed == 1
    }

    /// Implements ``MomentumStore`` `claimStaleAmnesty`; see the protocol for its contract.
    ///
    /// One `UPDATE … RETURNING` whose outer condition repeats the lease's: of two instances
    /// at once, the second finds the lease taken when its update reaches the row.
    public func claimStaleAmnesty(now: Date, leaseUntil: Date) async throws(StoreError) -> AmnestyRecord? {
        let rows = try await writeAlone(
            SQLStatement(
                """
                UPDATE amnesties SET lease_until = ?
                WHERE id = (SELECT id FROM amnesties WHERE status IN ('declaring', 'lifting')
                AND (lease_until IS NULL OR lease_until < ?) ORDER BY declared_at, id LIMIT 1)
                AND status IN ('declaring', 'lifting') AND (lease_until IS NULL OR lease_until < ?)
                RETURNING id
                """,
                [.date(StoreJSON.canonical(leaseUntil)), .date(now), .date(now)]))
        guard let row = rows.first else { return nil }
        return try await amnesty(id: try row.text(0, "id"))
    }

    /// Implements ``MomentumStore`` `amnestyUsers`; see the protocol for its contract.
    public func amnestyUsers(
        createdBefore: Date, after user: String?, limit: Int
    ) async throws(StoreError) -> [AmnestyUser] {
        let statement = SQLStatement(
            """
            SELECT a.user_id, COALESCE(p.time_zone, 'UTC') FROM accounts a
            LEFT JOIN profiles p ON p.user_id = a.user_id
            WHERE a.created_at < ? AND a.user_id > ? ORDER BY a.user_id LIMIT ?
            """,
            [.date(createdBefore), .text(user ?? ""), .int(max(0, min(limit, 10_000)))])
        return try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in
                    .done(
                        try rows.map { row throws(StoreError) in
                            AmnestyUser(user: try row.text(0, "user_id"), timeZone: try row.text(1, "time_zone"))
                        })
                }
            })
    }

    /// Implements ``MomentumStore`` `amnestyUserCount`; see the protocol for its contract.
    public func amnestyUserCount(createdBefore: Date) async throws(StoreError) -> Int {
        let statement = SQLStatement("SELECT COUNT(*) FROM accounts WHERE created_at < ?", [.date(createdBefore)])
        return try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in .done(Int(try rows.first?.int(0, "count") ?? 0)) }
            })
    }

    private func amnesties(_ statement: SQLStatement) async throws(StoreError) -> [AmnestyRecord] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in .done(try rows.map(AmnestyPrograms.amnesty(from:))) }
            })
    }
}

/// Row decoders for amnesties.
enum AmnestyPrograms {
    static func amnesty(from row: SQLRow) throws(StoreError) -> AmnestyRecord {
        let status = try row.text(8, "status")
        guard let known = AmnestyRecord.Status(rawValue: status) else {
            throw .corrupt("amnesties.status '\(status)' is not a status")
        }
        return AmnestyRecord(
            id: try row.text(0, "id"), start: try row.date(1, "start_at"), end: try row.date(2, "end_at"),
            reason: try row.text(3, "reason"), declaredBy: try row.text(4, "declared_by"),
            declaredAt: try row.date(5, "declared_at"), liftedBy: row.optionalText(6), liftedAt: row.optionalDate(7),
            status: known, usersDone: Int(try row.int(9, "users_done")),
            usersTotal: Int(try row.int(10, "users_total")),
            cursor: row.optionalText(11), leaseUntil: row.optionalDate(12))
    }
}
