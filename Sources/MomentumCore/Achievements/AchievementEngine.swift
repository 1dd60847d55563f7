import Foundation

/// Evaluates a rule pack's achievements over a user's events and habit streaks.
///
/// Events are processed in the order they happened (local day, instant, id). An event that
/// arrives in order costs only the rules that watch its kind. An event that happened before
/// one already processed (a backfill, an import) makes the engine replay every event from
/// the start; unlocks found by the replay that were not granted before are granted then,
/// dated when the milestone really happened and marked retroactive. Nothing granted is ever
/// revoked, and each occurrence (``Unlock/id``) is granted once.
///
/// Time-based rules (ages, birthdays, anniversaries, the socialization window) fire as time
/// passes: ``advance(to:zone:)`` moves the clock.
///
/// The user's own milestones (``CustomMilestone``, from `milestone` events) are rules too,
/// after the pack's: defining, editing or removing one replays every event, so a milestone
/// already met unlocks at once, retroactively.
public struct AchievementEngine: Sendable {
    /// The rules: the pack's, in pack order, then the user's own milestones', in the order
    /// they were first defined.
    public internal(set) var rules: [AchievementRule]
    /// The user's own milestones as their latest definitions leave them, in the order they
    /// were first defined.
    public internal(set) var customMilestones: [CustomMilestone] = []
    /// How many of ``rules`` are the pack's.
    let packRuleCount: Int
    /// The index in ``rules`` of each custom milestone's rule, by milestone id.
    var customRuleIndex: [String: Int] = [:]
    /// Where each custom milestone's current generation began, by milestone id.
    var customGenerations: [String: Generation] = [:]
    /// The user's day boundary.
    public let clock: DayClock

    /// Every unlock granted, in the order granted.
    public internal(set) var unlocks: [Unlock] = []
    /// Subjects by id, as the latest `subject` event left them.
    public private(set) var subjects: [String: Subject] = [:]
    /// Savings goals by id.
    public private(set) var goals: [String: SavingsGoal] = [:]

    var granted: Set<String> = []
    /// The ids of the rules that have unlocked at least once (kept unlocks included).
    var unlockedRules: Set<String> = []
    /// Unlocks waiting for the rules their rule requires, in the order their conditions were
    /// met (``AchievementRule/requires``).
    var held: [HeldUnlock] = []
    var events: [Keyed] = []
    var states: [RuleState]
    var subjectOrder: [String] = []

    /// The user's first subject: the one a rule without a subject of its own is about.
    public var firstSubject: Subject? { subjectOrder.first.flatMap { subjects[$0] } }
    /// The subjects' ids in the order they were added.
    public var subjectIDs: [String] { subjectOrder }
    var subjectAdded: [String: Int] = [:]
    var goalSums: [String: Double] = [:]
    var rulesByKind: [String: [Int]] = [:]
    var stageRules: [Int] = []
    var goalRules: [Int] = []
    var timeRules: [Int] = []
    var anyKindRules: [Int] = []
    var habitRules: [Int] = []
    var clockDay = Int.min
    /// What ``evaluateHabits(in:detectedAt:)`` has read of each habit's history, by habit
    /// id, one scan per entry of `habitRules`.
    var habitScans: [String: [HabitScan]] = [:]
    /// The same for consistency rules, by rule index.
    var consistencyScans: [Int: ConsistencyScan] = [:]
    /// The streak engine's history epoch the scans have read up to.
    var scannedEpoch = 0
    var zone = "UTC"
    var zoneCache: ZoneOffsetTable?
    /// Benchmarks only: check every rule against every activity, without the index by kind
    /// (the straightforward implementation the index is measured against).
    @_spi(Benchmarks) public var checksEveryRule = false

    struct Keyed: Sendable {
        var day: Int
        var at: Double
        var event: Event
        /// The order it arrived in: the definitions of the user's own milestones hold in it.
        var serial = 0
    }

    /// How many events have arrived, for ``Keyed/serial``.
    var arrivals = 0

    struct RuleState: Sendable {
        var count = 0.0
        var values: Set<String> = []
        var sum = 0.0
        var fired = false
        // Log streaks.
        var lastGood = Int.min
        var current = 0
        var best = 0
        var runPeak = 0
        var runStart = 0
        var hadBreak = false
        var runFired = false
        // Log consistency.
        var day = Int.min
        var kinds: Set<String> = []
        var completeRun = 0
        var lastComplete = Int.min
        // Ages: the next multiple to check, per subject, and the first day anything may fire.
        var nextAge: [String: Int] = [:]
        var nextDueDay = Int.min
    }

    /// The progression methods, for stage names in titles and messages.
    public let methods: [ProgressionMethod]
    /// The language unlock titles are written in: the pack's (see ``RulePack/translated(_:)``).
    var translation: Translation = .english

