import Foundation
import MomentumStore

extension SessionCache {
    /// What a revoked server key's id is relayed and forgotten as, beside token hashes:
    /// `server-key:<id>` (a token hash is hex, so the two never meet).
    static let serverKeyPrefix = "server-key:"

    /// A live server key checked less than ``ttl`` seconds ago, if any.
    func serverKey(_ id: String, now: Date) -> ServerKey? {
        guard ttl > 0 else { return nil }
        return state.withLock { state in
            guard let entry = state.keys[id], now.timeIntervalSince(entry.checkedAt) < ttl else { return nil }
            return entry.key
        }
    }

    /// Remembers a live key just read (not one revoked meanwhile through this instance).
    func remember(_ key: ServerKey, now: Date) {
        guard ttl > 0, key.revokedAt == nil else { return }
        state.withLock { state in
            guard !state.endedSessions.contains(Self.serverKeyPrefix + key.id) else { return }
            if state.keys.count >= capacity { state.keys.removeAll(keepingCapacity: true) }
            state.keys[key.id] = (key, now)
        }
    }

    /// The Momentum user an app's id named less than ``ttl`` seconds ago, if any.
    func appUser(app: String, appUserID: String, now: Date) -> AppUser? {
        guard ttl > 0 else { return nil }
        return state.withLock { state in
            guard let entry = state.appUsers[AppUserName(app: app, appUserID: appUserID)],
                now.timeIntervalSince(entry.checkedAt) < ttl
            else { return nil }
            return entry.user
        }
    }

    /// Remembers an app user just read or created (not one whose account was deleted
    /// meanwhile through this instance).
    func remember(_ user: AppUser, now: Date) {
        guard ttl > 0 else { return }
        state.withLock { state in
            guard !state.endedUsers.contains(user.userID) else { return }
            if state.appUsers.count >= capacity { state.appUsers.removeAll(keepingCapacity: true) }
            state.appUsers[AppUserName(app: user.app, appUserID: user.appUserID)] = (user, now)
        }
    }

    /// Forgets a revoked key here; the caller relays the revocation to the other instances.
    func forget(serverKey id: String) {
        forget(tokenHash: Self.serverKeyPrefix + id)
    }
}
