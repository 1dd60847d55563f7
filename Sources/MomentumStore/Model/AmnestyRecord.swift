import Foundation

/// An incident amnesty as stored: the outage window an operator declared, and how far the
/// job that writes it into every user's log has come.
public struct AmnestyRecord: Hashable, Sendable {
    /// Where an amnesty stands.
    public enum Status: String, Hashable, Sendable, CaseIterable {
        /// Its `amnesty` event is being written to every account older than its end.
        case declaring
        /// Written to every such account: their days in the window are covered.
        case active
        /// Its `amnesty.lifted` event is being written to the same accounts.
        case lifting
        /// Lifted everywhere: as if it never was.
        case lifted

        /// Whether a job over the users is under way.
        public var isRunning: Bool { self == .declaring || self == .lifting }
    }

    /// The amnesty's id (`am_…`); its events' ids derive from it.
    public var id: String
    /// When the outage began.
    public var start: Date
    /// When it ended.
    public var end: Date
    /// Why, shown with the covered days.
    public var reason: String
    /// The operator who declared it.
    public var declaredBy: String
    /// When it was declared.
    public var declaredAt: Date
    /// The operator who lifted it, if one did.
    public var liftedBy: String?
    /// When it was lifted.
    public var liftedAt: Date?
    /// Where it stands.
    public var status: Status
    /// Users the running job (or the last one) has reached.
    public var usersDone: Int
    /// Users it reaches: the accounts created before the window's end.
    public var usersTotal: Int
    /// The last user the running job reached (users are reached in id order).
    public var cursor: String?
    /// Until when the instance running the job holds it; another instance resumes it after.
    public var leaseUntil: Date?

    /// Creates an amnesty record.
    public init(
        id: String, start: Date, end: Date, reason: String, declaredBy: String, declaredAt: Date,
        liftedBy: String? = nil, liftedAt: Date? = nil, status: Status = .declaring, usersDone: Int = 0,
        usersTotal: Int = 0, cursor: String? = nil, leaseUntil: Date? = nil
    ) {
        self.id = id
        self.start = start
        self.end = end
        self.reason = reason
        self.declaredBy = declaredBy
        self.declaredAt = declaredAt
        self.liftedBy = liftedBy
        self.liftedAt = liftedAt
        self.status = status
        self.usersDone = usersDone
        self.usersTotal = usersTotal
        self.cursor = cursor
        self.leaseUntil = leaseUntil
    }
}

/// An account an amnesty reaches: its id and the zone its profile names.
public struct AmnestyUser: Hashable, Sendable {
    /// The user's id.
    public var user: String
    /// The IANA zone of their profile (`UTC` without a profile).
    public var timeZone: String

    /// Creates a pair.
    public init(user: String, timeZone: String) {
        self.user = user
        self.timeZone = timeZone
    }
}
