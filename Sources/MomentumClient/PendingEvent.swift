import Foundation

/// An event recorded on this device and not yet acknowledged by the server.
public struct PendingEvent: Hashable, Sendable {
    /// The event's client id: the server stores an id once, however often it is sent.
    public var id: String
    /// The event as JSON (Momentum's event format).
    public var body: String
    /// When it was recorded on the device.
    public var recordedAt: Date
    /// Pushes that failed so far (the server was unreachable or busy).
    public var attempts: Int
    /// Why the last push failed, if one did.
    public var lastError: String?
}
