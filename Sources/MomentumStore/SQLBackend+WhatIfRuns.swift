import Foundation

extension SQLBackend {
    static var whatIfColumns: String {
        """
        SELECT id, pack, version, sample, status, done, total, report, cursor, lease_until, started_by, started_at,
        finished_at FROM what_if_runs
        """
    }

    /// Implements ``MomentumStore`` `startWhatIfRun`; see the protocol for its contract.
    public func startWhatIfRun(_ new: WhatIfRun) async throws(StoreError) -> (run: WhatIfRun, started: Bool) {
        guard (1...64).contains(new.id.utf8.count), (1...64).contains(new.pack.utf8.count),
            (1...64).contains(new.version.utf8.count), !new.startedBy.isEmpty
        else {
            throw StoreError(.invalidInput, "a what-if run needs an id, a pack, a version and who started it")
        }
        var prepared = new
        prepared.status = .running
        prepared.startedAt = StoreJSON.canonical(new.startedAt)
        prepared.leaseUntil = new.leaseUntil.map(StoreJSON.canonical)
        let stored = prepared
        let running = SQLStatement(
            "\(Self.whatIfColumns) WHERE pack = ? AND version = ? AND status = 'running' ORDER BY started_at LIMIT 1",
            [.text(stored.pack), .text(stored.version)])
        let insert = SQLStatement(
            """
            INSERT INTO what_if_runs (id, pack, version, sample, status, done, total, report, cursor, lease_until,
            started_by, started_at, finished_at) VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, NULL)
            """,
            [
                .text(stored.id), .text(stored.pack), .text(stored.version), .text(stored.sample), .int(stored.done),
                .int(stored.total), .optional(stored.report), .optional(stored.cursor),
                stored.leaseUntil.map(SQLValue.date) ?? .null, .text(stored.startedBy), .date(stored.startedAt),
            ])
        return try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                // Two starts of one version at once: the second waits here, then finds the
                // first one's run.
                .lock("what-if:\(stored.pack)\n\(stored.version)") { () throws(StoreError) in
                    .query([running]) { rows throws(StoreError) in
                        if let row = rows[0].first { return .done((try WhatIfPrograms.run(from: row), false)) }
                        return .execute([insert]) { _ throws(StoreError) in .done((stored, true)) }
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `whatIfRun`; see the protocol for its contract.
    public func whatIfRun(id: String) async throws(StoreError) -> WhatIfRun? {
        try await whatIfRuns(SQLStatement("\(Self.whatIfColumns) WHERE id = ?", [.text(id)])).first
    }

    /// Implements ``MomentumStore`` `whatIfRuns`; see the protocol for its contract.
    public func whatIfRuns(pack: String, version: String, limit: Int) async throws(StoreError) -> [WhatIfRun] {
        try await whatIfRuns(
            SQLStatement(
                "\(Self.whatIfColumns) WHERE pack = ? AND version = ? ORDER BY started_at DESC, id LIMIT ?",
                [.text(pack), .text(version), .int(max(0, min(limit, 1_000)))]))
    }

    /// Implements ``MomentumStore`` `recordWhatIfProgress`; see the protocol for its contract.
    public func recordWhatIfProgress(
        id: String, done: Int, total: Int, cursor: String?, report: String?, leaseUntil: Date
    ) async throws(StoreError) -> Bool {
        let changed = try await write(
            nil,
            SQLStatement(
                """
                UPDATE what_if_runs SET done = ?, total = ?, cursor = ?, report = ?, lease_until = ?
                WHERE id = ? AND status = 'running'
                """,
                [
                    .int(done), .int(total), .optional(cursor), .optional(report),
                    .date(StoreJSON.canonical(leaseUntil)), .text(id),
                ]))
        return changed == 1
    }

    /// Implements ``MomentumStore`` `finishWhatIfRun`; see the protocol for its contract.
    public func finishWhatIfRun(
        id: String, status: WhatIfRun.Status, report: String?, at instant: Date
    ) async throws(StoreError) -> Bool {
        guard status != .running else { throw StoreError(.invalidInput, "a run finishes done, cancelled or failed") }
        let changed = try await write(
            nil,
            SQLStatement(
                """
                UPDATE what_if_runs SET status = ?, report = COALESCE(?, report), finished_at = ?, lease_until = NULL
                WHERE id = ? AND status = 'running'
                """,
                [.text(status.rawValue), .optional(report), .date(StoreJSON.canonical(instant)), .text(id)]))
        return changed == 1
    }

    /// Implements ``MomentumStore`` `cancelWhatIfRun`; see the protocol for its contract.
    public func cancelWhatIfRun(id: String, at instant: Date) async throws(StoreError) -> WhatIfRun? {
        _ = try await finishWhatIfRun(id: id, status: .cancelled, report: nil, at: instant)
        return try await whatIfRun(id: id)
    }

    /// Implements ``MomentumStore`` `claimStaleWhatIfRun`; see the protocol for its contract.
    ///
    /// One `UPDATE … RETURNING` whose outer condition repeats the lease's: of two instances
    /// at once, the second finds the lease taken when its update reaches the row.
    public func claimStaleWhatIfRun(now: Date, leaseUntil: Date) async throws(StoreError) -> WhatIfRun? {
        let rows = try await writeAlone(
            SQLStatement(
                """
                UPDATE what_if_runs SET lease_until = ?
                WHERE id = (SELECT id FROM what_if_runs WHERE status = 'running' AND (lease_until IS NULL OR lease_until < ?)
                ORDER BY started_at LIMIT 1) AND status = 'running' AND (lease_until IS NULL OR lease_until < ?)
                RETURNING id
                """,
                [.date(StoreJSON.canonical(leaseUntil)), .date(now), .date(now)]))
        guard let row = rows.first else { return nil }
        return try await whatIfRun(id: try row.text(0, "id"))
    }

    /// Implements ``MomentumStore`` `packUsers(after:limit:)`; see the protocol for its contract.
    public func packUsers(after user: String?, limit: Int) async throws(StoreError) -> [PackUser] {
        try await packUsers(
            SQLStatement(
                "SELECT user_id, pack FROM profiles WHERE user_id > ? ORDER BY user_id LIMIT ?",
                [.text(user ?? ""), .int(max(0, min(limit, 10_000)))]))
    }

    /// Implements ``MomentumStore`` `packUsers(_:)`; see the protocol for its contract.
    public func packUsers(_ users: [String]) async throws(StoreError) -> [PackUser] {
        guard !users.isEmpty else { return [] }
        guard users.count <= 10_000 else { throw StoreError(.invalidInput, "at most 10,000 users at once") }
        let marks = Array(repeating: "?", count: users.count).joined(separator: ", ")
        return try await packUsers(
            SQLStatement(
                "SELECT user_id, pack FROM profiles WHERE user_id IN (\(marks)) ORDER BY user_id",
                users.map(SQLValue.text)))
    }

    private func packUsers(_ statement: SQLStatement) async throws(StoreError) -> [PackUser] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in
                    .done(
                        try rows.map { row throws(StoreError) in
                            PackUser(user: try row.text(0, "user_id"), pack: try row.text(1, "pack"))
                        })
                }
            })
    }

    private func whatIfRuns(_ statement: SQLStatement) async throws(StoreError) -> [WhatIfRun] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in .done(try rows.map(WhatIfPrograms.run(from:))) }
            })
    }
}

/// Row decoders for what-if runs.
enum WhatIfPrograms {
    static func run(from row: SQLRow) throws(StoreError) -> WhatIfRun {
        let status = try row.text(4, "status")
        guard let known = WhatIfRun.Status(rawValue: status) else {
            throw .corrupt("what_if_runs.status '\(status)' is not a status")
        }
        return WhatIfRun(
            id: try row.text(0, "id"), pack: try row.text(1, "pack"), version: try row.text(2, "version"),
            sample: try row.text(3, "sample"), status: known, done: Int(try row.int(5, "done")),
            total: Int(try row.int(6, "total")), report: row.optionalText(7), cursor: row.optionalText(8),
            leaseUntil: row.optionalDate(9), startedBy: try row.text(10, "started_by"),
            startedAt: try row.date(11, "started_at"), finishedAt: row.optionalDate(12))
    }
}
