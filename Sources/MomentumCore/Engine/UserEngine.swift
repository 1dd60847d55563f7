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
    /// Days covered by an amnesty, with the index of its event (``recomputeAmnesties()``).
    var coveredDays: [Int: Int32] = [:]
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

    /// The distinct types of the events in the log that this engine does not know
    /// (``Event/Payload/unknown(type:)``), kept for a later engine.
    public var unknownEventTypes: Set<String> {
        var types = Set<String>()
        for event in log { if case .unknown(let type) = event.payload { types.insert(type) } }
        return types
    }

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
            // An event of an unknown type says nothing of where the user was.
            if !event.payload.isUnknown, let skipped = noteTravel(of: event), let open = run.openDay, skipped < open {
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
        if let changed = restDayChange(for: entry) { needsRewind(from: changed) }
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
