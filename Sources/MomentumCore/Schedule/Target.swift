/// What a day needs for the habit to count as done on it.
///
/// JSON: absent (any completion counts), `{"atLeast": 8, "unit": "glasses"}` or
/// `{"atMost": 2, "unit": "coffees"}`. Completions carry a `value` (default 1) and a day's
/// values are added up. Amounts are at most ``EventLimits/maximumValue``.
///
/// An *at least* day is done as soon as its total reaches the target. An *at most* day is
/// judged when it is over: it is done if something was logged (possibly `0`) and the total
/// stayed within the limit; a day with nothing logged is a miss, because the user never
/// checked in.
public struct Target: Hashable, Sendable, Codable {
    /// How the day's total is compared with `amount`.
    public enum Comparison: String, Hashable, Sendable, Codable {
        /// Any completion counts.
        case check
        /// The total must reach `amount`.
        case atLeast
        /// Something must be logged and the total must not exceed `amount`.
        case atMost
    }

    /// The comparison.
    public var comparison: Comparison
    /// The threshold; 1 for `check`.
    public var amount: Double
    /// A unit shown to the user ("glasses", "minutes"), if any.
    public var unit: String?

    /// Any completion counts.
    public static let check = Target(comparison: .check, amount: 1, unit: nil)

    /// Creates a target.
    public init(comparison: Comparison, amount: Double, unit: String? = nil) {
        self.comparison = comparison
        self.amount = amount
        self.unit = unit
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case atLeast, atMost, unit }

    /// Decodes the value from its JSON form, described in the type's documentation.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try UnknownFields.refuse(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        let unit = try c.decodeIfPresent(String.self, forKey: .unit)
        switch (
            try c.decodeIfPresent(Double.self, forKey: .atLeast), try c.decodeIfPresent(Double.self, forKey: .atMost)
        ) {
        case (let value?, nil):
            guard value.isFinite, value > 0, value <= EventLimits.maximumValue else {
                throw DecodingError.dataCorruptedError(
                    forKey: .atLeast, in: c,
                    debugDescription: EventLimits.numberMessage(
                        "atLeast", 0...EventLimits.maximumValue, exclusiveLower: true))
            }
            self.init(comparison: .atLeast, amount: value, unit: unit)
        case (nil, let value?):
            guard value.isFinite, (0...EventLimits.maximumValue).contains(value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .atMost, in: c,
                    debugDescription: EventLimits.numberMessage("atMost", 0...EventLimits.maximumValue))
            }
            self.init(comparison: .atMost, amount: value, unit: unit)
        case (nil, nil): self.init(comparison: .check, amount: 1, unit: unit)
        case (_?, _?):
            throw DecodingError.dataCorruptedError(
                forKey: .atMost, in: c, debugDescription: "a target has either atLeast or atMost, not both")
        }
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch comparison {
        case .check: break
        case .atLeast: try c.encode(amount, forKey: .atLeast)
        case .atMost: try c.encode(amount, forKey: .atMost)
        }
        try c.encodeIfPresent(unit, forKey: .unit)
    }
}
