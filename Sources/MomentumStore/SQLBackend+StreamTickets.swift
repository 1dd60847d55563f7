import Foundation

extension SQLBackend {
    /// Implements ``MomentumStore`` `storeStreamTicket`; see the protocol for its contract.
    public func storeStreamTicket(_ ticket: StreamTicket, now: Date) async throws(StoreError) {
        let expired = SQLStatement(
            "DELETE FROM stream_tickets WHERE user_id = ? AND expires_at < ?", [.text(ticket.userID), .date(now)])
        let insert = SQLStatement(
            "INSERT INTO stream_tickets (user_id, ticket_hash, token_hash, expires_at) VALUES (?, ?, ?, ?)",
            [.text(ticket.userID), .text(ticket.ticketHash), .text(ticket.tokenHash), .date(ticket.expiresAt)])
        _ = try await run(
            StoreProgram(writes: true, user: ticket.userID) { () throws(StoreError) in
                .execute([expired, insert]) { _ throws(StoreError) in .done(()) }
            })
    }

    /// Implements ``MomentumStore`` `takeStreamTicket`; see the protocol for its contract.
    ///
    /// One `DELETE … RETURNING`: the row goes to the one statement that deleted it.
    public func takeStreamTicket(of user: String, ticketHash: String) async throws(StoreError) -> StreamTicket? {
        let rows = try await writeAlone(
            SQLStatement(
                "DELETE FROM stream_tickets WHERE user_id = ? AND ticket_hash = ? RETURNING token_hash, expires_at",
                [.text(user), .text(ticketHash)]))
        guard let row = rows.first else { return nil }
        return StreamTicket(
            userID: user, ticketHash: ticketHash, tokenHash: try row.text(0, "token_hash"),
            expiresAt: try row.date(1, "expires_at"))
    }
}
