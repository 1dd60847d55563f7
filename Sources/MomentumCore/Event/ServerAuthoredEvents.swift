import Foundation

/// Diamonds and freezes an operator gives a user: `{"type": "grant", "diamonds": 50,
/// "freezes": 2, "reason": "Sorry about the outage", "operator": "op_1"}`.
///
/// Written by the server only (``Event/Payload/isServerAuthored``). The wallet credits them
/// with a ledger entry of their own (``LedgerEntry/Source/grant``) whose reason is
/// the grant's.
public struct Grant: Hashable, Sendable {
    /// Diamonds given, 0…``maximumDiamonds``.
    public var diamonds: Int
    /// Freezes given, 0…``maximumFreezes`` (not both 0).
    public var freezes: Int
    /// Why, for the user and the audit: 1…200 characters, no control characters.
    public var reason: String
    /// The operator who gave them, if known.
    public var operatorID: String?

    /// The most diamonds one grant gives.
    public static let maximumDiamonds = 100_000
    /// The most freezes one grant gives.
    public static let maximumFreezes = 1_000

    /// Creates a grant.
    public init(diamonds: Int, freezes: Int, reason: String, operatorID: String? = nil) {
        self.diamonds = diamonds
        self.freezes = freezes
        self.reason = reason
        self.operatorID = operatorID
    }

    /// What is wrong with the grant, as a field and a reason, or `nil` when it is valid.
    public var problem: (field: String, reason: String)? {
        if !(0...Self.maximumDiamonds).contains(diamonds) {
            return ("diamonds", "diamonds is a whole number from 0 to \(Self.maximumDiamonds)")
        }
        if !(0...Self.maximumFreezes).contains(freezes) {
            return ("freezes", "freezes is a whole number from 0 to \(Self.maximumFreezes)")
        }
        if diamonds == 0, freezes == 0 { return ("diamonds", "a grant gives diamonds, freezes or both") }
        if let problem = ServerText.problem(reason, "reason") { return ("reason", problem) }
        if let operatorID, let problem = ServerText.problem(operatorID, "operator", maximum: 128) {
            return ("operator", problem)
        }
        return nil
    }
}

/// The rewards a user had earned under a pack's earlier rules, kept when a new version of
/// the pack is activated: `{"type": "rewards.kept", "pack": "habits", "version": "1.1.0",
/// "unlocks": [{"rule": "streak-7", "key": "streak-7", "title": "7-Day Streak", "at":
/// "2026-03-14T08:30:00Z"}], "diamondsEarned": 120, "freezesEarned": 2}`.
///
/// Written by the server only (``Event/Payload/isServerAuthored``), so that a rule change
/// never takes away a reward already earned. The engine adds each listed unlock it has not
/// earned by itself (marked kept, with its title and date, never celebrated again), and
/// when the diamonds or freezes earned by rewards (not purchases, not grants) up to this
/// event fall short of the numbers given, credits the shortfall
/// (``LedgerEntry/Source/kept``). Under the rules that earned them it changes
/// nothing.
public struct KeptRewards: Hashable, Sendable {
    /// One unlock kept.
    public struct KeptUnlock: Hashable, Sendable {
        /// The rule that fired.
        public var rule: String
        /// The unlock's key (``Unlock/id``).
        public var key: String
        /// The title it had.
        public var title: String
        /// When it happened.
        public var at: Date

        /// Creates a kept unlock.
        public init(rule: String, key: String, title: String, at: Date) {
            self.rule = rule
            self.key = key
            self.title = title
            self.at = at
        }
    }

    /// The pack whose rules changed (`habits`).
    public var pack: String
    /// The pack's version being activated (`1.1.0`).
    public var version: String
    /// The unlocks earned before, at most ``maximumUnlocks``.
    public var unlocks: [KeptUnlock]
    /// Diamonds earned by rewards before, 0…``maximumDiamonds``.
    public var diamondsEarned: Int
    /// Freezes earned by rewards before, 0…``maximumFreezes``.
    public var freezesEarned: Int

    /// The most unlocks one event keeps.
    public static let maximumUnlocks = 1_000
    /// The largest number of diamonds one event keeps.
    public static let maximumDiamonds = 100_000_000
    /// The largest number of freezes one event keeps.
    public static let maximumFreezes = 1_000_000

