import Foundation
import MomentumStore

/// Who a device token signs in: the session it names, read from the ``SessionCache`` when
/// that may be trusted and from the store otherwise, and whether a session verified a
/// moment ago still exists.
///
/// The HTTP layer's authentication (the API's bearer tokens, the web app's cookie) asks
/// this; it never reads sessions from the store itself.
public struct SessionAuthentication: Sendable {
    let store: any AccountStore
    let sessions: SessionCache
    let lifetime: Duration
    let now: @Sendable () -> Date
    let relayListening: (@Sendable () -> Bool)?

    /// Creates the use case.
    ///
    /// - Parameters:
    ///   - store: The device sessions.
    ///   - sessions: Sessions verified in the last few seconds.
    ///   - lifetime: How long an unused session lives (``ServerConfiguration/sessionLifetime``).
    ///   - now: The current instant.
    ///   - relayListening: Whether other instances' revocations are arriving; `nil` when
    ///     this is the only instance.
    public init(
        store: any AccountStore, sessions: SessionCache, lifetime: Duration, now: @escaping @Sendable () -> Date,
        relayListening: (@Sendable () -> Bool)?
    ) {
        self.store = store
        self.sessions = sessions
        self.lifetime = lifetime
        self.now = now
        self.relayListening = relayListening
    }

    /// Whether cached sessions may be trusted: always on a single instance; with other
    /// instances only while the relay is receiving their revocations.
    var cacheTrusted: Bool { relayListening?() ?? true }

    /// The caller a device token belongs to, refreshing the session's seen-at at most every
    /// five minutes (so reads do not write).
    ///
    /// - Throws: ``ServiceError/unauthenticated`` when the token is malformed, unknown,
    ///   revoked or expired; a `StoreError` when the session cannot be read.
    public func authenticate(token: String) async throws -> Caller {
        guard let user = Tokens.user(of: token) else { throw ServiceError.unauthenticated }
        let hash = Tokens.hash(token)
        let now = now()
        var session: DeviceSession
        if cacheTrusted, let cached = sessions.session(hash, now: now), cached.userID == user {
            session = cached
        } else {
            guard let stored = try await store.session(of: user, tokenHash: hash) else {
                throw ServiceError.unauthenticated
            }
            session = stored
            sessions.remember(stored, now: now)
        }
        guard session.isLive(at: now, lifetime: lifetime) else { throw ServiceError.unauthenticated }
        if now.timeIntervalSince(session.lastSeenAt) > 300 {
            try await store.touchSession(of: user, tokenHash: hash, at: now)
            session.lastSeenAt = now
            sessions.remember(session, now: now)
        }
        return Caller(user: user, tokenHash: hash, deviceName: session.deviceName)
    }

    /// Throws, and forgets the session here, when the caller's session has ended since it
    /// was verified; returns when it still exists or cannot be read just now.
    ///
    /// - Throws: ``ServiceError/unauthenticated`` when the session is gone.
    public func confirm(_ caller: Caller) async throws {
        let stored: DeviceSession?
        do {
            stored = try await store.session(of: caller.user, tokenHash: caller.tokenHash)
        } catch {
            return
        }
        guard stored == nil else { return }
        sessions.forget(tokenHash: caller.tokenHash)
        throw ServiceError.unauthenticated
    }
}
