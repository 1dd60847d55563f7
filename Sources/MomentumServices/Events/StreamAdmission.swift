import Foundation
import MomentumStore

/// Stream tickets: how a browser that cannot send a bearer token (an `EventSource`, above
/// all on another origin) opens the change stream.
///
/// A signed-in device asks for a ticket (``issue(for:)``); the browser opens
/// `GET /v1/stream?ticket=…` with it, and ``admit(_:)`` says whose stream that is. A ticket
/// opens the stream and nothing else, once, within ``lifetime`` of being issued, and only
/// while the device session that asked for it lasts. Tickets are kept (hashed) in the
/// store, so any instance sharing the database admits a ticket another issued, and exactly
/// one admits it.
public struct StreamAdmission: Sendable {
    let store: any StreamTickets & AccountStore
    /// How long a ticket opens the stream after it was issued.
    public let lifetime: Duration
    let sessionLifetime: Duration
    let now: @Sendable () -> Date

    /// The prefix of every ticket: it cannot be mistaken for a bearer token.
    static let prefix = "st."

    /// Creates the use case.
    ///
    /// - Parameters:
    ///   - store: The tickets and the device sessions.
    ///   - lifetime: How long a ticket opens the stream (``ServerConfiguration/streamTicketLifetime``).
    ///   - sessionLifetime: How long an unused session lives (``ServerConfiguration/sessionLifetime``).
    ///   - now: The current instant.
    public init(
        store: any StreamTickets & AccountStore, lifetime: Duration, sessionLifetime: Duration,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.lifetime = lifetime
        self.sessionLifetime = sessionLifetime
        self.now = now
    }

    /// A new ticket for the caller's stream, bound to the caller's device session.
    ///
    /// - Parameter caller: The signed-in device asking.
    /// - Returns: The ticket (shown once; the store keeps only its hash) and its expiry.
    /// - Throws: A `StoreError` when it cannot be stored.
    public func issue(for caller: Caller) async throws -> IssuedStreamTicket {
        let (token, _) = Tokens.make(user: caller.user)
        let ticket = Self.prefix + token
        let now = now()
        let expiresAt = now.addingTimeInterval(Double(lifetime.components.seconds))
        try await store.storeStreamTicket(
            StreamTicket(
                userID: caller.user, ticketHash: Tokens.hash(ticket), tokenHash: caller.tokenHash, expiresAt: expiresAt),
            now: now)
        return IssuedStreamTicket(ticket: ticket, expiresAt: expiresAt)
    }

    /// Whose stream a ticket opens; the ticket is used up, whatever the answer.
    ///
    /// - Parameter ticket: The `ticket` of the stream's address.
    /// - Returns: The device session that asked for the ticket.
    /// - Throws: ``ServiceError`` `unauthenticated`: `stream_ticket_invalid` for a ticket
    ///   never issued or used before, `stream_ticket_expired` for one past its expiry,
    ///   `session_ended` when the session that asked for it has ended.
    public func admit(_ ticket: String) async throws -> Caller {
        guard ticket.hasPrefix(Self.prefix), let user = Tokens.user(of: String(ticket.dropFirst(Self.prefix.count)))
        else { throw Self.invalid }
        guard let stored = try await store.takeStreamTicket(of: user, ticketHash: Tokens.hash(ticket)) else {
            throw Self.invalid
        }
        let now = now()
        guard stored.expiresAt > now else {
            throw ServiceError(
                .unauthenticated, "stream_ticket_expired", "the stream ticket has expired: ask for another")
        }
        guard let session = try await store.session(of: user, tokenHash: stored.tokenHash),
            session.isLive(at: now, lifetime: sessionLifetime)
        else {
            throw ServiceError(
                .unauthenticated, "session_ended", "the session that asked for this stream ticket has ended")
        }
        return Caller(user: user, tokenHash: stored.tokenHash, deviceName: session.deviceName)
    }

    static let invalid = ServiceError(
        .unauthenticated, "stream_ticket_invalid", "the stream ticket is not valid (it may have been used already)")
}

/// A new stream ticket and when it expires.
public struct IssuedStreamTicket: Sendable, Hashable, Codable {
    /// The ticket: `GET /v1/stream?ticket=<ticket>` opens the stream, once.
    public var ticket: String
    /// When it stops opening the stream.
    public var expiresAt: Date

    /// Creates an issued ticket.
    public init(ticket: String, expiresAt: Date) {
        self.ticket = ticket
        self.expiresAt = expiresAt
    }
}
