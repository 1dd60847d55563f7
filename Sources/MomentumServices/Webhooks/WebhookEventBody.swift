import Foundation
import MomentumCore
import MomentumStore

/// The body of an event message, Standard Webhooks style: `{"type", "timestamp", "data"}`.
///
/// `timestamp` is when it happened (RFC 3339, UTC); `data` holds the user's id, the habit
/// and what changed, per type (``Fields``). A field without a value is left out.
public struct WebhookEventBody: Codable, Hashable, Sendable {
    /// The event type (`unlock.created`, …).
    public var type: String
    /// When it happened.
    public var timestamp: Date
    /// What happened.
    public var data: Fields

    /// What happened: the fields of every type, each present where its type has it.
    public struct Fields: Codable, Hashable, Sendable {
        /// The user's id.
        public var user: String
        /// The app's own id for the user, when the app's backend made the user with a server
        /// key (`/v1/server/users/{appUserId}/…`).
        public var appUserId: String?
        /// The habit concerned (streaks; an unlock's, when it has one).
        public var habit: String?
        /// The habit's name.
        public var habitName: String?
        /// The streak's length (in the habit's unit): the one started (1 or more, counting
        /// backdated days), lost, or kept by the freeze.
        public var streak: Int?
        /// The best streak the habit ever had (`streak.lost`).
        public var best: Int?
        /// The local day it concerns: the streak's first day (`streak.started`), the day
        /// missed (`streak.lost`), the day a freeze covered (`streak.frozen`), the day an
        /// unlock was achieved.
        public var day: String?
        /// `unlock.created`: the unlock's id, rule, title, category, milestone type and value.
        public var unlock: Unlock?
        /// `purchase.created`: the event id, catalog item or custom days, and the wallet after.
        public var purchase: Purchase?
        /// `review_flag.raised`: the flag.
        public var flag: Flag?

        /// Creates data for a user.
        public init(user: String, appUserId: String? = nil) {
            self.user = user
            self.appUserId = appUserId
        }
    }

    /// An unlock's fields.
    public struct Unlock: Codable, Hashable, Sendable {
        /// The unlock's id.
        public var id: String
        /// The rule that granted it.
        public var rule: String
        /// Its title.
        public var title: String
        /// Its category.
        public var category: String
        /// `streak`, `total`, `custom`, …
        public var milestoneType: String
        /// The value reached, when it counts one.
        public var value: Double?
        /// Whether it was found in history sent late.
        public var retroactive: Bool
        /// The subject concerned, if any.
        public var subject: String?
    }

    /// A purchase's fields.
    public struct Purchase: Codable, Hashable, Sendable {
        /// The purchase event's id.
        public var event: String
        /// The catalog item bought, if any.
        public var item: String?
        /// The freezes bought at the custom price, if so.
        public var days: Int?
        /// Diamonds after the push that made it.
        public var diamonds: Int
        /// Freezes after the push that made it.
        public var freezes: Int
    }

    /// A review flag's fields.
    public struct Flag: Codable, Hashable, Sendable {
        /// The flag's id.
        public var id: String
        /// `burst`, `backfills` or `time_zone_hop`.
        public var kind: String
        /// What was seen.
        public var detail: String
        /// The events it concerns.
        public var events: [String]
    }

    /// Creates a body.
    public init(type: WebhookEventType, timestamp: Date, data: Fields) {
        self.type = type.rawValue
        self.timestamp = timestamp
        self.data = data
    }

    /// The JSON posted: keys sorted, the timestamp in whole seconds, RFC 3339 UTC.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
            try container.encode(whole.formatted(.iso8601))
        }
        // Every field is a string, number, boolean or array of those: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
