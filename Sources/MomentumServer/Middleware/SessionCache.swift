import Foundation
import MomentumStore
import Synchronization

/// Device sessions verified in the last few seconds, so that a request does not read its
/// session from the database every time.
///
/// A session revoked through this instance (sign-out, device revoke, account deletion) is
/// forgotten at once; one revoked through another instance as soon as the relay brings the
/// revocation (and while the relay is not receiving, the cache is not used). A session
/// deleted behind the servers' backs stops working at the latest ``ttl`` seconds later.
final class SessionCache: Sendable {
    private struct Entry {
        var session: DeviceSession
        var checkedAt: Date
    }

    private let entries = Mutex([String: Entry]())
    /// How long a verified session is trusted without reading it again.
    let ttl: TimeInterval
    /// The most sessions kept; beyond it the cache starts over.
    let capacity: Int

    init(ttl: TimeInterval = 10, capacity: Int = 100_000) {
        self.ttl = ttl
        self.capacity = capacity
    }

    /// The session with this token hash, if it was verified less than ``ttl`` ago.
    func session(_ tokenHash: String, now: Date) -> DeviceSession? {
        guard ttl > 0 else { return nil }
        return entries.withLock { entries in
            guard let entry = entries[tokenHash], now.timeIntervalSince(entry.checkedAt) < ttl else { return nil }
            return entry.session
        }
    }

    func remember(_ session: DeviceSession, now: Date) {
        guard ttl > 0 else { return }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[session.tokenHash] = Entry(session: session, checkedAt: now)
        }
    }

    func forget(tokenHash: String) {
        _ = entries.withLock { $0.removeValue(forKey: tokenHash) }
    }

    /// Forgets every session.
    func forgetAll() {
        entries.withLock { $0.removeAll() }
    }

    func forget(user: String) {
        entries.withLock { entries in entries = entries.filter { $0.value.session.userID != user } }
    }
}
