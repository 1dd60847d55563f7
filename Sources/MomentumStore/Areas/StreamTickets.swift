import Foundation

/// Stream tickets: short-lived, single-use passes that open a user's change stream from a
/// browser that cannot send a bearer token (an `EventSource` on another origin).
///
/// One area of ``MomentumStore``. Tickets live in the database, so every server instance
/// sharing it accepts a ticket another issued, and using one deletes it, so only one
/// instance ever accepts it.
public protocol StreamTickets: Sendable {
    /// Stores a new ticket, and deletes the user's tickets that expired before `now`, in
    /// one transaction.
    ///
    /// - Parameters:
    ///   - ticket: The ticket (its hash, never the ticket itself).
    ///   - now: The current instant.
    func storeStreamTicket(_ ticket: StreamTicket, now: Date) async throws(StoreError)

    /// Takes the user's ticket with this hash: deletes it and returns it as it was, or
    /// returns `nil` when there is none (never issued, or used already). Of two uses at
    /// once, on one instance or several, exactly one gets the ticket.
    ///
    /// The ticket returned may have expired; the caller decides.
    func takeStreamTicket(of user: String, ticketHash: String) async throws(StoreError) -> StreamTicket?
}
