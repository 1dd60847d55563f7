import Foundation

/// The data that configures the engine for one kind of app.
///
/// A pack holds everything an app may tune without code: the default streak policy, the
/// backfill window, diamond rewards, earned freezes, the store, streak milestones, the
/// achievements and the progression methods. Packs are JSON documents; every field but
/// `name` is optional:
///
/// ```json
/// {
///   "name": "ollie",
///   "version": "1.2.0",
///   "defaultPolicy": "forgiving",
///   "backfillDays": null,
///   "futureToleranceSeconds": 300,
///   "offlineDays": 14,
///   "rewards": [{"every": 10, "diamonds": 20}],
///   "earnedFreezeEvery": 30,
///   "store": {"items": [{"id": "5", "freezes": 5, "diamonds": 50}], "customPricePerFreeze": 10},
///   "streakMilestones": [7, 30, 60, 100, 365],
///   "achievements": [{"id": "first-walk", "kind": "first", "title": "First walk",
///                     "category": "lifestyle", "tier": 2, "match": {"kind": "walk"}}],
///   "methods": [{"id": "reading", "name": "Reading", "stages": [{"id": "a", "name": "A", "order": 1}]}]
/// }
/// ```
///
/// ``decode(_:source:)`` checks a document and names the file, the field and the reason of
/// the first problem. The bundled packs are `habits` (seeds 003 and 004), `ollie` (seed
/// 000), `savings` (seed 002) and `growth` (seed 001); see ``bundled``.
public struct RulePack: Hashable, Sendable {
    /// The pack's name (`habits`, `ollie`, …).
    public var name: String
    /// The pack's version, a semantic version (``SemanticVersion``; `1.0.0` when the
    /// document names none).
    ///
    /// It changes with any change to what the pack makes the engine compute (a policy, a
    /// window, a reward, a rule, a method's stages): the patch for a correction, the minor
    /// for something new, the major when a log would mean something else. A change to a
    /// title, a label or an icon alone leaves it. A combination's version is its members'
    /// joined by `+` (`1.0.0+1.2.0`), for display; ``memberVersions`` holds them by name,
    /// and that is what states travel with (``RuleVersions``).
    public var version: String = Self.defaultVersion
    /// The version of a pack whose document names none.
    public static let defaultVersion = "1.0.0"
    /// The policy for habits that do not name one.
    public var defaultPolicy: StreakPolicy
    /// How many days back a completion or activity may be logged; `nil` for no limit
    /// (journals).
    public var backfillDays: Int?
    /// How far in the future, in seconds, a timestamp may lie (clock skew between devices).
    public var futureToleranceSeconds: Int
    /// How many days before its arrival an event's `at` may lie: the longest a device may
    /// stay offline and still sync what it logged (at least ``minimumOfflineDays``, the week
    /// the sync promises; 14 by default). Events older than that, or older than the account,
    /// are refused when they arrive from a client; `day` backdating is ``backfillDays``'s.
    public var offlineDays: Int = 14
    /// The smallest ``offlineDays`` a pack may set: a week of offline use.
    public static let minimumOfflineDays = 7
    /// Diamond rewards for streak milestones.
    public var rewards: [StreakReward]
    /// One freeze is earned at every new multiple of this streak value; `nil` for none.
    public var earnedFreezeEvery: Int?
    /// The freeze store.
    public var store: StoreCatalog
    /// Streak values that earn a milestone badge (seed 004: 7, 30, 60, 100 and 365).
    public var streakMilestones: [Int]
    /// The achievements.
    public var achievements: [AchievementRule]
    /// The progression methods (seed 001).
    public var methods: [ProgressionMethod]
    /// What an app calls the pack (`Puppy journal`); its name when the document says nothing.
    public var title: String
    /// An emoji for the pack's section.
    public var icon: String?
    /// How the pack's events are logged: forms an app renders without code of its own.
    public var forms: [LogForm] = []
    /// The event types the pack is for (`completion`, `log`, `contribution`, …). In a
    /// ``combining(_:)`` of packs, each type takes the backfill window of the first member
    /// that lists it.
    public var eventTypes: [String] = []
    /// The packs a combination is made of, in order (empty for a single pack).
    private var parts: [RulePack] = []
    /// The packs this one is made of, in order: its members for a combination, itself alone
    /// otherwise.
    public var members: [RulePack] { parts.isEmpty ? [self] : parts }
    /// Backfill windows by event type, for a combination (`.some(nil)`: no limit).
    private var backfillByType: [String: Int?] = [:]
    /// The language of the pack's titles, labels and names (see ``translated(_:)``), and of
    /// the numbers, amounts, ages and units its achievement titles are filled with. Not
    /// encoded: a decoded pack is English.
    public internal(set) var translation: Translation = .english
    /// The English pack a translated one was made from (empty for an English pack), so that
    /// translating again starts from the source.
    var englishSource: [RulePack] = []