    /// Creates an engine for a pack's rules.
    ///
    /// - Parameters:
    ///   - rules: The pack's achievements.
    ///   - methods: The pack's progression methods.
    ///   - dayStartHour: The local hour at which the user's day begins.
    public init(rules: [AchievementRule], methods: [ProgressionMethod] = [], dayStartHour: Int = 0) {
        self.rules = rules
        self.methods = methods
        packRuleCount = rules.count
        clock = DayClock(dayStartHour: dayStartHour)
        states = Array(repeating: RuleState(), count: rules.count)
        indexRules()
    }

    /// Builds the indexes of ``rules`` by what each rule reads.
    mutating func indexRules() {
        rulesByKind = [:]
        stageRules = []
        goalRules = []
        timeRules = []
        habitRules = []
        defer { anyKindRules = rulesByKind.removeValue(forKey: "*") ?? [] }
        for (index, rule) in rules.enumerated() {
            switch rule.kind {
            case .age, .combination:
                timeRules.append(index)
                if rule.kind == .combination {
                    rulesByKind[rule.coverage?.match.kind ?? "*", default: []].append(index)
                }
            case .goalCompleted: goalRules.append(index)
            case .stageReached: stageRules.append(index)
            case .moment: break
            case .count where rule.source == .habit: habitRules.append(index)
            case .amount where rule.match == nil || rule.match?.type == "contribution":
                rulesByKind["contribution", default: []].append(index)
            case .streak, .personalBest, .recovery, .consistency:
                if (rule.source ?? Self.defaultSource(rule)) == .habit {
                    habitRules.append(index)
                } else if rule.kind == .consistency {
                    for kind in rule.require ?? [] { rulesByKind[kind, default: []].append(index) }
                } else {
                    rulesByKind[rule.match?.kind ?? "*", default: []].append(index)
                    if let breaks = rule.breaks?.kind, breaks != rule.match?.kind {
                        rulesByKind[breaks, default: []].append(index)
                    }
                }
            default:
                let key = rule.match?.type == "contribution" ? "contribution" : rule.match?.kind ?? "*"
                rulesByKind[key, default: []].append(index)
                if let breaks = rule.breaks?.kind, breaks != rule.match?.kind {
                    rulesByKind[breaks, default: []].append(index)
                }
            }
        }
    }

    private static func defaultSource(_ rule: AchievementRule) -> AchievementRule.Source {
        rule.kind == .consistency ? (rule.require == nil ? .habit : .log) : (rule.match == nil ? .habit : .log)
    }

    /// Whether the pack has rules that read habit streaks.
    public var watchesHabits: Bool { !habitRules.isEmpty }

    // MARK: - Events

    /// Processes one event and returns the unlocks it caused.
    ///
    /// - Parameters:
    ///   - event: Any event; those achievements do not read are ignored.
    ///   - detectedAt: When the event reached Momentum (now, on a server; the event's own
    ///     instant when replaying a journal as if live).
    @discardableResult
    public mutating func process(_ event: Event, detectedAt: Date) -> [Unlock] {
        // An event of a type this engine does not know counts for nothing, its zone included.
        guard !event.payload.isUnknown, let table = cachedTable(event.timeZone) else { return [] }
        zone = event.timeZone
        var day = clock.localDay(of: event.at, in: table).number
        switch event.payload {
        case .activity(let activity): if let d = activity.day { day = min(day, d.number) }
        case .contribution(_, _, let d, _): if let d { day = min(day, d.number) }
        case .subject, .goal, .stage, .milestone, .milestoneDeleted: break
        case .rewardsKept(let kept):
            // Kept across a rule change: recorded, never celebrated again; an unlock that was
            // waiting for a kept one's rule is new, though.
            let before = unlocks.count
            keep(kept, event: event, table: table, detectedAt: detectedAt)
            return unlocks[before...].filter { $0.milestoneType != Self.keptMilestoneType }
        case .removal(let target):
            // A withdrawn event stops counting; what it unlocked stays unlocked.
            guard let index = events.firstIndex(where: { $0.event.id == target }) else { return [] }
            let before = unlocks.count
            events.remove(at: index)
            replay(detectedAt: detectedAt)
            return Array(unlocks[before...])
        default: return []
        }
        arrivals += 1
        let keyed = Keyed(day: day, at: event.at.timeIntervalSince1970, event: event, serial: arrivals)
        let before = unlocks.count
        if Self.definesMilestones(event.payload) {
            // A new milestone of the user's own, or a new condition for one, reads the whole
            // history; new words for one change only what is still to come.
            let index = events.firstIndex { Self.precedes(keyed, $0) } ?? events.count
            events.insert(keyed, at: index)
            if defineCustomRules() == .conditions { replay(detectedAt: detectedAt) }
        } else if let last = events.last, Self.precedes(keyed, last) {
            let index = events.firstIndex { Self.precedes(keyed, $0) } ?? events.count
            events.insert(keyed, at: index)
            replay(detectedAt: detectedAt)
        } else {
            events.append(keyed)
            advance(toDay: day, detectedAt: detectedAt)
            apply(keyed, detectedAt: detectedAt)
        }
        advance(toDay: clock.localDay(of: detectedAt, in: table).number, detectedAt: detectedAt)
        return Array(unlocks[before...])
    }