    /// Creates a set of kept rewards.
    public init(pack: String, version: String, unlocks: [KeptUnlock], diamondsEarned: Int, freezesEarned: Int) {
        self.pack = pack
        self.version = version
        self.unlocks = unlocks
        self.diamondsEarned = diamondsEarned
        self.freezesEarned = freezesEarned
    }

    /// What is wrong with the kept rewards, as a field and a reason, or `nil` when valid.
    public var problem: (field: String, reason: String)? {
        if let problem = ServerText.problem(pack, "pack", maximum: 64) { return ("pack", problem) }
        if let problem = ServerText.problem(version, "version", maximum: 32) { return ("version", problem) }
        if unlocks.count > Self.maximumUnlocks {
            return ("unlocks", "at most \(Self.maximumUnlocks) unlocks are kept at once")
        }
        for (index, unlock) in unlocks.enumerated() {
            for (name, text, maximum) in [
                ("rule", unlock.rule, 128), ("key", unlock.key, 128), ("title", unlock.title, 200),
            ] {
                if let problem = ServerText.problem(text, "unlocks[\(index)].\(name)", maximum: maximum) {
                    return ("unlocks", problem)
                }
            }
            if unlock.at < EventLimits.earliestInstant || unlock.at >= EventLimits.instantLimit {
                return ("unlocks", "unlocks[\(index)].at is outside the instants an event may name")
            }
        }
        if Set(unlocks.map(\.key)).count != unlocks.count { return ("unlocks", "each unlock key is kept once") }
        if !(0...Self.maximumDiamonds).contains(diamondsEarned) {
            return ("diamondsEarned", "diamondsEarned is a whole number from 0 to \(Self.maximumDiamonds)")
        }
        if !(0...Self.maximumFreezes).contains(freezesEarned) {
            return ("freezesEarned", "freezesEarned is a whole number from 0 to \(Self.maximumFreezes)")
        }
        return nil
    }
}

/// An outage an operator declared: `{"type": "amnesty", "amnesty": "am_1", "start":
/// "2026-03-14T02:00:00Z", "end": "2026-03-14T09:00:00Z", "reason": "Sync was down"}`.
///
/// Written by the server only (``Event/Payload/isServerAuthored``). Every local day of every
/// habit that the window touches (in the event's zone and the user's day start hour, as
/// every day is computed) and that is not completed shows ``DayState/covered``: the streak
/// stands across it as across a rest day, with no freeze spent and nothing added (see
/// ``DayState/covered``). An `amnesty.lifted` event naming it undoes it as if it never was.
public struct Amnesty: Hashable, Sendable {
    /// The amnesty's id (the wire field `amnesty`); `amnesty.lifted` names it.
    public var id: String
    /// When the outage began.
    public var start: Date
    /// When it ended: after ``start``, at most ``maximumLength`` later.
    public var end: Date
    /// Why, shown with the covered days: 1…200 characters, no control characters.
    public var reason: String

    /// The longest window: 31 days.
    public static let maximumLength: TimeInterval = 31 * 86_400

    /// Creates an amnesty.
    public init(id: String, start: Date, end: Date, reason: String) {
        self.id = id
        self.start = start
        self.end = end
        self.reason = reason
    }

    /// What is wrong with the amnesty, as a field and a reason, or `nil` when it is valid.
    public var problem: (field: String, reason: String)? {
        if let problem = Event.idProblem(id) { return ("amnesty", "amnesty " + problem) }
        if TextRules.hasControlCharacter(id) { return ("amnesty", TextRules.controlCharacterMessage("amnesty")) }
        for (name, instant) in [("start", start), ("end", end)]
        where instant < EventLimits.earliestInstant || instant >= EventLimits.instantLimit {
            return (name, "\(name) is outside the instants an event may name")
        }
        guard end > start else { return ("end", "end must be after start") }
        guard end.timeIntervalSince(start) <= Self.maximumLength else {
            return ("end", "an amnesty lasts at most 31 days")
        }
        if let problem = ServerText.problem(reason, "reason") { return ("reason", problem) }
        return nil
    }
}

/// The checks of the texts server-written events carry.
enum ServerText {
    /// Why `text` cannot be the field `name` (1…`maximum` characters, no control
    /// characters), or `nil`.
    static func problem(_ text: String, _ name: String, maximum: Int = 200) -> String? {
        if text.isEmpty || text.count > maximum { return "\(name) is 1…\(maximum) characters" }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "\(name) must not be blank" }
        if TextRules.hasControlCharacter(text) { return TextRules.controlCharacterMessage(name) }
        return nil
    }
}
