import Foundation

/// Activity that looks like gaming the rules, kept for a person to review. Flagging never
/// changes the user's data.
public struct ReviewFlag: Hashable, Sendable, Codable {
    /// What kind of activity was seen.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A change of time zone that moved the user's local day forward.
        case timeZoneHop = "time_zone_hop"
        /// Many completions recorded for earlier days in a short time.
        case backfills
        /// Many events in a short time.
        case burst
    }

    /// The user whose activity was flagged.
    public var user: String
    /// The flag's id, unique per user (the same observation is recorded once).
    public var id: String
    /// What was seen.
    public var kind: Kind
    /// A sentence for the reviewer.
    public var detail: String
    /// The ids of the events involved.
    public var events: [String]
    /// When the activity was flagged.
    public var createdAt: Date

    /// Creates a flag.
    public init(user: String, id: String, kind: Kind, detail: String, events: [String], createdAt: Date) {
        self.user = user
        self.id = id
        self.kind = kind
        self.detail = detail
        self.events = events
        self.createdAt = createdAt
    }
}
