import Foundation

/// Derives one user's streaks, calendars, freezes and wallet from their event log.
///
/// The engine is a pure, deterministic state machine: the same events and the same `now`
/// give the same ``UserState`` on a phone and on the server, whatever order the events
/// arrived in. It sweeps the log day by day in the user's local time: events are applied as
/// they happen, and when a day ends every habit's period is judged, successes first and
/// then misses in habit creation order, so that habits draw from the shared freeze pool
/// in a fixed order.
///
/// Appending an event for today costs O(1). An event for an earlier day (a backfill, a
/// removal, a declined freeze offer, a zone change revealing skipped dates) rewinds to the
/// nearest checkpoint at or before that day — checkpoints are kept every
/// ``checkpointInterval`` days — and replays from there; the result is identical to
/// evaluating the whole log afresh.
///
/// ```swift
/// var engine = UserEngine(pack: .habits)
/// try engine.load(events)
/// let state = engine.state(at: now)
/// ```
public struct UserEngine: Sendable {
    /// Checkpoints are taken at the start of every day whose number is a multiple of this.
    public static let checkpointInterval = 8

    /// The rule pack in force.
    public let pack: RulePack
    /// The user's day boundary.
    public let clock: DayClock

    struct HabitMeta: Sendable {
        var ordinal: Int32
        var startDay: Int
        var createdKey: EventKey
    }

    struct Checkpoint: Sendable {
        var day: Int
        var run: RunState
    }

    struct RunState: Sendable {
        var habits: [HabitRun] = []
        var definitions: [HabitDefinition] = []
        /// Each habit's schedules with the day each began, oldest first.
        var schedules: [[ScheduleSegment]] = []
        var wallet = Wallet()
        var openDay: Int?
        var ledgerCount = 0
        var rejectedCount = 0
        var offerCount = 0
    }

    /// Every event received, in arrival order (removed ones too: they are still evidence of
    /// where the user was). Entries point into it.
    var log: [Event] = []
    var indexByID: [String: Int32] = [:]
    /// The live events, sorted in application order.
    var entries: [Entry] = []

    /// Days from the first event's to the open day (0 for an empty log): what the sweep's
    /// per-day state grows with. At most 10,000,000 (27,000 years), so that estimates that
    /// multiply it cannot overflow.
    var historyDays: Int {
        guard let first = entries.first?.day, let open = run.openDay, open >= first else { return 0 }
        let (days, overflow) = open.subtractingReportingOverflow(first)
        return overflow ? 10_000_000 : min(days, 9_999_999) + 1
    }
    var tombstones: Set<String> = []
    var habitMeta: [String: HabitMeta] = [:]
    var decisions: [FreezeOffer: Bool] = [:]
    var travelSkipped: Set<Int> = []
    /// Paused days of every habit, and of single habits by id (``recomputePauses()``).
    var pausedAll: Set<Int> = []
    var pausedByHabit: [String: Set<Int>] = [:]
    var latest: (seconds: Double, zone: String)?

    var run = RunState()
    var histories: [HabitHistory] = []
    var ledger: [LedgerRecord] = []
    /// Events the sweep refused during the current operation (they never stay in the log).
    var rejected: [Rejection] = []
    /// Events refused when the log was loaded, reported in every state.
    var refused: [Rejection] = []
    var offers: [FreezeOffer] = []
    var checkpoints: [Checkpoint] = []
    var zoneCache: (identifier: String, table: ZoneOffsetTable)?
    /// Reused by `closeDay` so that closing a day allocates nothing.
    var scratchFailing: [(habit: Int, state: DayState)] = []
    /// How habit histories changed behind their end, for readers that follow them
    /// incrementally (``AchievementEngine/evaluateHabits(in:detectedAt:)``).
    var historyChanges = HistoryChanges()

    /// Creates an engine with an empty log.
    ///
    /// - Parameters:
    ///   - pack: The rule pack (policies, rewards, store, backfill window).
    ///   - dayStartHour: The local hour at which the user's day begins (0–23).
    public init(pack: RulePack = .habits, dayStartHour: Int = 0) {
        self.pack = pack
        self.clock = DayClock(dayStartHour: dayStartHour)
    }

    /// The zone of the latest event, the user's current zone.
    public var latestZone: String? { latest?.zone }

    /// The number of events in the log (removed events excluded).
    public var eventCount: Int { entries.count }

