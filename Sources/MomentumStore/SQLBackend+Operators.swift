import Foundation

extension SQLBackend {
    /// Implements ``MomentumStore`` `createOperator`; see the protocol for its contract.
    public func createOperator(_ record: OperatorRecord) async throws(StoreError) {
        let record = try OperatorPrograms.validated(record)
        let created = try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                .lock(OperatorPrograms.lock) { () throws(StoreError) in OperatorPrograms.insert(record) }
            })
        guard created else {
            throw StoreError(.userExists, "an operator with this id or email already exists")
        }
    }

    /// Implements ``MomentumStore`` `createFirstOwner`; see the protocol for its contract.
    public func createFirstOwner(_ record: OperatorRecord) async throws(StoreError) -> Bool {
        let record = try OperatorPrograms.validated(record)
        guard record.role == "owner" else { throw StoreError(.invalidInput, "the first operator is an owner") }
        let outcome: Bool? = try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                // Two bootstraps at once: the second waits here, then finds the first's owner.
                .lock(OperatorPrograms.lock) { () throws(StoreError) in
                    .query(SQLStatement("SELECT COUNT(*) FROM operators WHERE role = 'owner'", [])) {
                        rows throws(StoreError) in
                        guard try rows.first?.int(0, "count") ?? 0 == 0 else { return .done(false) }
                        return try OperatorPrograms.then(OperatorPrograms.insert(record)) { created in
                            .done(created ? true : nil)
                        }
                    }
                }
            })
        guard let outcome else {
            throw StoreError(.userExists, "an operator with this id or email already exists")
        }
        return outcome
    }

    /// Implements ``MomentumStore`` `operators`; see the protocol for its contract.
    public func operators() async throws(StoreError) -> [OperatorRecord] {
        try await readOperators(SQLStatement("\(OperatorPrograms.columns) ORDER BY created_at, operator_id", []))
    }

    /// Implements ``MomentumStore`` `operatorRecord(id:)`; see the protocol for its contract.
    public func operatorRecord(id: String) async throws(StoreError) -> OperatorRecord? {
        try await readOperators(SQLStatement("\(OperatorPrograms.columns) WHERE operator_id = ?", [.text(id)])).first
    }

    /// Implements ``MomentumStore`` `operatorRecord(email:)`; see the protocol for its contract.
    public func operatorRecord(email: String) async throws(StoreError) -> OperatorRecord? {
        let email = email.lowercased()
        // PostgreSQL cannot hold NUL in text: such an email is no operator's.
        guard !email.contains("\u{0}"), email.utf8.count <= 320 else { return nil }
        return try await readOperators(SQLStatement("\(OperatorPrograms.columns) WHERE email = ?", [.text(email)]))
            .first
    }

    /// Implements ``MomentumStore`` `updateOperator`; see the protocol for its contract.
    public func updateOperator(
        id: String, role: String?, disabledAt: Date??
    ) async throws(StoreError)
        -> OperatorChange
    {
        if let role, !OperatorPrograms.roles.contains(role) {
            throw StoreError(.invalidInput, "a role is owner, support or viewer")
        }
        let select = SQLStatement("\(OperatorPrograms.columns) WHERE operator_id = ?", [.text(id)])
        let owners = SQLStatement(
            "SELECT COUNT(*) FROM operators WHERE role = 'owner' AND disabled_at IS NULL AND operator_id <> ?",
            [.text(id)])
        return try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                // Changes of operators take one lock, so two owners demoting each other at
                // once cannot both pass the check below.
                .lock(OperatorPrograms.lock) { () throws(StoreError) in
                    .query([select, owners]) { rows throws(StoreError) in
                        guard let row = rows[0].first else { return .done(.notFound) }
                        var record = try OperatorPrograms.record(from: row)
                        let others = try rows[1].first?.int(0, "count") ?? 0
                        if let role { record.role = role }
                        if let disabledAt {
                            record.disabledAt = disabledAt.map { record.disabledAt ?? StoreJSON.canonical($0) }
                        }
                        if record.role != "owner" || record.disabledAt != nil, others == 0 {
                            // Leaving no enabled owner is refused only when this one was one.
                            let wasOwner = try OperatorPrograms.record(from: row)
                            if wasOwner.role == "owner", wasOwner.disabledAt == nil { return .done(.lastOwner) }
                        }
                        var statements = [
                            SQLStatement(
                                "UPDATE operators SET role = ?, disabled_at = ? WHERE operator_id = ?",
                                [.text(record.role), record.disabledAt.map(SQLValue.date) ?? .null, .text(id)])
                        ]
                        if record.disabledAt != nil {
                            statements.append(
                                SQLStatement("DELETE FROM operator_sessions WHERE operator_id = ?", [.text(id)]))
                        }
                        let changed = record
                        return .execute(statements) { _ throws(StoreError) in .done(.changed(changed)) }
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `createOperatorSession`; see the protocol for its contract.
    public func createOperatorSession(_ session: OperatorSessionRecord) async throws(StoreError) {
        guard (1...128).contains(session.tokenHash.utf8.count), (1...64).contains(session.operatorID.utf8.count),
            ["api", "console"].contains(session.kind), (1...128).contains(session.csrf.utf8.count)
        else {
            throw StoreError(.invalidInput, "an operator session needs a token hash, an operator, a kind and a csrf")
        }
        let insert = SQLStatement(
            """
            INSERT INTO operator_sessions (token_hash, operator_id, kind, csrf, created_at, expires_at, last_seen_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(session.tokenHash), .text(session.operatorID), .text(session.kind), .text(session.csrf),
                .date(StoreJSON.canonical(session.createdAt)), .date(StoreJSON.canonical(session.expiresAt)),
                .date(StoreJSON.canonical(session.lastSeenAt)),
            ])
        _ = try await write(nil, insert)
    }

    /// Implements ``MomentumStore`` `operatorSession`; see the protocol for its contract.
    public func operatorSession(
        tokenHash: String
    ) async throws(StoreError) -> (
        OperatorSessionRecord, OperatorRecord
    )? {
        guard tokenHash.utf8.count <= 128, !tokenHash.contains("\u{0}") else { return nil }
        let statement = SQLStatement(
            """
            SELECT s.token_hash, s.operator_id, s.kind, s.csrf, s.created_at, s.expires_at, s.last_seen_at,
              o.operator_id, o.email, o.name, o.role, o.password_hash, o.created_at, o.created_by, o.disabled_at
            FROM operator_sessions s JOIN operators o ON o.operator_id = s.operator_id
            WHERE s.token_hash = ?
            """, [.text(tokenHash)])
        return try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in
                    guard let row = rows.first else { return .done(nil) }
                    let session = OperatorSessionRecord(
                        tokenHash: try row.text(0, "token_hash"), operatorID: try row.text(1, "operator_id"),
                        kind: try row.text(2, "kind"), csrf: try row.text(3, "csrf"),
                        createdAt: try row.date(4, "created_at"), expiresAt: try row.date(5, "expires_at"),
                        lastSeenAt: try row.date(6, "last_seen_at"))
                    let record = try OperatorPrograms.record(from: SQLRow(Array(row.values[7...])))
                    return .done((session, record))
                }
            })
    }

    /// Implements ``MomentumStore`` `touchOperatorSession`; see the protocol for its contract.
    public func touchOperatorSession(tokenHash: String, lastSeenAt: Date, expiresAt: Date) async throws(StoreError) {
        _ = try await write(
            nil,
            SQLStatement(
                "UPDATE operator_sessions SET last_seen_at = ?, expires_at = ? WHERE token_hash = ?",
                [
                    .date(StoreJSON.canonical(lastSeenAt)), .date(StoreJSON.canonical(expiresAt)), .text(tokenHash),
                ]))
    }

    /// Implements ``MomentumStore`` `deleteOperatorSession`; see the protocol for its contract.
    public func deleteOperatorSession(tokenHash: String) async throws(StoreError) {
        guard tokenHash.utf8.count <= 128, !tokenHash.contains("\u{0}") else { return }
        _ = try await write(nil, SQLStatement("DELETE FROM operator_sessions WHERE token_hash = ?", [.text(tokenHash)]))
    }

    /// Implements ``MomentumStore`` `deleteOperatorSessions`; see the protocol for its contract.
    @discardableResult
    public func deleteOperatorSessions(expiredBefore instant: Date) async throws(StoreError) -> Int {
        try await write(nil, SQLStatement("DELETE FROM operator_sessions WHERE expires_at < ?", [.date(instant)]))
    }

    /// Implements ``MomentumStore`` `appendAudit`; see the protocol for its contract.
    public func appendAudit(_ entry: AuditRecord) async throws(StoreError) {
        guard (1...64).contains(entry.id.utf8.count), (1...64).contains(entry.operatorID.utf8.count),
            entry.operatorEmail.utf8.count <= 320, (1...100).contains(entry.action.utf8.count),
            (entry.targetUser?.utf8.count ?? 0) <= 320, entry.detail.utf8.count <= 4_000,
            ["done", "denied"].contains(entry.outcome),
            ![entry.operatorEmail, entry.action, entry.targetUser ?? "", entry.detail].contains(where: {
                $0.contains("\u{0}")
            })
        else {
            throw StoreError(.invalidInput, "an audit entry needs an id, an operator, an action and an outcome")
        }
        let insert = SQLStatement(
            """
            INSERT INTO audit_log (entry_id, at, operator_id, operator_email, action, target_user, detail, outcome)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (entry_id) DO NOTHING
            """,
            [
                .text(entry.id), .date(StoreJSON.canonical(entry.at)), .text(entry.operatorID),
                .text(entry.operatorEmail), .text(entry.action), .optional(entry.targetUser), .text(entry.detail),
                .text(entry.outcome),
            ])
        guard try await write(nil, insert) == 1 else {
            throw StoreError(.userExists, "an audit entry '\(entry.id)' already exists")
        }
    }

    /// Implements ``MomentumStore`` `auditRecords`; see the protocol for its contract.
    public func auditRecords(_ query: AuditRecordQuery) async throws(StoreError) -> [AuditRecord] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let id = query.operatorID {
            conditions.append("operator_id = ?")
            arguments.append(.text(id))
        }
        if let user = query.targetUser {
            conditions.append("target_user = ?")
            arguments.append(.text(user))
        }
        if let prefix = query.actionPrefix, !prefix.isEmpty {
            // A prefix compared by the leading characters, so no character of it is a pattern.
            conditions.append("substr(action, 1, length(?)) = ?")
            arguments += [.text(prefix), .text(prefix)]
        }
        if let before = query.before {
            conditions.append("entry_id < ?")
            arguments.append(.text(before))
        }
        let texts = arguments.compactMap(\.string)
        guard !texts.contains(where: { $0.contains("\u{0}") || $0.utf8.count > 320 }) else { return [] }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let statement = SQLStatement(
            """
            SELECT entry_id, at, operator_id, operator_email, action, target_user, detail, outcome
            FROM audit_log\(filter) ORDER BY entry_id DESC LIMIT ?
            """, arguments + [.int(max(0, min(query.limit, 1_000)))])
        return try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in
                    .done(
                        try rows.map { row throws(StoreError) in
                            AuditRecord(
                                id: try row.text(0, "entry_id"), at: try row.date(1, "at"),
                                operatorID: try row.text(2, "operator_id"),
                                operatorEmail: try row.text(3, "operator_email"), action: try row.text(4, "action"),
                                targetUser: row.optionalText(5), detail: try row.text(6, "detail"),
                                outcome: try row.text(7, "outcome"))
                        })
                }
            })
    }

    private func readOperators(_ statement: SQLStatement) async throws(StoreError) -> [OperatorRecord] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in .done(try rows.map(OperatorPrograms.record(from:))) }
            })
    }
}

/// Programs and row decoders for operators.
enum OperatorPrograms {
    /// The lock that serializes changes of operators (the first owner, the last owner).
    static let lock = "operators"

    /// The roles the store accepts.
    static let roles: Set<String> = ["owner", "support", "viewer"]

    static let columns =
        "SELECT operator_id, email, name, role, password_hash, created_at, created_by, disabled_at FROM operators"

    static func validated(_ record: OperatorRecord) throws(StoreError) -> OperatorRecord {
        var record = record
        record.email = record.email.lowercased()
        record.createdAt = StoreJSON.canonical(record.createdAt)
        record.disabledAt = record.disabledAt.map(StoreJSON.canonical)
        guard (1...64).contains(record.id.utf8.count), (3...320).contains(record.email.utf8.count),
            (1...200).contains(record.name.utf8.count), roles.contains(record.role),
            (1...256).contains(record.passwordHash.utf8.count), (1...64).contains(record.createdBy.utf8.count),
            ![record.id, record.email, record.name, record.createdBy].contains(where: { $0.contains("\u{0}") })
        else {
            throw StoreError(
                .invalidInput, "an operator needs an id, an email, a name, a role, a password hash and a creator")
        }
        return record
    }

    /// Inserts an operator unless the id or email is taken: whether it was inserted.
    static func insert(_ record: OperatorRecord) -> StoreStep<Bool> {
        .execute([
            SQLStatement(
                """
                INSERT INTO operators (operator_id, email, name, role, password_hash, created_at, created_by, disabled_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """,
                [
                    .text(record.id), .text(record.email), .text(record.name), .text(record.role),
                    .text(record.passwordHash), .date(record.createdAt), .text(record.createdBy),
                    record.disabledAt.map(SQLValue.date) ?? .null,
                ])
        ]) { counts throws(StoreError) in .done(counts[0] == 1) }
    }

    static func record(from row: SQLRow) throws(StoreError) -> OperatorRecord {
        OperatorRecord(
            id: try row.text(0, "operator_id"), email: try row.text(1, "email"), name: try row.text(2, "name"),
            role: try row.text(3, "role"), passwordHash: try row.text(4, "password_hash"),
            createdAt: try row.date(5, "created_at"), createdBy: try row.text(6, "created_by"),
            disabledAt: row.optionalDate(7))
    }

    /// A step that runs `step` to its end, then continues with its result.
    static func then<A: Sendable, B: Sendable>(
        _ step: StoreStep<A>, _ next: @escaping @Sendable (A) throws(StoreError) -> StoreStep<B>
    ) throws(StoreError) -> StoreStep<B> {
        try ServerKeyPrograms.then(step, next)
    }
}
