import Foundation

/// A user's zone and day-start hour, kept by a ``CelebrationPlanner`` to count tier-3
/// celebrations per local day.
///
/// Encoded as the zone's identifier and the hour; decoding looks the zone up again.
struct ZonedDayClock: Sendable {
    var zone: ZoneOffsetTable
    var clock: DayClock

    /// The user's local day at an instant.
    func day(of instant: Date) -> LocalDay {
        clock.localDay(of: instant, in: zone)
    }
}

extension ZonedDayClock: Hashable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.zone.identifier == rhs.zone.identifier && lhs.clock == rhs.clock
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(zone.identifier)
        hasher.combine(clock)
    }
}

extension ZonedDayClock: Codable {
    private enum CodingKeys: String, CodingKey {
        case zone
        case dayStartHour
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let identifier = try container.decode(String.self, forKey: .zone)
        // Tables built from a fixed-offset zone are not served by `named(_:)`.
        guard
            let zone = ZoneOffsetTable.named(identifier)
                ?? TimeZone(identifier: identifier).map(ZoneOffsetTable.init(zone:))
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .zone, in: container, debugDescription: "'\(identifier)' is not a known time zone")
        }
        self.zone = zone
        self.clock = DayClock(dayStartHour: try container.decode(Int.self, forKey: .dayStartHour))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(zone.identifier, forKey: .zone)
        try container.encode(clock.dayStartHour, forKey: .dayStartHour)
    }
}