    /// The events in the order the engine applies them (removed events excluded).
    public var events: [Event] { entries.map { log[Int($0.event)] } }

    /// The event stored with this id, if any: one that was later removed still is; one the
    /// rules refused is not.
    public func event(id: String) -> Event? {
        indexByID[id].map { log[Int($0)] }
    }

    // MARK: - Appending

    /// Appends one event, updating the state incrementally.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - now: When given, timestamps later than `now` plus the pack's tolerance are refused.
    /// - Returns: ``AppendResult/applied``, ``AppendResult/duplicate`` for a retry of an event
    ///   already in the log, or ``AppendResult/rejected(_:)`` when the current state refuses it
    ///   (too few diamonds, no freeze offer for that day); a rejected event is not kept.
    /// - Throws: ``MomentumError`` when the event itself is invalid (unknown habit or zone,
    ///   outside the backfill window, an id reused for a different event, …).
    @discardableResult
    public mutating func append(_ event: Event, now: Date? = nil) throws(MomentumError) -> AppendResult {
        if let existing = indexByID[event.id] {
            guard log[Int(existing)] == event else {
                throw MomentumError(
                    .conflictingEventID, "event id '\(event.id)' was already used for a different event", field: "id")
            }
            return .duplicate
        }
        if tombstones.contains(event.id) {
            accept(event)
            return .duplicate
        }
        try checkLimits(event)
        let knownHabits = habitMeta.count
        let entry = try validate(event, index: Int32(log.count), now: now)
        if case .removal(let target) = event.payload {
            // An event appended as it arrives may only remove one that is stored. (A log
            // loaded or replayed keeps a tombstone for an id that comes later in it.)
            if now != nil, indexByID[target] == nil {
                throw MomentumError(.invalidEvent, "there is no event '\(target)' to remove", field: "event")
            }
            try checkRemovable(target)
            accept(event)
            remove(target)
            return .applied
        }
        // Likewise a resume may only end a pause that is stored and not removed.
        if now != nil, case .resume(let target) = event.payload {
            guard let index = indexByID[target], case .pause = log[Int(index)].payload, !tombstones.contains(target)
            else {
                throw MomentumError(.invalidEvent, "there is no pause '\(target)' to end", field: "pause")
            }
        }
        // The earliest closed day whose evaluation this event changes, if any.
        var rewindDay: Int?
        func needsRewind(from day: Int) { rewindDay = min(rewindDay ?? day, day) }
        if habitMeta.count > knownHabits, Int(entry.habit) < knownHabits { needsRewind(from: entry.day) }

        if case .freezeDecision(let habit, let day, let accepted) = event.payload {
            advanceOpenDay(to: entry.day)
            let offer = FreezeOffer(habit: habit, day: day)
            guard offers.contains(offer), decisions[offer] == nil else {
                return .rejected(
                    MomentumError(
                        .noFreezeOffer, "there is no open freeze offer for '\(habit)' on \(day)", field: "day"))
            }
            accept(event)
            if let skipped = noteTravel(of: event), let open = run.openDay, skipped < open {
                needsRewind(from: skipped)
            }
            decisions[offer] = accepted
            insert(entry)
            if !accepted { needsRewind(from: day.number) }
        } else {
            // A purchase for the open day is judged against the wallet as the user sees it
            // now, whatever its place among today's entries: a purchase that sorts before one
            // already accepted (same instant, smaller id) must not displace it.
            if entry.operation == .purchase, rewindDay == nil, run.openDay.map({ $0 <= entry.day }) ?? true {
                advanceOpenDay(to: entry.day)
                guard run.wallet.diamonds >= Int(entry.diamonds) else {
                    return .rejected(
                        MomentumError(
                            .insufficientDiamonds,
                            "\(entry.freezes) freeze days cost \(entry.diamonds) 💎; the wallet holds \(run.wallet.diamonds)"
                        ))
                }
            }
            accept(event)
            if let skipped = noteTravel(of: event), let open = run.openDay, skipped < open {
                needsRewind(from: skipped)
            }
            if rewindDay == nil, isAtEnd(entry, id: event.id) {
                // The common case, O(1): an event at the end of the log, for the open day or later.
                entries.append(entry)
                advanceOpenDay(to: entry.day)
                apply(entry)
            } else if rewindDay == nil, catchUp(entry) {
                // A habit started in the past that sorts last: evaluated alone, O(its days).
            } else {
                insert(entry)
                needsRewind(from: entry.day)
            }
        }
        if entry.operation == .pause || entry.operation == .resume, let changed = recomputePauseChanges(),
            let open = run.openDay, changed < open
        {
            needsRewind(from: changed)
        }
        if let rewindDay { rewind(to: rewindDay) }
        if let index = rejected.lastIndex(where: { $0.event == event.id }) {
            // The state refused it (for example too few diamonds at that point): it is not kept.
            let rejection = rejected[index]
            entries.removeAll { $0.event == entry.event }
            indexByID[event.id] = nil
            rewind(to: entry.day)
            return .rejected(MomentumError(rejection.code, rejection.message))
        }
        return .applied
    }

