import Foundation
import MomentumStore

/// A registered device, as the API answers it: its address is not shown back.
public struct PushTargetView: Encodable, Sendable {
    /// The id.
    public var id: String
    /// The channel.
    public var channel: String
    /// The label.
    public var label: String
    /// The environment.
    public var environment: String?
    /// The created at.
    public var createdAt: Date

    /// The view of a registered device.
    public init(_ target: PushTarget) {
        id = target.id
        channel = target.channel.rawValue
        label =
            target.channel == .apns || target.channel == .fcm
            ? "…" + String(target.address.suffix(8)) : (URL(string: target.address)?.host ?? "push service")
        environment = target.environment
        createdAt = target.createdAt
    }
}
