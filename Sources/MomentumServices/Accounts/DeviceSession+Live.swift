import Foundation
import MomentumStore

extension DeviceSession {
    /// Whether the session still signs its device in at `now`: not past its expiry, and
    /// used within `lifetime`.
    public func isLive(at now: Date, lifetime: Duration) -> Bool {
        (expiresAt.map { $0 > now } ?? true) && now.timeIntervalSince(lastSeenAt) < Double(lifetime.components.seconds)
    }
}