    /// Whether an entry sorts after every entry in the log and is not for a closed day.
    ///
    /// The entry's event may not be in the log yet (a purchase is checked before it is
    /// kept), so its id is passed in rather than looked up.
    private func isAtEnd(_ entry: Entry, id: String) -> Bool {
        let afterLast = entries.last.map { last -> Bool in
            if entry.day != last.day { return entry.day > last.day }
            if entry.rank != last.rank { return entry.rank > last.rank }
            if entry.at != last.at { return entry.at > last.at }
            return id >= log[Int(last.event)].id
        }
        return (afterLast ?? true) && (run.openDay.map { $0 <= entry.day } ?? true)
    }

    /// Keeps an event in the log.
    private mutating func accept(_ event: Event) {
        indexByID[event.id] = Int32(log.count)
        log.append(event)
    }

    /// Replaces the log with a whole batch of events and evaluates it in one sweep.
    ///
    /// Every event is validated first; if any is invalid, nothing is loaded and the error
    /// lists each bad event by its `line` (the number paired with it, typically its line in
    /// a JSONL file). Events refused by the state (a purchase without enough diamonds) are
    /// kept out and listed in ``UserState/rejected``.
    ///
    /// - Parameters:
    ///   - numbered: The events with their line numbers, in any order.
    ///   - now: When given, timestamps later than `now` plus the pack's tolerance are refused.
    /// - Throws: ``EventLogError`` listing every invalid event.
    public mutating func load(numbered: [(line: Int, event: Event)], now: Date? = nil) throws(EventLogError) {
        var fresh = UserEngine(pack: pack, dayStartHour: clock.dayStartHour)
        try fresh.bulkLoad(numbered.map(\.event), lines: numbered.map(\.line), now: now)
        self = fresh
    }

    /// Replaces the log with a JSONL document, reporting every bad line at once: lines that
    /// do not parse and lines that break a rule, each with its number and reason.
    ///
    /// - Parameters:
    ///   - jsonl: The log, one JSON event per line.
    ///   - now: When given, timestamps later than `now` plus the pack's tolerance are refused.
    /// - Throws: ``EventLogError`` listing every bad line; nothing is loaded then.
    public mutating func load(jsonl: Data, now: Date? = nil) throws(EventLogError) {
        let (events, malformed) = EventLog.read(jsonl)
        do {
            try load(numbered: events, now: now)
        } catch {
            throw EventLogError(errors: (malformed + error.errors).sorted { ($0.line ?? 0) < ($1.line ?? 0) })
        }
        guard malformed.isEmpty else { throw EventLogError(errors: malformed) }
    }

    /// Replaces the log with a batch of events; see ``load(numbered:now:)``. Errors name
    /// events by their 1-based position in `events`.
    public mutating func load(_ events: [Event], now: Date? = nil) throws(EventLogError) {
        var fresh = UserEngine(pack: pack, dayStartHour: clock.dayStartHour)
        try fresh.bulkLoad(events, lines: nil, now: now)
        self = fresh
    }

    /// Evaluates the whole log again from its first day, as if it had just been loaded.
    ///
    /// The result is always the same as the incrementally maintained state; this is what
    /// a full evaluation of an already validated log costs.
    public mutating func recompute() {
        // No checkpoint precedes the first day, so the rewind starts from nothing.
        rewind(to: .min)
    }

