/// How a habit's streak reacts to missed periods — data, not code.
///
/// Two presets cover the seeds: ``forgiving`` (the default for new habits) and ``strict``.
/// A pack or a habit may define others in JSON without new code:
/// `{"grace": 2, "penalty": {"decrement": 1}, "freezes": "automatic"}`.
///
/// For each missed period, in order: a streak already at 0 stays at 0 (no grace, no freeze
/// is spent); the first `grace` misses of a gap change nothing; then a freeze from the
/// user's shared pool protects the period if one is available (``FreezeUse``); otherwise
/// the ``MissPenalty`` applies, never taking the streak below 0.
public struct StreakPolicy: Hashable, Sendable {
    /// What an unprotected miss does to the streak.
    public enum MissPenalty: Hashable, Sendable {
        /// The streak goes back to 0.
        case reset
        /// The streak loses this many periods, down to 0 at most.
        case decrement(Int)
    }

    /// How the shared freeze pool is used for this habit.
    public enum FreezeUse: String, Hashable, Sendable, Codable {
        /// A freeze is taken from the pool automatically (seed 003).
        case automatic
        /// The user is offered the freeze; an offer not answered by the end of the next
        /// local day is accepted (seed 004).
        case offered
        /// Freezes never protect this habit.
        case never
    }

    /// The preset's name (`forgiving`, `strict`), or `nil` for a custom policy.
    public var name: String?
    /// How many missed periods at the start of each gap are forgiven without penalty.
    public var grace: Int
    /// What a miss that is neither grace nor frozen does.
    public var penalty: MissPenalty
    /// Whether and how freezes protect misses.
    public var freezes: FreezeUse

    /// Creates a policy.
    public init(name: String? = nil, grace: Int, penalty: MissPenalty, freezes: FreezeUse) {
        self.name = name
        self.grace = grace
        self.penalty = penalty
        self.freezes = freezes
    }

    /// Seed 003: +1 per completed period; the first miss of a gap is grace; each further
    /// miss spends a freeze from the shared pool if there is one, else costs −1; never below 0.
    public static let forgiving = StreakPolicy(name: "forgiving", grace: 1, penalty: .decrement(1), freezes: .automatic)

    /// Seed 004: a miss resets the streak to 0 unless a freeze, offered to the user, protects it.
    public static let strict = StreakPolicy(name: "strict", grace: 0, penalty: .reset, freezes: .offered)

    /// The presets by name.
    public static let presets: [String: StreakPolicy] = ["forgiving": .forgiving, "strict": .strict]
}

extension StreakPolicy: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case name, grace, penalty, freezes }
    private enum PenaltyKeys: String, CodingKey { case decrement }

    /// Decodes the value from its JSON form, described in the type's documentation.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            guard let preset = StreakPolicy.presets[name] else {
                throw DecodingError.dataCorruptedError(
                    in: single, debugDescription: "unknown streak policy '\(name)' (forgiving, strict)")
            }
            self = preset
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try UnknownFields.refuse(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        let grace = try c.decodeIfPresent(Int.self, forKey: .grace) ?? 0
        guard (0...EventLimits.maximumGrace).contains(grace) else {
            throw DecodingError.dataCorruptedError(
                forKey: .grace, in: c,
                debugDescription: "grace must be a whole number from 0 to \(EventLimits.maximumGrace)")
        }
        let penalty: MissPenalty
        if let word = try? c.decode(String.self, forKey: .penalty) {
            guard word == "reset" else {
                throw DecodingError.dataCorruptedError(
                    forKey: .penalty, in: c, debugDescription: "penalty is \"reset\" or {\"decrement\": N}")
            }
            penalty = .reset
        } else {
            let p = try c.nestedContainer(keyedBy: PenaltyKeys.self, forKey: .penalty)
            try UnknownFields.refuse(in: try c.superDecoder(forKey: .penalty), known: ["decrement"])
            let n = try p.decode(Int.self, forKey: .decrement)
            guard (1...EventLimits.maximumDecrement).contains(n) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .decrement, in: p,
                    debugDescription: "decrement must be a whole number from 1 to \(EventLimits.maximumDecrement)")
            }
            penalty = .decrement(n)
        }
        self.init(
            name: try c.decodeIfPresent(String.self, forKey: .name), grace: grace, penalty: penalty,
            freezes: try c.decodeIfPresent(FreezeUse.self, forKey: .freezes) ?? .automatic)
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        if let name, StreakPolicy.presets[name] == self {
            var single = encoder.singleValueContainer()
            try single.encode(name)
            return
        }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encode(grace, forKey: .grace)
        switch penalty {
        case .reset: try c.encode("reset", forKey: .penalty)
        case .decrement(let n): try c.encode(DecrementPenalty(decrement: n), forKey: .penalty)
        }
        try c.encode(freezes, forKey: .freezes)
    }
}

/// `{"decrement": n}`, the way a decrementing penalty is written.
private struct DecrementPenalty: Encodable {
    var decrement: Int
}