    /// Creates a pack.
    public init(
        name: String, defaultPolicy: StreakPolicy = .forgiving, backfillDays: Int? = 1,
        futureToleranceSeconds: Int = 300, rewards: [StreakReward] = [], earnedFreezeEvery: Int? = nil,
        store: StoreCatalog = .standard, streakMilestones: [Int] = [7, 30, 60, 100, 365],
        achievements: [AchievementRule] = [], methods: [ProgressionMethod] = []
    ) {
        self.name = name
        self.defaultPolicy = defaultPolicy
        self.backfillDays = backfillDays
        self.futureToleranceSeconds = futureToleranceSeconds
        self.rewards = rewards
        self.earnedFreezeEvery = earnedFreezeEvery
        self.store = store
        self.streakMilestones = streakMilestones
        self.achievements = achievements
        self.methods = methods
        self.title = name
    }

    /// How many days back an event of `type` may be logged: its owner's window in a
    /// combination, ``backfillDays`` otherwise; `nil` for no limit.
    public func backfillDays(forEventType type: String) -> Int? {
        backfillByType[type] ?? backfillDays
    }

    /// The name of the pack whose rules an event type follows (for messages).
    public func owner(ofEventType type: String) -> String {
        parts.first { $0.eventTypes.contains(type) }?.name ?? name
    }

    /// The names of the packs this one is made of (`["habits", "ollie"]`; `[name]` alone).
    public var memberNames: [String] { members.map(\.name) }

    /// The version of each pack this one is made of, by name (`["habits": "1.0.0"]`).
    public var memberVersions: [String: String] {
        Dictionary(members.map { ($0.name, $0.version) }, uniquingKeysWith: { first, _ in first })
    }

    /// Several packs as one, for an account that tracks habits, a puppy, savings and growth
    /// at once. The combination is named `habits+ollie`; it holds every member's
    /// achievements, methods and forms; its habit settings (default policy, rewards,
    /// earned freezes, store, streak milestones) are those of the first member that is for
    /// completions; each event type keeps the backfill window of the first member that
    /// lists it; a device may stay offline as long as the most lenient member allows.
    ///
    /// - Precondition: `packs` is not empty, and achievement ids and method ids are unique
    ///   across them (true of the bundled packs; `RulePackTests` holds them to it).
    public static func combining(_ packs: [RulePack]) -> RulePack {
        precondition(!packs.isEmpty, "a combination needs at least one pack")
        if packs.count == 1 { return packs[0] }
        let habits = packs.first { $0.eventTypes.contains("completion") } ?? packs[0]
        var pack = RulePack(
            name: packs.map(\.name).joined(separator: "+"), defaultPolicy: habits.defaultPolicy,
            backfillDays: habits.backfillDays,
            futureToleranceSeconds: packs.map(\.futureToleranceSeconds).min() ?? habits.futureToleranceSeconds,
            rewards: habits.rewards, earnedFreezeEvery: habits.earnedFreezeEvery, store: habits.store,
            streakMilestones: habits.streakMilestones, achievements: packs.flatMap(\.achievements),
            methods: packs.flatMap(\.methods))
        pack.title = packs.map(\.title).joined(separator: " · ")
        pack.version = packs.map(\.version).joined(separator: "+")
        pack.offlineDays = packs.map(\.offlineDays).max() ?? pack.offlineDays
        pack.forms = packs.flatMap(\.forms)
        pack.parts = packs
        if packs.allSatisfy({ $0.translation == packs[0].translation }) { pack.translation = packs[0].translation }
        for member in packs.reversed() {
            pack.eventTypes = member.eventTypes + pack.eventTypes.filter { !member.eventTypes.contains($0) }
            for type in member.eventTypes { pack.backfillByType[type] = .some(member.backfillDays) }
        }
        return pack
    }