    /// Evaluates a whole log at an instant.
    ///
    /// - Parameters:
    ///   - events: The log, in any order.
    ///   - now: The current instant.
    ///   - pack: The rule pack.
    ///   - dayStartHour: The user's day boundary.
    ///   - zone: The user's current zone; by default the zone of the latest event.
    /// - Returns: The derived state.
    /// - Throws: ``EventLogError`` if any event is invalid.
    public static func evaluate(
        _ events: [Event], now: Date, pack: RulePack = .habits, dayStartHour: Int = 0, zone: String? = nil
    ) throws(EventLogError) -> UserState {
        var engine = UserEngine(pack: pack, dayStartHour: dayStartHour)
        try engine.load(events, now: now)
        return engine.state(at: now, zone: zone)
    }

    /// Closes every day before the local day of `now`, so that misses are judged.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - zone: The user's current zone; by default the zone of the latest event.
    public mutating func advance(to now: Date, zone: String? = nil) {
        guard run.openDay != nil, let table = table(for: zone ?? latest?.zone ?? "UTC") else { return }
        advanceOpenDay(to: clock.localDay(of: now, in: table).number)
    }

    // MARK: - Log maintenance

    private mutating func bulkLoad(_ events: [Event], lines: [Int]?, now: Date?) throws(EventLogError) {
        var errors: [MomentumError] = []
        func line(_ index: Int) -> Int { lines?[index] ?? index + 1 }
        // The caller's array becomes the log: no event is copied.
        log = events
        indexByID.reserveCapacity(events.count)
        entries.reserveCapacity(events.count)
        // Habits first, so references resolve whatever the order of lines.
        for index in events.indices {
            guard case .habitCreated = events[index].payload else { continue }
            guard habitMeta.count < EventLimits.maximumHabits else {
                errors.append(Self.tooManyHabits.at(line: line(index)))
                continue
            }
            do { try registerHabit(events[index]) } catch { errors.append(error.at(line: line(index))) }
        }
        var removals: [(line: Int, target: String)] = []
        for index in events.indices {
            if let existing = indexByID.updateValue(Int32(index), forKey: events[index].id) {
                indexByID[events[index].id] = existing
                if events[Int(existing)] != events[index] {
                    errors.append(
                        MomentumError(
                            .conflictingEventID, "event id '\(events[index].id)' is used twice for different events",
                            line: line(index), field: "id"))
                }
                continue
            }
            do {
                let entry = try validate(events[index], index: Int32(index), now: now)
                if entry.operation == .decision, case .removal(let target) = events[index].payload {
                    removals.append((line(index), target))
                } else {
                    entries.append(entry)
                }
            } catch {
                errors.append(error.at(line: line(index)))
            }
            if errors.count >= EventLog.errorLimit { break }
        }
        for (line, target) in removals {
            do { try checkRemovable(target) } catch { errors.append(error.at(line: line)) }
        }
        guard errors.isEmpty else {
            // One error per line, the first found: a line that creates a habit twice with a
            // reused id is reported once.
            var seen: Set<Int> = []
            let unique = errors.filter { seen.insert($0.line ?? -1).inserted }
            throw EventLogError(errors: unique.sorted { ($0.line ?? 0) < ($1.line ?? 0) })
        }
        if !removals.isEmpty {
            tombstones = Set(removals.map(\.target))
            entries.removeAll { tombstones.contains(log[Int($0.event)].id) }
        }
        sortEntries()
        for entry in entries where entry.operation == .decision {
            if case .freezeDecision(let habit, let day, let accepted) = log[Int(entry.event)].payload {
                decisions[FreezeOffer(habit: habit, day: day)] = accepted
            }
        }
        recomputeTravel()
        recomputePauses()
        sweep(from: 0)
        // Decisions that answer no offer change nothing; report them.
        for entry in entries where entry.operation == .decision {
            guard case .freezeDecision(let habit, let day, _) = log[Int(entry.event)].payload else { continue }
            let offer = FreezeOffer(habit: habit, day: day)
            if !offers.contains(offer) {
                decisions[offer] = nil
                rejected.append(
                    Rejection(
                        event: log[Int(entry.event)].id, code: .noFreezeOffer,
                        message: "there was no freeze offer for '\(habit)' on \(day)"))
            }
        }
        if !rejected.isEmpty {
            // Refused events leave the log for good; evaluate once more without them so that
            // checkpoints never remember them.
            refused = rejected
            let ids = Set(refused.map(\.event))
            entries.removeAll { ids.contains(log[Int($0.event)].id) }
            for id in ids { indexByID[id] = nil }
            recompute()
        }
    }

