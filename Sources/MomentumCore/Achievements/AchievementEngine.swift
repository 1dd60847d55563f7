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
    public private(set) var unlocks: [Unlock] = []
    /// Subjects by id, as the latest `subject` event left them.
    public private(set) var subjects: [String: Subject] = [:]
    /// Savings goals by id.
    public private(set) var goals: [String: SavingsGoal] = [:]

    var granted: Set<String> = []
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
        guard let table = cachedTable(event.timeZone) else { return [] }
        zone = event.timeZone
        var day = clock.localDay(of: event.at, in: table).number
        switch event.payload {
        case .activity(let activity): if let d = activity.day { day = min(day, d.number) }
        case .contribution(_, _, let d, _): if let d { day = min(day, d.number) }
        case .subject, .goal, .stage, .milestone, .milestoneDeleted: break
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

    // MARK: - Rules over activities

    private mutating func apply(_ r: Int, _ activity: Activity, _ keyed: Keyed, _ detectedAt: Date) {
        // Fields are read through `rules[r]` rather than a copy of the rule: this runs for
        // every event, and copying a rule retains all its arrays and strings.
        let matches =
            rules[r].match?.matches(activity) ?? (rules[r].kind == .amount && activity.kind == "contribution")
        switch rules[r].kind {
        case .first:
            guard matches else { return }
            grant(r, id: rules[r].id, keyed, detectedAt, type: "first", activity: activity)
        case .count:
            guard matches else { return }
            states[r].count += 1
            crossed(r, value: states[r].count, keyed, detectedAt, type: "count", activity: activity)
        case .distinctCount, .setCompleted:
            guard matches, let value = rules[r].field == "group" ? activity.group : activity.item,
                states[r].values.insert(value).inserted
            else { return }
            if rules[r].kind == .distinctCount {
                crossed(
                    r, value: Double(states[r].values.count), keyed, detectedAt, type: "count", activity: activity)
            } else if !states[r].fired, let items = rules[r].items, items.allSatisfy(states[r].values.contains) {
                states[r].fired = true
                grant(
                    r, id: rules[r].id, keyed, detectedAt, type: "set_completed", value: Double(items.count),
                    activity: activity)
            }
        case .amount:
            guard matches, let value = activity.value else { return }
            crossAmount(r, by: value, keyed, detectedAt, activity: activity)
        case .streak, .personalBest, .recovery:
            if let breaks = rules[r].breaks, breaks.matches(activity) {
                if states[r].current > 0 {
                    states[r].hadBreak = true
                    states[r].current = 0
                }
                states[r].lastGood = Int.min
                return
            }
            guard matches else { return }
            let day = keyed.day
            if day == states[r].lastGood { return }
            if states[r].lastGood == day - 1 {
                states[r].current += 1
            } else {
                if states[r].current > 0 { states[r].hadBreak = true }
                states[r].current = 1
            }
            if states[r].current == 1 {
                // A new run: the best so far becomes the record to beat.
                states[r].best = max(states[r].best, states[r].runPeak)
                states[r].runPeak = 0
                states[r].runStart = day
                states[r].runFired = false
            }
            states[r].runPeak = max(states[r].runPeak, states[r].current)
            states[r].lastGood = day
            streakReached(r, states[r].current, keyed, detectedAt, activity: activity)
        case .consistency:
            if keyed.day != states[r].day {
                states[r].day = keyed.day
                states[r].kinds = []
            }
            guard let required = rules[r].require, required.contains(activity.kind),
                states[r].kinds.insert(activity.kind).inserted, states[r].kinds.count == Set(required).count
            else { return }
            if states[r].lastComplete == keyed.day - 1 {
                states[r].completeRun += 1
            } else {
                states[r].completeRun = 1
                states[r].runStart = keyed.day
            }
            states[r].lastComplete = keyed.day
            if states[r].completeRun == rules[r].days {
                grant(
                    r, id: "\(rules[r].id)#\(LocalDay(number: states[r].runStart))", keyed, detectedAt,
                    type: "consistency",
                    value: Double(rules[r].days ?? 0), activity: nil)
            }
        default: break
        }
    }

    /// Thresholds and every-N for a value that grows by steps of 1.
    private mutating func crossed(
        _ r: Int, value: Double, _ keyed: Keyed, _ detectedAt: Date, type: String, activity: Activity
    ) {
        if let at = rules[r].at, at.contains(value) {
            grant(
                r, id: "\(rules[r].id)#\(Self.number(value))", keyed, detectedAt, type: type, value: value,
                activity: activity
            )
        }
        if let every = rules[r].every, value >= (rules[r].minimum ?? every),
            value.truncatingRemainder(dividingBy: every) == 0
        {
            grant(
                r, id: "\(rules[r].id)#\(Self.number(value))", keyed, detectedAt, type: type, value: value,
                activity: activity
            )
        }
    }

    /// Thresholds crossed by a total growing by `amount`.
    private mutating func crossAmount(
        _ r: Int, by amount: Double, _ keyed: Keyed, _ detectedAt: Date, activity: Activity
    ) {
        let before = states[r].sum
        states[r].sum += amount
        let after = states[r].sum
        var values = (rules[r].at ?? []).filter { before < $0 && $0 <= after }
        if let every = rules[r].every {
            var next = (before / every).rounded(.down) * every + every
            while next <= after {
                values.append(next)
                next += every
            }
        }
        for value in Set(values).sorted() {
            grant(
                r, id: "\(rules[r].id)#\(Self.number(value))", keyed, detectedAt, type: "amount", value: value,
                activity: activity)
        }
    }

    private mutating func checkGoal(_ r: Int, _ goalID: String, _ keyed: Keyed, _ detectedAt: Date) {
        guard let goal = goals[goalID], goalSums[goalID, default: 0] >= goal.target,
            rules[r].goalCategory == nil || rules[r].goalCategory == goal.category
        else { return }
        grant(
            r, id: "\(rules[r].id)#\(goalID)", keyed, detectedAt, type: "goal_completed", value: goal.target,
            category: goal.category, activity: nil, context: ["goal": goal.name])
    }

    private mutating func streakReached(
        _ r: Int, _ streak: Int, _ keyed: Keyed, _ detectedAt: Date, activity: Activity
    ) {
        let value = Double(streak)
        switch rules[r].kind {
        case .streak:
            crossed(r, value: value, keyed, detectedAt, type: "streak", activity: activity)
        case .personalBest:
            // `best` is the best of earlier runs; the running one must pass it.
            if streak > states[r].best, !states[r].runFired, states[r].best > 0,
                Double(states[r].best) >= (rules[r].minimum ?? 1)
            {
                states[r].runFired = true
                grant(
                    r, id: "\(rules[r].id)#\(LocalDay(number: states[r].runStart))", keyed, detectedAt,
                    type: "streak_record", value: value, activity: activity)
            }
        case .recovery:
            if states[r].hadBreak, !states[r].runFired, let target = rules[r].at?.first, value == target {
                states[r].runFired = true
                grant(
                    r, id: "\(rules[r].id)#\(LocalDay(number: states[r].runStart))", keyed, detectedAt,
                    type: "recovery",
                    value: value, activity: activity)
            }
        default: break
        }
    }

    // MARK: - Time

    private mutating func advance(toDay day: Int, detectedAt: Date) {
        guard day > clockDay else { return }
        clockDay = day
        guard !timeRules.isEmpty, !subjects.isEmpty else { return }
        for r in timeRules where states[r].nextDueDay <= day { fireAges(r, upTo: day, detectedAt: detectedAt) }
    }

    private mutating func fireAges(_ r: Int, upTo today: Int, detectedAt: Date) {
        let rule = rules[r]
        guard let unit = rule.unit, let dateName = rule.date else { return }
        for id in rule.subject.map({ [$0] }) ?? subjectOrder.prefix(1).map({ $0 }) {
            guard let subject = subjects[id], let origin = subject.dates[dateName] else { continue }
            let added = subjectAdded[id] ?? origin.number
            var n = states[r].nextAge[id] ?? 1
            let limit = rule.maximum.map { Int($0) } ?? (rule.every == nil ? Int(rule.at?.max() ?? 0) : 1200)
            while n <= limit {
                let reached = Self.add(n, unit, to: origin).number
                guard reached <= today else { break }
                defer { n += 1 }
                let wanted: Bool
                if let at = rule.at {
                    wanted = at.contains(Double(n))
                } else if let every = rule.every {
                    wanted =
                        Double(n) >= (rule.minimum ?? every) && Double(n).truncatingRemainder(dividingBy: every) == 0
                } else {
                    wanted = false
                }
                guard wanted, reached >= added || (rule.includePast ?? false) else { continue }
                if rule.kind == .combination {
                    guard let coverage = rule.coverage, coverageHolds(coverage, through: reached) else { continue }
                }
                let achievedAt = Date(
                    timeIntervalSince1970: Double(clock.start(of: LocalDay(number: reached), in: table)))
                grant(
                    r, id: "\(rule.id)#\(id)#\(n)", achievedAt: achievedAt, day: reached, detectedAt: detectedAt,
                    event: nil,
                    type: rule.kind == .combination ? "combination" : dateName == "born" ? "age" : "anniversary",
                    value: Double(n), subject: id,
                    context: ["name": subject.name, "age": Self.ageText(n, unit)])
            }
            states[r].nextAge[id] = n
        }
        // Nothing can fire before the earliest next age of any subject.
        var earliest = Int.max
        for id in rule.subject.map({ [$0] }) ?? subjectOrder.prefix(1).map({ $0 }) {
            guard let origin = subjects[id]?.dates[dateName] else { continue }
            let n = states[r].nextAge[id] ?? 1
            let limit = rule.maximum.map { Int($0) } ?? (rule.every == nil ? Int(rule.at?.max() ?? 0) : 1200)
            if n <= limit { earliest = min(earliest, Self.add(n, unit, to: origin).number) }
        }
        states[r].nextDueDay = earliest
    }

    private var table: ZoneOffsetTable {
        if let zoneCache, zoneCache.identifier == zone { return zoneCache }
        return ZoneOffsetTable.named(zone) ?? ZoneOffsetTable.named("UTC")!
    }

    /// The zone table, remembered for the next event (most users stay in one zone).
    private mutating func cachedTable(_ identifier: String) -> ZoneOffsetTable? {
        if let zoneCache, zoneCache.identifier == identifier { return zoneCache }
        zoneCache = ZoneOffsetTable.named(identifier)
        return zoneCache
    }

    private func coverageHolds(_ coverage: AchievementRule.Coverage, through day: Int) -> Bool {
        var seen: Set<String> = []
        for keyed in events where keyed.day <= day {
            guard case .activity(let activity) = keyed.event.payload, coverage.match.matches(activity),
                let value = coverage.field == "group" ? activity.group : activity.item
            else { continue }
            seen.insert(value)
        }
        let share: Double
        if let items = coverage.items {
            share = items.isEmpty ? 0 : Double(items.filter(seen.contains).count) / Double(items.count)
        } else {
            share = Double(seen.count) / Double(max(1, coverage.total ?? 1))
        }
        return share >= coverage.atLeast
    }

    /// The day `n` units after `origin` (months and years keep the day of the month, or the
    /// month's last day when it is shorter).
    static func add(_ n: Int, _ unit: AchievementRule.Unit, to origin: LocalDay) -> LocalDay {
        switch unit {
        case .days: return origin.advanced(by: n)
        case .weeks: return origin.advanced(by: 7 * n)
        case .months, .years:
            let months = unit == .months ? n : 12 * n
            let (y, m, d) = origin.civil
            let total = y * 12 + (m - 1) + months
            let year = total / 12
            let month = total % 12 + 1
            return LocalDay(year: year, month: month, day: min(d, LocalDay.daysIn(month: month, year: year)))!
        }
    }

    // MARK: - Granting

    private mutating func grant(
        _ r: Int, id: String, _ keyed: Keyed, _ detectedAt: Date, type: String, value: Double? = nil,
        category: String? = nil, activity: Activity?, context extra: [String: String] = [:]
    ) {
        var context = extra
        if let activity {
            if let item = activity.item {
                if activity.kind == "contribution" {
                    context["goal"] = goals[item]?.name ?? item
                } else {
                    context["item"] = item
                }
            }
            if let group = activity.group { context["group"] = group }
        }
        var achievedAt = keyed.event.at
        if let table = keyed.event.timeZone == zoneCache?.identifier
            ? zoneCache : ZoneOffsetTable.named(keyed.event.timeZone),
            clock.localDay(of: achievedAt, in: table).number > keyed.day
        {
            // Logged for an earlier day: it happened by the end of that day at the latest.
            achievedAt = Date(
                timeIntervalSince1970: Double(clock.start(of: LocalDay(number: keyed.day + 1), in: table) - 1))
        }
        grant(
            r, id: id, achievedAt: achievedAt, day: keyed.day, detectedAt: max(detectedAt, keyed.event.at),
            event: keyed.event.id, type: type, value: value, subject: subject(of: keyed.event.payload),
            category: category, context: context)
    }

    /// Whom an event's unlock is about: a log names its subject or is about the first one (the
    /// puppy of a journal); savings are about the saver and growth about the user, when the
    /// log has one, never about a puppy an account also tracks.
    func subject(of payload: Event.Payload) -> String? {
        switch payload {
        case .activity(let activity): return activity.subject ?? subjectOrder.first
        case .contribution, .goal: return subjectOrder.first { ["saver", "user"].contains(subjects[$0]?.kind) }
        case .stage: return subjectOrder.first { subjects[$0]?.kind == "user" }
        default: return nil
        }
    }

    mutating func grant(
        _ r: Int, id: String, achievedAt: Date, day: Int, detectedAt: Date, event: String?, type: String,
        value: Double? = nil, subject: String? = nil, habit: String? = nil, category: String? = nil,
        context: [String: String]
    ) {
        // A milestone of the user's own happens once in each of its generations.
        let custom = r >= packRuleCount
        let id = custom ? customUnlockID(of: r) ?? id : id
        guard granted.insert(id).inserted else { return }
        let rule = rules[r]
        var context = context
        if let subject, let name = subjects[subject]?.name, context["name"] == nil { context["name"] = name }
        if let value {
            context["value"] = Self.number(value)
            // An amount as seed 002 writes it: "$1,000".
            if type == "amount" { context["amount"] = MilestoneNumber.money(value) }
        }
        let detectedDay = clock.localDay(of: detectedAt, in: table).number
        // The user's own words are shown as written, braces and all.
        if custom, let milestone = customMilestone(String(rule.id.dropFirst(CustomMilestone.rulePrefix.count))),
            let message = milestone.message, !message.isEmpty
        {
            context["message"] = message
        }
        unlocks.append(
            Unlock(
                id: id, rule: rule.id,
                title: custom
                    ? rule.title
                    : Self.fill(
                        rule.title(for: value, plurals: translation.plurals),
                        Self.titleValues(
                            context, value: value, milestoneType: type, rule: rule, translation: translation)),
                category: category ?? rule.category,
                tier: rule.tier, milestoneType: type, value: value, achievedAt: achievedAt,
                achievedDay: LocalDay(number: day), detectedAt: detectedAt, retroactive: detectedDay > day,
                subject: subject, habit: habit, event: event, badge: rule.badge, context: context))
    }

    /// Fills `{placeholders}` from the context; unknown ones are left out.
    static func fill(_ template: String, _ context: [String: String]) -> String {
        TemplateText.render(template, context, keepMissing: false)
    }
}
