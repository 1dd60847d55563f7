import Foundation

extension SQLBackend {
    /// Implements ``MomentumStore`` `enqueueMail`; see the protocol for its contract.
    public func enqueueMail(_ mail: OutgoingMail, link: AccountLink?) async throws(StoreError) {
        guard !mail.id.isEmpty, mail.id.utf8.count <= 128, !mail.recipient.isEmpty,
            mail.recipient.utf8.count <= 320
        else { throw StoreError(.invalidInput, "a mail needs an id and a recipient") }
        let created = StoreJSON.canonical(mail.createdAt)
        var statements: [SQLStatement] = []
        if let link {
            statements.append(
                SQLStatement(
                    "DELETE FROM account_links WHERE user_id = ? AND purpose = ?",
                    [.text(link.user), .text(link.purpose.rawValue)]))
            statements.append(
                SQLStatement(
                    """
                    INSERT INTO account_links (token_hash, user_id, purpose, email, created_at, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(link.tokenHash), .text(link.user), .text(link.purpose.rawValue), .text(link.email),
                        .date(StoreJSON.canonical(link.createdAt)), .date(StoreJSON.canonical(link.expiresAt)),
                    ]))
        }
        statements.append(
            SQLStatement(
                """
                INSERT INTO mail_outbox (mail_id, recipient, subject, body, due_at, attempts, state, created_at)
                VALUES (?, ?, ?, ?, ?, 0, 'pending', ?)
                """,
                [
                    .text(mail.id), .text(mail.recipient), .text(mail.subject), .text(mail.body), .date(created),
                    .date(created),
                ]))
        let batch = statements
        _ = try await run(
            StoreProgram(writes: true, user: link?.user) { () throws(StoreError) in
                .execute(batch) { _ throws(StoreError) in .done(()) }
            })
    }

    /// Implements ``MomentumStore`` `claimMail`; see the protocol for its contract.
    public func claimMail(now: Date, lease: TimeInterval, limit: Int) async throws(StoreError) -> [OutgoingMail] {
        let limit = min(max(limit, 1), 1_000)
        let lock = dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        let rows = try await writeAlone(
            SQLStatement(
                """
                UPDATE mail_outbox SET claimed_until = ?
                WHERE mail_id IN (
                  SELECT mail_id FROM mail_outbox
                  WHERE state = 'pending' AND due_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
                  ORDER BY due_at LIMIT ?\(lock))
                RETURNING mail_id, recipient, subject, body, created_at, attempts
                """, [.date(now.addingTimeInterval(lease)), .date(now), .date(now), .int(limit)]))
        return try rows.map { row throws(StoreError) in
            OutgoingMail(
                id: try row.text(0, "mail_id"), recipient: try row.text(1, "recipient"),
                subject: try row.text(2, "subject"), body: try row.text(3, "body"),
                createdAt: try row.date(4, "created_at"), attempts: Int(try row.int(5, "attempts")))
        }
    }

    /// Implements ``MomentumStore`` `finishMail`; see the protocol for its contract.
    public func finishMail(_ id: String, _ outcome: MailOutcome, at: Date) async throws(StoreError) {
        let at = StoreJSON.canonical(at)
        let statement: SQLStatement
        switch outcome {
        case .sent:
            statement = SQLStatement(
                """
                UPDATE mail_outbox SET state = 'sent', attempts = attempts + 1, claimed_until = NULL,
                  finished_at = ?, body = '' WHERE mail_id = ?
                """, [.date(at), .text(id)])
        case .retry(let next, let error):
            statement = SQLStatement(
                """
                UPDATE mail_outbox SET attempts = attempts + 1, claimed_until = NULL, due_at = ?, last_error = ?
                WHERE mail_id = ?
                """, [.date(StoreJSON.canonical(next)), .text(Self.bounded(error)), .text(id)])
        case .failed(let error):
            statement = SQLStatement(
                """
                UPDATE mail_outbox SET state = 'failed', attempts = attempts + 1, claimed_until = NULL,
                  last_error = ?, finished_at = ?, body = '' WHERE mail_id = ?
                """, [.text(Self.bounded(error)), .date(at), .text(id)])
        }
        _ = try await writeAlone(statement)
    }

    /// Implements ``MomentumStore`` `mailStatus`; see the protocol for its contract.
    public func mailStatus(_ id: String) async throws(StoreError) -> MailStatus? {
        let statement = SQLStatement(
            "SELECT state, attempts, last_error FROM mail_outbox WHERE mail_id = ?", [.text(id)])
        return try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in
                    .done(
                        try rows.first.map { row throws(StoreError) in
                            MailStatus(
                                state: try row.text(0, "state"), attempts: Int(try row.int(1, "attempts")),
                                lastError: row.optionalText(2))
                        })
                }
            })
    }

    /// Implements ``MomentumStore`` `pruneMail`; see the protocol for its contract.
    @discardableResult
    public func pruneMail(finishedBefore: Date) async throws(StoreError) -> Int {
        let mails = SQLStatement(
            "DELETE FROM mail_outbox WHERE state <> 'pending' AND finished_at < ?", [.date(finishedBefore)])
        let links = SQLStatement("DELETE FROM account_links WHERE expires_at < ?", [.date(finishedBefore)])
        return try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                .execute([mails, links]) { counts throws(StoreError) in .done(counts[0]) }
            })
    }

    /// Implements ``MomentumStore`` `useLink`; see the protocol for its contract.
    public func useLink(
        tokenHash: String, purpose: AccountLink.Purpose, now: Date
    ) async throws(StoreError) -> LinkUse {
        let use = SQLStatement(
            """
            UPDATE account_links SET used_at = ?
            WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
            RETURNING user_id, email
            """, [.date(StoreJSON.canonical(now)), .text(tokenHash), .text(purpose.rawValue), .date(now)])
        let look = SQLStatement(
            "SELECT used_at FROM account_links WHERE token_hash = ? AND purpose = ?",
            [.text(tokenHash), .text(purpose.rawValue)])
        return try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                .query(use) { rows throws(StoreError) in
                    if let row = rows.first {
                        return .done(.used(user: try row.text(0, "user_id"), email: try row.text(1, "email")))
                    }
                    return .query(look) { rows throws(StoreError) in
                        guard let row = rows.first else { return .done(.unknown) }
                        return .done(row.optionalDate(0) == nil ? .expired : .alreadyUsed)
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `markEmailVerified`; see the protocol for its contract.
    public func markEmailVerified(_ email: String, of user: String, at: Date) async throws(StoreError) {
        _ = try await write(
            user,
            SQLStatement(
                """
                INSERT INTO verified_emails (user_id, email, verified_at)
                SELECT user_id, ?, ? FROM accounts WHERE user_id = ?
                ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, verified_at = excluded.verified_at
                """, [.text(email), .date(StoreJSON.canonical(at)), .text(user)]))
    }

    /// Implements ``MomentumStore`` `verifiedEmail`; see the protocol for its contract.
    public func verifiedEmail(of user: String) async throws(StoreError) -> String? {
        let statement = SQLStatement("SELECT email FROM verified_emails WHERE user_id = ?", [.text(user)])
        return try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(statement) { rows throws(StoreError) in .done(rows.first?.optionalText(0)) }
            })
    }
}
