/// A diamond reward for reaching a streak that is a multiple of ``every``.
///
/// Rewards are paid only for streak values above the habit's `highestStreakAchieved`, so
/// losing and rebuilding a streak never pays twice (seed 003). The `habits` pack has two:
/// +20 at every multiple of 10, and +N at every multiple N of 100 (90 → 100 pays 120).
///
/// A reward may be limited to habits of one ``Difficulty``: the `habits` pack pays a bonus
/// of 30 diamonds at every 30 streak periods of a hard habit, the extra recognition seed 004
/// asks for sustained hard habits (requirement 9.5). Such payouts are ledgered as
/// ``LedgerEntry/Source/difficultyBonus``.
///
/// JSON: `{"every": 10, "diamonds": 20}`, `{"every": 100, "diamonds": "streak"}` or
/// `{"every": 30, "diamonds": 30, "difficulty": "hard"}`.
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
    /// Only habits of this difficulty earn it; `nil` for every habit.
    public var difficulty: Difficulty?

    /// Creates a reward rule.
    public init(every: Int, diamonds: Amount, difficulty: Difficulty? = nil) {
        self.every = every
        self.diamonds = diamonds
        self.difficulty = difficulty
    }

    /// The diamonds paid for reaching `streak` on a habit of `difficulty`, or 0 if the streak
    /// is not a multiple of ``every`` or the reward is for another difficulty.
    public func payout(at streak: Int, difficulty: Difficulty = .medium) -> Int {
        guard streak > 0, streak % every == 0, self.difficulty == nil || self.difficulty == difficulty else { return 0 }
        switch diamonds {
        case .fixed(let n): return n
        case .streakValue: return streak
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case every, diamonds, difficulty }

    /// The fields of its JSON object, for an upload's check of unknown fields.
    static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

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
        difficulty = try c.decodeIfPresent(Difficulty.self, forKey: .difficulty)
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(every, forKey: .every)
        switch diamonds {
        case .fixed(let n): try c.encode(n, forKey: .diamonds)
        case .streakValue: try c.encode("streak", forKey: .diamonds)
        }
        try c.encodeIfPresent(difficulty, forKey: .difficulty)
    }
}
