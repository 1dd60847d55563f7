/// Why a notification was not sent, as a stable code the console and the admin API count
/// by.
public enum NotificationDropReason: String, CaseIterable, Sendable, Codable {
    /// The scheduler found it after it stopped making sense (the day it was about ended).
    case stale
    /// The user turned its kind or channel off.
    case preferences
    /// The user's daily cap was reached.
    case dailyCap = "daily_cap"
    /// It expired while the user's quiet hours held it.
    case quietHours = "quiet_hours"
    /// It expired before it could be sent (a sender was down, retries took too long).
    case expired
    /// Its device or webhook is gone.
    case noTarget = "no_target"
    /// Its webhook is disabled.
    case webhookDisabled = "webhook_disabled"
    /// Its webhook does not take its kind.
    case notSubscribed = "not_subscribed"
    /// This server does not send on its channel.
    case channelOff = "channel_off"
    /// Another reason.
    case other

    /// The code of a sender's drop reason (the words ``Deliveries`` records with it).
    public init(recorded reason: String) {
        if reason.hasPrefix("turned off") {
            self = .preferences
        } else if reason.hasPrefix("the daily cap") {
            self = .dailyCap
        } else if reason == "expired during quiet hours" {
            self = .quietHours
        } else if reason.hasPrefix("expired") {
            self = .expired
        } else if reason.hasPrefix("gone: ") || reason.hasSuffix(" was removed") {
            self = .noTarget
        } else if reason == "the webhook is disabled" {
            self = .webhookDisabled
        } else if reason.hasPrefix("the webhook does not take") {
            self = .notSubscribed
        } else if reason.hasPrefix("this server does not send") || reason.hasPrefix("the inbox is not") {
            self = .channelOff
        } else {
            self = .other
        }
    }

    /// A few words for the console.
    public var words: String {
        switch self {
        case .stale: "stale: found after it stopped making sense"
        case .preferences: "turned off in the user's preferences"
        case .dailyCap: "daily cap reached"
        case .quietHours: "expired during quiet hours"
        case .expired: "expired before it could be sent"
        case .noTarget: "no target: device or webhook gone"
        case .webhookDisabled: "webhook disabled"
        case .notSubscribed: "webhook does not take the kind"
        case .channelOff: "channel not sent by this server"
        case .other: "other"
        }
    }
}
