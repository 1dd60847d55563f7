import Foundation

/// A stored stream ticket: whose it is, the hash of the ticket, the device session that
/// asked for it and when it expires.
public struct StreamTicket: Sendable, Hashable {
    /// The user whose stream it opens.
    public var userID: String
    /// The SHA-256 of the ticket, in lowercase hex.
    public var ticketHash: String
    /// The SHA-256 of the bearer token of the device session that asked for it: the ticket
    /// ends with that session.
    public var tokenHash: String
    /// When it stops opening anything.
    public var expiresAt: Date

    /// Creates a ticket.
    public init(userID: String, ticketHash: String, tokenHash: String, expiresAt: Date) {
        self.userID = userID
        self.ticketHash = ticketHash
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
    }
}
