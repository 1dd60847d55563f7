import Foundation
import MomentumStore

/// What a channel's service answered to one message.
public enum TransportResult: Equatable, Sendable {
    /// Accepted.
    case delivered
    /// A failure that may pass (a timeout, a 5xx, a `.tooMany`), and how long the service asked us
    /// to wait, if it did.
    case retry(String, after: TimeInterval?)
    /// The device is gone for good (Web Push `.notFound`/410, APNs 410 Unregistered): its target is
    /// removed.
    case gone(String)
    /// This message will never be accepted (too large, malformed): no retry.
    case rejected(String)
}

/// Sends one notification to one device or webhook.
public protocol DeliveryTransport: Sendable {
    /// Sends a notification; never throws: every failure is a ``TransportResult``.
    func send(_ delivery: PendingDelivery, now: Date) async -> TransportResult
}