    /// Habits are archived, not removed; a removal cannot itself be removed.
    private func checkRemovable(_ target: String) throws(MomentumError) {
        switch indexByID[target].map({ log[Int($0)].payload }) {
        case .habitCreated:
            throw MomentumError(.invalidEvent, "a habit cannot be removed; archive it instead", field: "event")
        case .removal:
            throw MomentumError(.invalidEvent, "a removal cannot be removed", field: "event")
        default: break
        }
    }

    /// Withdraws an event (or remembers the tombstone if it has not arrived yet).
    private mutating func remove(_ target: String) {
        tombstones.insert(target)
        guard let index = indexByID[target], let position = entries.firstIndex(where: { $0.event == index }) else {
            return
        }
        let removed = entries.remove(at: position)
        if removed.operation == .pause || removed.operation == .resume {
            let changed = recomputePauseChanges() ?? removed.day
            rewind(to: min(changed, removed.day))
        } else if case .freezeDecision(let habit, let day, _) = log[Int(index)].payload {
            decisions[FreezeOffer(habit: habit, day: day)] = nil
            rewind(to: min(day.number, removed.day))
        } else {
            rewind(to: removed.day)
        }
    }

    /// Whether `a` is applied before `b`: by day, creations first, instant, then id.
    static func precedes(_ a: Entry, _ b: Entry, in log: [Event]) -> Bool {
        if a.day != b.day { return a.day < b.day }
        if a.rank != b.rank { return a.rank < b.rank }
        if a.at != b.at { return a.at < b.at }
        return log[Int(a.event)].id < log[Int(b.event)].id
    }

    func precedes(_ a: Entry, _ b: Entry) -> Bool { Self.precedes(a, b, in: log) }

    /// Sorts the entries in application order (usually they nearly are already).
    private mutating func sortEntries() {
        guard entries.indices.dropFirst().contains(where: { precedes(entries[$0], entries[$0 - 1]) }) else { return }
        let log = self.log
        entries.sort { Self.precedes($0, $1, in: log) }
    }

    mutating func insert(_ entry: Entry) {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if !precedes(entry, entries[mid]) { low = mid + 1 } else { high = mid }
        }
        entries.insert(entry, at: low)
    }

    func table(for identifier: String) -> ZoneOffsetTable? {
        if let cache = zoneCache, cache.identifier == identifier { return cache.table }
        return ZoneOffsetTable.named(identifier)
    }

    mutating func cachedTable(for identifier: String) -> ZoneOffsetTable? {
        if let cache = zoneCache, cache.identifier == identifier { return cache.table }
        guard let table = ZoneOffsetTable.named(identifier) else { return nil }
        zoneCache = (identifier, table)
        return table
    }
}

/// What ``UserEngine/append(_:now:)`` did with an event.
public enum AppendResult: Hashable, Sendable {
    /// The event is in the log and the state reflects it.
    case applied
    /// The event was already in the log (a retry); nothing changed.
    case duplicate
    /// The current state refuses the event; nothing changed.
    case rejected(MomentumError)
}

/// A freeze offered for a habit's missed day (seed 004), or the key of an answer to one.
public struct FreezeOffer: Hashable, Sendable, Codable {
    /// The habit whose streak the freeze protects.
    public var habit: String
    /// The missed day.
    public var day: LocalDay

    /// Creates an offer key.
    public init(habit: String, day: LocalDay) {
        self.habit = habit
        self.day = day
    }
}

/// An event in the log that the state refused; it changes nothing.
public struct Rejection: Hashable, Sendable, Codable {
    /// The refused event's id.
    public var event: String
    /// Why, for programs.
    public var code: MomentumError.Code
    /// Why, for people.
    public var message: String
}

extension MomentumError.Code: Codable {
    /// Decodes the value from its JSON form, described in the type's documentation.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let all: [MomentumError.Code] = [
            .malformedEvent, .invalidEvent, .unknownHabit, .duplicateHabit, .habitArchived, .unknownTimeZone,
            .futureTimestamp, .outsideBackfillWindow, .insufficientDiamonds, .unknownStoreItem, .conflictingEventID,
            .noFreezeOffer, .invalidPack, .limitExceeded,
        ]
        guard let code = all.first(where: { $0.description == text }) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unknown error code '\(text)'"))
        }
        self = code
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
