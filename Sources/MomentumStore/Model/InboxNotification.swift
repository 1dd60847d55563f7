import Foundation
import MomentumCore

/// A notification in a user's in-app inbox: what was delivered, when, and whether it was read.
public struct InboxNotification: Hashable, Sendable, Codable {
    /// The notification as planned (its key, kind, texts, page, day and times).
    public var notification: PlannedNotification
    /// When it reached the inbox.
    public var createdAt: Date
    /// When the user read it; `nil` while unread.
    public var readAt: Date?
    /// The channels it was queued for when it was stored (one per device or webhook), for
    /// the metrics; empty when read back from the inbox.
    public var queued: [NotificationChannel] = []

    /// Creates an inbox entry.
    public init(
        notification: PlannedNotification, createdAt: Date, readAt: Date? = nil, queued: [NotificationChannel] = []
    ) {
        self.notification = notification
        self.createdAt = createdAt
        self.readAt = readAt
        self.queued = queued
    }

    private enum CodingKeys: String, CodingKey { case notification, createdAt, readAt }
}

/// A user's notification run claimed by one scheduler (``MomentumStore`` `claimNotificationRuns`):
/// the run covers `(checkedUntil, now]`.
public struct NotificationClaim: Hashable, Sendable {
    /// Whose run it is.
    public var user: String
    /// The end of the previous run.
    public var checkedUntil: Date
    /// How many times the user's log or preferences had changed when the run was claimed;
    /// a change during the run makes the next one come at once.
    public var touched: Int64

    /// Creates a claim.
    public init(user: String, checkedUntil: Date, touched: Int64) {
        self.user = user
        self.checkedUntil = checkedUntil
        self.touched = touched
    }
}