    /// The bundled packs' names in the order a combination lists them.
    public static let bundledOrder = ["habits", "ollie", "savings", "growth"]

    /// Every bundled pack and every combination of them, by canonical name.
    private static let named: [String: RulePack] = {
        var all: [String: RulePack] = [:]
        for mask in 1..<(1 << bundledOrder.count) {
            let packs = bundledOrder.indices.filter { mask & (1 << $0) != 0 }.compactMap { bundled[bundledOrder[$0]] }
            let pack = combining(packs)
            all[pack.name] = pack
        }
        return all
    }()

    /// A bundled pack (`ollie`) or a combination of them (`habits+ollie+savings`), in any
    /// order; `nil` when a name is not bundled, repeated or empty.
    public static func named(_ name: String) -> RulePack? {
        guard let names = canonicalNames(name) else { return nil }
        return named[names.joined(separator: "+")]
    }

    /// The pack names of `name` (`ollie+habits`) in canonical order (`["habits", "ollie"]`);
    /// `nil` when one is not bundled, is repeated, or the list is empty.
    public static func canonicalNames(_ name: String) -> [String]? {
        let names = name.split(separator: "+", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !names.isEmpty, Set(names).count == names.count, names.allSatisfy({ bundled[$0] != nil }) else {
            return nil
        }
        return bundledOrder.filter(names.contains)
    }

    /// The packs that ship with Momentum, by name.
    public static let bundled: [String: RulePack] = [
        "habits": .habits, "ollie": .ollie, "savings": .savings, "growth": .growth,
    ]

    /// Decodes and checks a pack document.
    ///
    /// - Parameters:
    ///   - data: The JSON document.
    ///   - source: The file name, for messages.
    /// - Throws: ``MomentumError`` with code `invalid_pack`, naming the file, the field and
    ///   the reason.
    public static func decode(_ data: Data, source: String) throws(MomentumError) -> RulePack {
        let pack: RulePack
        do {
            pack = try JSONDecoder().decode(RulePack.self, from: data)
        } catch let error as DecodingError {
            let (path, reason) = Self.describe(error)
            throw MomentumError(.invalidPack, "\(source): \(path.isEmpty ? "" : "\(path): ")\(reason)", field: path)
        } catch {
            throw MomentumError(.invalidPack, "\(source): \(error)")
        }
        var ids: Set<String> = []
        for (index, rule) in pack.achievements.enumerated() {
            let at = "achievements[\(index)]"
            if let problem = rule.problem {
                throw MomentumError(
                    .invalidPack, "\(source): \(at).\(problem.field): \(problem.reason) (rule '\(rule.id)')",
                    field: "\(at).\(problem.field)")
            }
            if CustomMilestone.isCustom(rule.id) {
                throw MomentumError(
                    .invalidPack,
                    "\(source): \(at).id: '\(CustomMilestone.rulePrefix)' begins the ids of users' own milestones",
                    field: "\(at).id")
            }
            guard ids.insert(rule.id).inserted else {
                throw MomentumError(
                    .invalidPack, "\(source): \(at).id: '\(rule.id)' is used twice", field: "\(at).id")
            }
            if rule.kind == .stageReached, let method = rule.method, !pack.methods.contains(where: { $0.id == method })
            {
                throw MomentumError(
                    .invalidPack, "\(source): \(at).method: no method '\(method)' in this pack", field: "\(at).method")
            }
        }
        var formIDs: Set<String> = []
        for (index, form) in pack.forms.enumerated() {
            let at = "forms[\(index)]"
            if let problem = form.problem {
                throw MomentumError(
                    .invalidPack, "\(source): \(at).\(problem.field): \(problem.reason) (form '\(form.id)')",
                    field: "\(at).\(problem.field)")
            }
            guard formIDs.insert(form.id).inserted else {
                throw MomentumError(
                    .invalidPack, "\(source): \(at).id: '\(form.id)' is used twice", field: "\(at).id")
            }
        }
        return pack
    }

    /// The path (`achievements[2].tier`) and the reason of a decoding error, for messages.
    static func describe(_ error: DecodingError) -> (String, String) {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(
                in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), "is required")
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "expected \(type)")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "expected \(type), found null")
        case .dataCorrupted(let context):
            return (path(context.codingPath), context.debugDescription)
        @unknown default:
            return ("", "\(error)")
        }
    }
}

