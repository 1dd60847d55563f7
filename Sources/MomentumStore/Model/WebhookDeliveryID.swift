import Foundation

/// The id of one delivery to a webhook, on either queue: the queue and the row's key
/// (user, notification key or message id, webhook), written as one opaque token
/// (`d_…` for a notification, `m_…` for an event message; base64url of the key).
public struct WebhookDeliveryID: Hashable, Sendable {
    /// The queue.
    public var queue: WebhookQueue
    /// Whose notification or event it is.
    public var user: String
    /// The notification's key or the message's id.
    public var key: String
    /// The webhook's id.
    public var webhookID: String

    /// Creates an id.
    public init(queue: WebhookQueue, user: String, key: String, webhookID: String) {
        self.queue = queue
        self.user = user
        self.key = key
        self.webhookID = webhookID
    }

    /// The id as one token.
    public var token: String {
        let joined = [user, key, webhookID].joined(separator: "\n")
        let encoded = Data(joined.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return (queue == .notification ? "d_" : "m_") + encoded
    }

    /// The id a token names; `nil` for a token that is not one.
    public init?(token: String) {
        guard token.utf8.count <= 2048 else { return nil }
        let queue: WebhookQueue
        if token.hasPrefix("d_") {
            queue = .notification
        } else if token.hasPrefix("m_") {
            queue = .event
        } else {
            return nil
        }
        var base64 = String(token.dropFirst(2))
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else {
            return nil
        }
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        self.init(queue: queue, user: String(parts[0]), key: String(parts[1]), webhookID: String(parts[2]))
    }
}
