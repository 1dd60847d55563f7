import Foundation

/// The operators of the server, their sessions and the audit log of what they did.
///
/// One area of ``MomentumStore``. Every table is global, and every instance reads them from
/// the database on each admin request, so an operator disabled through one instance is
/// refused by all at once.
public protocol OperatorStore: Sendable {
    /// Stores a new operator.
    ///
    /// - Throws: ``StoreError/Code/invalidInput`` for a field out of bounds;
    ///   ``StoreError/Code/userExists`` when the id or the email is taken.
    func createOperator(_ record: OperatorRecord) async throws(StoreError)

    /// Stores the first owner, only while no operator with the role `owner` exists: two
    /// calls at once, on one instance or several, store one.
    ///
    /// - Returns: Whether it was stored (`false`: an owner exists).
    /// - Throws: ``StoreError/Code/invalidInput`` for a field out of bounds or a role other
    ///   than `owner`; ``StoreError/Code/userExists`` when the email is taken.
    func createFirstOwner(_ record: OperatorRecord) async throws(StoreError) -> Bool

    /// Every operator, disabled ones too, in the order they were added.
    func operators() async throws(StoreError) -> [OperatorRecord]

    /// The operator with this id; `nil` when there is none.
    func operatorRecord(id: String) async throws(StoreError) -> OperatorRecord?

    /// The operator with this email (compared lower-cased); `nil` when there is none.
    func operatorRecord(email: String) async throws(StoreError) -> OperatorRecord?

    /// Changes an operator's role or whether they are disabled, refusing a change that would
    /// leave no enabled owner (changes of operators are serialized, on every instance).
    /// Disabling ends the operator's sessions in the same transaction; enabling keeps the
    /// first disabling's absence (`disabledAt` is cleared).
    ///
    /// - Parameters:
    ///   - id: The operator.
    ///   - role: The new role's name, or `nil` to keep it.
    ///   - disabledAt: `.some(instant)` to disable (keeping an earlier disabling time),
    ///     `.some(nil)` to enable, `nil` to keep it as it is.
    func updateOperator(id: String, role: String?, disabledAt: Date??) async throws(StoreError) -> OperatorChange

    /// Stores a new session.
    func createOperatorSession(_ session: OperatorSessionRecord) async throws(StoreError)

    /// The session with this token hash and its operator; `nil` when there is none.
    /// Expiry and disabling are the caller's to check.
    func operatorSession(tokenHash: String) async throws(StoreError) -> (OperatorSessionRecord, OperatorRecord)?

    /// Records that a session was used: it was last seen at `lastSeenAt`, and now ends at
    /// `expiresAt`.
    func touchOperatorSession(tokenHash: String, lastSeenAt: Date, expiresAt: Date) async throws(StoreError)

    /// Ends a session; ending one that does not exist does nothing.
    func deleteOperatorSession(tokenHash: String) async throws(StoreError)

    /// Deletes the sessions that ended before `instant`.
    ///
    /// - Returns: How many were deleted.
    @discardableResult
    func deleteOperatorSessions(expiredBefore instant: Date) async throws(StoreError) -> Int

    /// Appends an entry to the audit log.
    ///
    /// - Throws: ``StoreError/Code/invalidInput`` for a field out of bounds;
    ///   ``StoreError/Code/userExists`` when the entry id is taken.
    func appendAudit(_ entry: AuditRecord) async throws(StoreError)

    /// Audit entries that match `query`, newest first (by entry id).
    func auditRecords(_ query: AuditRecordQuery) async throws(StoreError) -> [AuditRecord]
}
