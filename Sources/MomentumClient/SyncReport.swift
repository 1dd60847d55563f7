import Foundation

/// What one ``MomentumClient/sync()`` did.
public struct SyncReport: Hashable, Sendable {
    /// Events from this device the server stored now.
    public var pushed: Int = 0
    /// Events from this device the server had already stored (a retry after a lost answer).
    public var duplicates: Int = 0
    /// Events from this device the server refused (see ``MomentumClient/refusedEvents()``).
    public var refused: [RefusedEvent] = []
    /// Events pulled from the server's log (this device's and other devices').
    public var pulled: Int = 0
    /// The newest sequence number of the user's log on this device.
    public var cursor: Int64 = 0
    /// Whether anything on the device changed.
    public var changed: Bool { pushed + duplicates + pulled > 0 || !refused.isEmpty }
}
