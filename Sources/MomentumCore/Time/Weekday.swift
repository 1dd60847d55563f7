/// A day of the week, numbered as in ISO 8601 (Monday is 1, Sunday is 7).
///
/// Encodes to JSON as its lowercase English name (`"monday"`).
public enum Weekday: Int, CaseIterable, Comparable, Sendable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The lowercase English name, as used in JSON.
    public var name: String {
        switch self {
        case .monday: "monday"
        case .tuesday: "tuesday"
        case .wednesday: "wednesday"
        case .thursday: "thursday"
        case .friday: "friday"
        case .saturday: "saturday"
        case .sunday: "sunday"
        }
    }

    /// Looks a weekday up by its English name or three-letter abbreviation, in any case.
    public init?(name: String) {
        let lower = name.lowercased()
        guard let day = Weekday.allCases.first(where: { $0.name == lower || $0.name.prefix(3) == lower }) else {
            return nil
        }
        self = day
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Weekday: Codable {
    /// Decodes the value from its JSON form, described in the type's documentation.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = Weekday(name: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a weekday (monday … sunday)")
        }
        self = day
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
