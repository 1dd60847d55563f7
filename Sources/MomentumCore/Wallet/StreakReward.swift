/// A diamond reward for reaching a streak that is a multiple of ``every``.
///
/// Rewards are paid only for streak values above the habit's `highestStreakAchieved`, so
/// losing and rebuilding a streak never pays twice (seed 003). The `habits` pack has two:
/// +20 at every multiple of 10, and +N at every multiple N of 100 (90 → 100 pays 120).
///
/// JSON: `{"every": 10, "diamonds": 20}` or `{"every": 100, "diamonds": "streak"}`.
public struct StreakReward: Hashable, Sendable, Codable {
    /// How many diamonds a reward pays.
    public enum Amount: Hashable, Sendable {
        /// A fixed number.
        case fixed(Int)
        /// As many as the streak value reached (100 at 100, 200 at 200).
        case streakValue
    }

    /// The reward is paid at each multiple of this streak value.
    public var every: Int
    /// How much it pays.
    public var diamonds: Amount

    /// Creates a reward rule.
    public init(every: Int, diamonds: Amount) {
        self.every = every
        self.diamonds = diamonds
    }

    /// The diamonds paid for reaching `streak`, or 0 if it is not a multiple of ``every``.
    public func payout(at streak: Int) -> Int {
        guard streak > 0, streak % every == 0 else { return 0 }
        switch diamonds {
        case .fixed(let n): return n
        case .streakValue: return streak
        }
    }

    private enum CodingKeys: String, CodingKey { case every, diamonds }

    /// Decodes the value from its JSON form, described in the type's documentation.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        every = try c.decode(Int.self, forKey: .every)
        guard every >= 1 else {
            throw DecodingError.dataCorruptedError(forKey: .every, in: c, debugDescription: "every must be ≥ 1")
        }
        if let n = try? c.decode(Int.self, forKey: .diamonds) {
            guard n >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .diamonds, in: c, debugDescription: "diamonds must be ≥ 0")
            }
            diamonds = .fixed(n)
        } else if try c.decode(String.self, forKey: .diamonds) == "streak" {
            diamonds = .streakValue
        } else {
            throw DecodingError.dataCorruptedError(
                forKey: .diamonds, in: c, debugDescription: "diamonds is a number or \"streak\"")
        }
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(every, forKey: .every)
        switch diamonds {
        case .fixed(let n): try c.encode(n, forKey: .diamonds)
        case .streakValue: try c.encode("streak", forKey: .diamonds)
        }
    }
}
