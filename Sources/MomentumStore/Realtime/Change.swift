import Foundation

/// A change to a user's data, as sent to their other devices over server-sent events.
public struct Change: Sendable, Codable, Hashable {
    /// What changed: `events`, `profile`, `memories` or `celebrations`.
    public var kind: String
    /// The user's newest event sequence number after the change (pull from your cursor).
    public var headSeq: Int64?
    /// The device that made the change.
    public var device: String?
    /// When the change was made.
    public var at: Date

    /// Creates a change.
    public init(kind: String, headSeq: Int64? = nil, device: String? = nil, at: Date) {
        self.kind = kind
        self.headSeq = headSeq
        self.device = device
        self.at = at
    }
}