    /// Moves the clock to `now`: fires ages, birthdays and anniversaries reached by then.
    @discardableResult
    public mutating func advance(to now: Date, zone: String? = nil) -> [Unlock] {
        if let zone { self.zone = zone }
        guard let table = ZoneOffsetTable.named(self.zone) else { return [] }
        let before = unlocks.count
        advance(toDay: clock.localDay(of: now, in: table).number, detectedAt: now)
        return Array(unlocks[before...])
    }

    static func precedes(_ a: Keyed, _ b: Keyed) -> Bool {
        (a.day, a.at, a.event.id) < (b.day, b.at, b.event.id)
    }

    /// Forgets every derived value and processes the events again from the start, with the
    /// user's own milestones as the events now define them.
    mutating func replay(detectedAt: Date) {
        _ = defineCustomRules()
        states = Array(repeating: RuleState(), count: rules.count)
        subjects = [:]
        subjectOrder = []
        subjectAdded = [:]
        goals = [:]
        goalSums = [:]
        let target = clockDay
        clockDay = Int.min
        for keyed in events {
            advance(toDay: keyed.day, detectedAt: detectedAt)
            apply(keyed, detectedAt: detectedAt)
        }
        advance(toDay: target, detectedAt: detectedAt)
    }

    private mutating func apply(_ keyed: Keyed, detectedAt: Date) {
        let event = keyed.event
        switch event.payload {
        case .subject(let subject):
            if let current = subjects[subject.id] {
                subjects[subject.id] = current.updated(by: subject)
            } else {
                subjectOrder.append(subject.id)
                subjectAdded[subject.id] = keyed.day
                subjects[subject.id] = Subject(id: subject.id, name: "", kind: "").updated(by: subject)
            }
            // Ages the new dates have already reached today fire now, not tomorrow.
            for r in timeRules { states[r].nextDueDay = Int.min }
            if clockDay != Int.min { for r in timeRules { fireAges(r, upTo: clockDay, detectedAt: detectedAt) } }
        case .goal(let goal):
            goals[goal.id] = goal
            for r in goalRules { checkGoal(r, goal.id, keyed, detectedAt) }
        case .milestone(let milestone):
            // A moment happens at the first event of its generation that defines it as one.
            guard milestone.rule == .moment, let r = customRuleIndex[milestone.id], rules[r].kind == .moment,
                let generation = customGenerations[milestone.id], keyed.serial >= generation.serial
            else { return }
            grant(r, id: rules[r].id, keyed, detectedAt, type: "moment", activity: nil)
        case .contribution(let goal, let amount, _, _):
            goalSums[goal, default: 0] += amount
            let activity = Activity(kind: "contribution", item: goal, value: amount)
            if let indices = rulesByKind["contribution"] { for r in indices { apply(r, activity, keyed, detectedAt) } }
            for r in goalRules { checkGoal(r, goal, keyed, detectedAt) }
        case .stage(let method, _, let to, _):
            // A rule for this very stage wins over the method's rule for any stage.
            let specific = stageRules.filter { rules[$0].method == method && rules[$0].stage == to }
            let chosen =
                specific.isEmpty ? stageRules.filter { rules[$0].method == method && rules[$0].stage == nil } : specific
            let definition = methods.first { $0.id == method }
            for r in chosen {
                grant(
                    r, id: "\(rules[r].id)#\(method)#\(to)", keyed, detectedAt, type: "stage_reached",
                    value: definition?.stageNumber(of: to).map(Double.init),
                    activity: nil,
                    context: ["method": definition?.name ?? method, "stage": definition?.stage(id: to)?.name ?? to])
            }
        case .activity(let activity):
            if checksEveryRule {
                for r in rules.indices
                where ![.age, .combination, .goalCompleted, .stageReached, .moment].contains(rules[r].kind)
                    && !habitRules.contains(r)
                {
                    apply(r, activity, keyed, detectedAt)
                }
                return
            }
            if let indices = rulesByKind[activity.kind] { for r in indices { apply(r, activity, keyed, detectedAt) } }
            for r in anyKindRules { apply(r, activity, keyed, detectedAt) }
        default: break
        }
    }

}
