import Foundation

/// A review flag with what became of it: open, confirmed by an operator, or cleared.
public struct ReviewFlagEntry: Hashable, Sendable, Encodable {
    /// Where a flag stands.
    public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
        /// Awaiting review; the user's posts are held.
        case open
        /// An operator confirmed it: it stays on record, the posts stay held, and its
        /// evidence does not flag the user again.
        case confirmed
        /// An operator cleared it; with the user's last open flag cleared, their held
        /// posts were released.
        case cleared
    }

    /// The flag as the detector raised it.
    public var flag: ReviewFlag
    /// When it was cleared, if it was.
    public var clearedAt: Date?
    /// When an operator confirmed it, if one did.
    public var confirmedAt: Date?
    /// The id of the operator who confirmed it.
    public var confirmedBy: String?

    /// Creates an entry.
    public init(flag: ReviewFlag, clearedAt: Date? = nil, confirmedAt: Date? = nil, confirmedBy: String? = nil) {
        self.flag = flag
        self.clearedAt = clearedAt
        self.confirmedAt = confirmedAt
        self.confirmedBy = confirmedBy
    }

    /// Where the flag stands: cleared wins over confirmed (a confirmed flag may still be
    /// cleared later).
    public var status: Status {
        clearedAt != nil ? .cleared : confirmedAt != nil ? .confirmed : .open
    }

    private enum CodingKeys: String, CodingKey {
        case user, id, kind, detail, events, createdAt, status, clearedAt, confirmedAt, confirmedBy
    }

    /// Encodes the flag's fields and where it stands, in one object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(flag.user, forKey: .user)
        try container.encode(flag.id, forKey: .id)
        try container.encode(flag.kind, forKey: .kind)
        try container.encode(flag.detail, forKey: .detail)
        try container.encode(flag.events, forKey: .events)
        try container.encode(flag.createdAt, forKey: .createdAt)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(clearedAt, forKey: .clearedAt)
        try container.encodeIfPresent(confirmedAt, forKey: .confirmedAt)
        try container.encodeIfPresent(confirmedBy, forKey: .confirmedBy)
    }
}
