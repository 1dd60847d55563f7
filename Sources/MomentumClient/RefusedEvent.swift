import Foundation

/// An event the server refused: it counts for nothing, and it is kept on the device so
/// that the app can say what happened.
public struct RefusedEvent: Hashable, Sendable {
    /// The event's client id.
    public var id: String
    /// `rejected` (valid, but the rules refuse it, such as a purchase without enough
    /// diamonds) or `invalid` (malformed, or dated outside what the server accepts).
    public var status: String
    /// A stable code, such as `insufficient_diamonds` or `past_timestamp`.
    public var code: String
    /// The server's explanation, for people.
    public var message: String
    /// The field at fault, when one is.
    public var field: String?
    /// When the device learned of the refusal.
    public var refusedAt: Date
}
