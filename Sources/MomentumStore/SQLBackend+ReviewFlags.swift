import Foundation
import MomentumCore

extension SQLBackend {
    // MARK: Review flags

    /// The columns a ``ReviewFlagEntry`` is read from, `review_flags` as `f` joined to its
    /// confirmation as `c`.
    private static var entryColumns: String {
        """
        SELECT f.user_id, f.flag_id, f.kind, f.detail, f.events, f.created_at, f.cleared_at, c.confirmed_at,
        c.confirmed_by FROM review_flags f
        LEFT JOIN review_flag_confirmations c ON c.user_id = f.user_id AND c.flag_id = f.flag_id
        """
    }

    private static func flag(_ row: SQLRow) throws(StoreError) -> ReviewFlag {
        ReviewFlag(
            user: try row.text(0, "user_id"), id: try row.text(1, "flag_id"),
            kind: ReviewFlag.Kind(rawValue: try row.text(2, "kind")) ?? .burst, detail: try row.text(3, "detail"),
            events: try StoreJSON.decode([String].self, try row.text(4, "events"), "flag events"),
            createdAt: try row.date(5, "created_at"))
    }

    private static func entry(_ row: SQLRow) throws(StoreError) -> ReviewFlagEntry {
        ReviewFlagEntry(
            flag: try flag(row), clearedAt: row.optionalDate(6), confirmedAt: row.optionalDate(7),
            confirmedBy: row.optionalText(8))
    }

    /// Implements ``MomentumStore`` `flag`; see the protocol for its contract.
    @discardableResult
    public func flag(_ flag: ReviewFlag) async throws(StoreError) -> Bool {
        let insert = SQLStatement(
            """
            INSERT INTO review_flags (user_id, flag_id, kind, detail, events, created_at)
            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, flag_id) DO NOTHING
            """,
            [
                .text(flag.user), .text(flag.id), .text(flag.kind.rawValue), .text(flag.detail),
                .text(try StoreJSON.encode(flag.events)), .date(StoreJSON.canonical(flag.createdAt)),
            ])
        let confirmed = SQLStatement(
            """
            SELECT f.events FROM review_flags f
            JOIN review_flag_confirmations c ON c.user_id = f.user_id AND c.flag_id = f.flag_id
            WHERE f.user_id = ? AND f.cleared_at IS NULL
            """, [.text(flag.user)])
        let evidence = Set(flag.events)
        return try await run(
            StoreProgram(writes: true, user: flag.user) { () throws(StoreError) in
                .query([confirmed]) { rows throws(StoreError) in
                    var seen = Set<String>()
                    for row in rows[0] {
                        seen.formUnion(try StoreJSON.decode([String].self, try row.text(0, "events"), "flag events"))
                    }
                    // Evidence an operator already confirmed does not flag the user again.
                    if !evidence.isEmpty, evidence.isSubset(of: seen) { return .done(false) }
                    return .execute([insert]) { changed throws(StoreError) in .done(changed[0] > 0) }
                }
            })
    }

    /// Implements ``MomentumStore`` `reviewFlags`; see the protocol for its contract.
    public func reviewFlags(limit: Int) async throws(StoreError) -> [ReviewFlag] {
        try await read(
            SQLStatement(
                """
                SELECT user_id, flag_id, kind, detail, events, created_at FROM review_flags f
                WHERE cleared_at IS NULL AND NOT EXISTS (
                  SELECT 1 FROM review_flag_confirmations c WHERE c.user_id = f.user_id AND c.flag_id = f.flag_id)
                ORDER BY created_at DESC, user_id, flag_id LIMIT ?
                """, [.int(max(0, limit))])
        ).map { row throws(StoreError) in try Self.flag(row) }
    }

    /// Implements ``MomentumStore`` `reviewFlag(_:of:)`; see the protocol for its contract.
    public func reviewFlag(_ id: String, of user: String) async throws(StoreError) -> ReviewFlagEntry? {
        try await read(
            SQLStatement(Self.entryColumns + " WHERE f.user_id = ? AND f.flag_id = ?", [.text(user), .text(id)])
        ).first.map { row throws(StoreError) in try Self.entry(row) }
    }

    /// Implements ``MomentumStore`` `reviewFlags(of:limit:)`; see the protocol for its contract.
    public func reviewFlags(of user: String, limit: Int) async throws(StoreError) -> [ReviewFlagEntry] {
        try await read(
            SQLStatement(
                Self.entryColumns + " WHERE f.user_id = ? ORDER BY f.created_at DESC, f.flag_id LIMIT ?",
                [.text(user), .int(max(0, limit))])
        ).map { row throws(StoreError) in try Self.entry(row) }
    }

    /// Implements ``MomentumStore`` `confirmReviewFlag`; see the protocol for its contract.
    public func confirmReviewFlag(
        _ id: String, of user: String, by operatorID: String, at: Date
    ) async throws(StoreError) -> ReviewFlagEntry? {
        let select = SQLStatement(
            Self.entryColumns + " WHERE f.user_id = ? AND f.flag_id = ?", [.text(user), .text(id)])
        let confirm = SQLStatement(
            """
            INSERT INTO review_flag_confirmations (user_id, flag_id, confirmed_by, confirmed_at)
            VALUES (?, ?, ?, ?) ON CONFLICT (user_id, flag_id) DO NOTHING
            """, [.text(user), .text(id), .text(operatorID), .date(StoreJSON.canonical(at))])
        return try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .query([select]) { rows throws(StoreError) in
                    guard let row = rows[0].first else { return .done(nil) }
                    let entry = try Self.entry(row)
                    guard entry.status == .open else { return .done(entry) }
                    var confirmed = entry
                    confirmed.confirmedAt = StoreJSON.canonical(at)
                    confirmed.confirmedBy = operatorID
                    let answer = confirmed
                    return .execute([confirm]) { _ throws(StoreError) in .done(answer) }
                }
            })
    }
}
