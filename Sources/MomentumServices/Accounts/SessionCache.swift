import Foundation
import MomentumStore
import Synchronization

/// Device sessions verified in the last few seconds, so that a request does not read its
/// session from the database every time; and likewise the server keys and the app users
/// they named (`SessionCache+ServerKeys.swift`), which the same revocations end.
///
/// A session revoked through this instance (sign-out, device revoke, account deletion) is
/// forgotten at once; one revoked through another instance as soon as the relay brings the
/// revocation (and while the relay is not receiving, the cache is not used). A request
/// that finds its account gone in the window before the revocation arrives answers `.unauthenticated` and
/// forgets the session (see `AuthMiddleware`). A session deleted behind the servers' backs
/// stops working at the latest ``ttl`` seconds later.
public final class SessionCache: Sendable {
    struct Entry {
        var session: DeviceSession
        var checkedAt: Date
    }

    struct State {
        var entries: [String: Entry] = [:]
        /// Sessions (token hashes) and users whose sessions were ended: a request that read
        /// such a session just before it ended must not cache it afterwards. A token never
        /// becomes valid again, so these need no expiry; they are bounded by ``capacity``.
        public var endedSessions: Set<String> = []
        var endedUsers: Set<String> = []
        /// Server keys checked lately, by id (see `SessionCache+ServerKeys.swift`).
        var keys: [String: (key: ServerKey, checkedAt: Date)] = [:]
        /// The app users server keys named lately, by app and the app's id.
        var appUsers: [AppUserName: (user: AppUser, checkedAt: Date)] = [:]
    }

    /// An app's user as a server key names it.
    struct AppUserName: Hashable {
        var app: String
        var appUserID: String
    }

    let state = Mutex(State())
    /// How long a verified session is trusted without reading it again.
    public let ttl: TimeInterval
    /// The most sessions kept; beyond it the cache starts over.
    public let capacity: Int

    init(ttl: TimeInterval = 10, capacity: Int = 100_000) {
        self.ttl = ttl
        self.capacity = capacity
    }

    /// The session with this token hash, if it was verified less than ``ttl`` ago.
    public func session(_ tokenHash: String, now: Date) -> DeviceSession? {
        guard ttl > 0 else { return nil }
        return state.withLock { state in
            guard let entry = state.entries[tokenHash], now.timeIntervalSince(entry.checkedAt) < ttl else {
                return nil
            }
            return entry.session
        }
    }

    /// Caches a session just verified, unless it has ended meanwhile.
    public func remember(_ session: DeviceSession, now: Date) {
        guard ttl > 0 else { return }
        state.withLock { state in
            guard !state.endedSessions.contains(session.tokenHash), !state.endedUsers.contains(session.userID) else {
                return
            }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[session.tokenHash] = Entry(session: session, checkedAt: now)
        }
    }

    /// Forgets a session that ended, for good.
    public func forget(tokenHash: String) {
        state.withLock { state in
            state.entries[tokenHash] = nil
            if tokenHash.hasPrefix(Self.serverKeyPrefix) {
                state.keys[String(tokenHash.dropFirst(Self.serverKeyPrefix.count))] = nil
            }
            if state.endedSessions.count >= capacity { state.endedSessions.removeAll() }
            state.endedSessions.insert(tokenHash)
        }
    }

    /// Forgets every session (they are read again as they are used).
    public func forgetAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.keys.removeAll()
            state.appUsers.removeAll()
        }
    }

    /// Forgets every session of a user whose account was deleted, for good.
    public func forget(user: String) {
        state.withLock { state in
            state.entries = state.entries.filter { $0.value.session.userID != user }
            state.appUsers = state.appUsers.filter { $0.value.user.userID != user }
            if state.endedUsers.count >= capacity { state.endedUsers.removeAll() }
            state.endedUsers.insert(user)
        }
    }
}