extension RulePack: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, version, defaultPolicy, backfillDays, futureToleranceSeconds, offlineDays, rewards, earnedFreezeEvery
        case store
        case streakMilestones, achievements, methods, title, icon, forms, eventTypes
    }

    /// The fields of a pack's JSON object, for an upload's check of unknown fields.
    static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Decodes a pack; absent fields take the defaults of ``init(name:defaultPolicy:backfillDays:futureToleranceSeconds:rewards:earnedFreezeEvery:store:streakMilestones:achievements:methods:)``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(String.self, forKey: .name),
            defaultPolicy: try c.decodeIfPresent(StreakPolicy.self, forKey: .defaultPolicy) ?? .forgiving,
            backfillDays: c.contains(.backfillDays) ? try c.decodeIfPresent(Int.self, forKey: .backfillDays) : 1,
            futureToleranceSeconds: try c.decodeIfPresent(Int.self, forKey: .futureToleranceSeconds) ?? 300,
            rewards: try c.decodeIfPresent([StreakReward].self, forKey: .rewards) ?? [],
            earnedFreezeEvery: try c.decodeIfPresent(Int.self, forKey: .earnedFreezeEvery),
            store: try c.decodeIfPresent(StoreCatalog.self, forKey: .store) ?? .standard,
            streakMilestones: try c.decodeIfPresent([Int].self, forKey: .streakMilestones) ?? [7, 30, 60, 100, 365],
            achievements: try c.decodeIfPresent([AchievementRule].self, forKey: .achievements) ?? [],
            methods: try c.decodeIfPresent([ProgressionMethod].self, forKey: .methods) ?? [])
        title = try c.decodeIfPresent(String.self, forKey: .title) ?? name
        icon = try c.decodeIfPresent(String.self, forKey: .icon)
        forms = try c.decodeIfPresent([LogForm].self, forKey: .forms) ?? []
        eventTypes = try c.decodeIfPresent([String].self, forKey: .eventTypes) ?? []
        if let version = try c.decodeIfPresent(String.self, forKey: .version) {
            guard SemanticVersion(version) != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .version, in: c, debugDescription: "must be a semantic version such as 1.0.0")
            }
            self.version = version
        }
        if let days = backfillDays, days < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .backfillDays, in: c, debugDescription: "must be ≥ 0 or null")
        }
        if let days = try c.decodeIfPresent(Int.self, forKey: .offlineDays) {
            guard (Self.minimumOfflineDays...3_650).contains(days) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .offlineDays, in: c,
                    debugDescription: "must be from \(Self.minimumOfflineDays) (a week offline) to 3650 days")
            }
            offlineDays = days
        }
    }

    /// Encodes every field.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(version, forKey: .version)
        try c.encode(defaultPolicy, forKey: .defaultPolicy)
        try c.encode(backfillDays, forKey: .backfillDays)
        try c.encode(futureToleranceSeconds, forKey: .futureToleranceSeconds)
        try c.encode(offlineDays, forKey: .offlineDays)
        try c.encode(rewards, forKey: .rewards)
        try c.encodeIfPresent(earnedFreezeEvery, forKey: .earnedFreezeEvery)
        try c.encode(store, forKey: .store)
        try c.encode(streakMilestones, forKey: .streakMilestones)
        try c.encode(achievements, forKey: .achievements)
        try c.encode(methods, forKey: .methods)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(icon, forKey: .icon)
        try c.encode(forms, forKey: .forms)
        try c.encode(eventTypes, forKey: .eventTypes)
    }
}
