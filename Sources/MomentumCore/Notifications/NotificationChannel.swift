import Foundation

/// Where a notification goes. Every notification a user wants goes to the in-app inbox;
/// the other channels reach the user's devices, each as the user allows (seed 004 R11.5).
public enum NotificationChannel: String, CaseIterable, Hashable, Sendable, Codable {
    /// The inbox behind the web app's bell and `GET /v1/notifications`: always, silently.
    case inApp
    /// A browser's push service (RFC 8030, encrypted per RFC 8291, signed per RFC 8292).
    case webPush
    /// Apple's push notification service, to an iOS app's device token.
    case apns
    /// Firebase Cloud Messaging (HTTP v1), to an Android app's registration token.
    case fcm
    /// The app developer's own service, which delivers it its own way.
    case webhook

    /// Whether the channel interrupts the user (a banner, a sound), so that quiet hours and
    /// the daily cap hold it back. The inbox never does.
    public var interrupts: Bool { self != .inApp }
}

/// What one channel may carry: on or off, and which kinds (`nil`: every kind the user
/// wants).
///
/// JSON: `{"enabled": true, "kinds": ["milestone", "streak-at-risk"]}`.
public struct ChannelPreference: Hashable, Sendable, Codable {
    /// Whether the channel is used at all.
    public var enabled: Bool
    /// The kinds it carries, or `nil` for every kind the user wants.
    public var kinds: Set<NotificationKind>?

    /// Creates a channel preference.
    public init(enabled: Bool = true, kinds: Set<NotificationKind>? = nil) {
        self.enabled = enabled
        self.kinds = kinds
    }

    private enum CodingKeys: String, CodingKey { case enabled, kinds }

    /// Decodes a channel preference; `enabled` defaults to `true`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        kinds = try c.decodeIfPresent([NotificationKind].self, forKey: .kinds).map(Set.init)
    }

    /// Encodes the preference, kinds in a stable order.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(enabled, forKey: .enabled)
        try c.encodeIfPresent(kinds.map { $0.sorted { $0.rawValue < $1.rawValue } }, forKey: .kinds)
    }
}

/// The hours in which nothing interrupts: from a local time of day to another, overnight
/// when `from` is later than `to` (22:00 to 07:00).
///
/// A notification meant for a device during quiet hours waits for them to end and goes then
/// if it still makes sense; the inbox has it at once.
public struct QuietHours: Hashable, Sendable, Codable {
    /// The first quiet minute after local midnight (0–1439).
    public var from: Int
    /// The first minute that is no longer quiet (0–1439).
    public var to: Int

    /// Creates quiet hours from minutes after local midnight.
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// What is wrong with these hours, in a sentence; `nil` when nothing is.
    public var problem: String? {
        if !(0..<1440).contains(from) || !(0..<1440).contains(to) { return "quiet hours must be times of day" }
        if from == to { return "quiet hours must not start and end at the same time" }
        return nil
    }

    /// Whether a local minute of the day is quiet.
    public func contains(minute: Int) -> Bool {
        from < to ? (from..<to).contains(minute) : (minute >= from || minute < to)
    }

    /// When the quiet hours around an instant end in a zone, or `nil` when the instant is
    /// not quiet. Local times the clocks skip move forward by the gap.
    public func end(after instant: Date, in zone: ZoneOffsetTable) -> Date? {
        guard problem == nil, !instant.timeIntervalSince1970.isNaN else { return nil }
        // Bounded to ±300,000 years: a clock far off must not trap the conversion.
        let second = Int64(min(max(instant.timeIntervalSince1970, -1e13), 1e13).rounded(.down))
        let local = second + Int64(zone.offset(atSecond: second))
        let date = Int(local.quotient(dividingBy: 86_400))
        let minute = Int((local - Int64(date) * 86_400) / 60)
        guard contains(minute: minute) else { return nil }
        let endDate = from > to && minute >= from ? date + 1 : date
        return zone.instant(calendarDate: endDate, minute: to)
    }

    private enum CodingKeys: String, CodingKey { case from, to }

    /// Decodes quiet hours written `{"from": "22:00", "to": "07:00"}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func minute(_ key: CodingKeys) throws -> Int {
            let clock = try c.decode(String.self, forKey: key)
            guard let minute = NotificationPreferences.minute(of: clock) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "must be HH:MM (00:00 to 23:59), not '\(clock)'")
            }
            return minute
        }
        from = try minute(.from)
        to = try minute(.to)
    }

    /// Encodes the hours as `HH:MM`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(NotificationPreferences.clock(from), forKey: .from)
        try c.encode(NotificationPreferences.clock(to), forKey: .to)
    }
}

extension ZoneOffsetTable {
    /// The instant a local wall-clock time of a calendar date (days since 1970-01-01)
    /// happens in this zone: a time the clocks skip moves forward by the gap, a time that
    /// happens twice is the first.
    public func instant(calendarDate: Int, minute: Int) -> Date {
        let local = Int64(calendarDate) * 86_400 + Int64(min(max(minute, 0), 1439)) * 60
        return Date(timeIntervalSince1970: TimeInterval(instants(reading: local).later))
    }
}

extension Int64 {
    /// Division rounded toward negative infinity (a local second before 1970 belongs to
    /// the day before).
    fileprivate func quotient(dividingBy divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}
