import Foundation

/// One user's engines together: streaks and wallet (``UserEngine``) and achievements
/// (``AchievementEngine``), fed from the same event log.
public struct MomentumUser: Sendable {
    /// Streaks, calendars, freezes and the wallet.
    public private(set) var streaks: UserEngine
    /// Achievements and unlocks.
    public private(set) var achievements: AchievementEngine

    /// Creates a user with an empty log.
    public init(pack: RulePack = .habits, dayStartHour: Int = 0) {
        streaks = UserEngine(pack: pack, dayStartHour: dayStartHour)
        achievements = AchievementEngine(rules: pack.achievements, methods: pack.methods, dayStartHour: dayStartHour)
        achievements.translation = pack.translation
    }

    /// Every unlock granted so far.
    public var unlocks: [Unlock] { achievements.unlocks }

    /// An estimate of the memory the user's engines hold, in bytes, for caches bounded in
    /// bytes: 680 bytes per event of the log, 200 per event the achievements keep, 400 per
    /// unlock, 256 per day from the first event to the open day, and 8 KiB besides. Cheap:
    /// it counts, it does not walk the heap. The scale benchmark (BENCHMARKS.md §13)
    /// measures the heap of cached users of 1 to 10 habits and 60 to 730 days against it;
    /// it errs on the large side.
    public var estimatedBytes: Int {
        8_192 + streaks.log.count * 680 + achievements.events.count * 200 + achievements.unlocks.count * 400
            + streaks.historyDays * 256
    }

    /// Appends one event as it arrives and returns what it unlocked.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - now: When given, timestamps later than `now` plus the pack's tolerance are refused.
    ///   - detectedAt: When the event reached Momentum; by default `now`, or the event's
    ///     own instant.
    /// - Throws: ``MomentumError`` when the event is invalid (see ``UserEngine/append(_:now:)``).
    @discardableResult
    public mutating func append(
        _ event: Event, now: Date? = nil, detectedAt: Date? = nil
    ) throws(MomentumError) -> (result: AppendResult, unlocks: [Unlock]) {
        // A contribution that arrives now must name a goal the log holds. (A log replayed
        // without `now` keeps an orphan contribution, counting for nothing, as it did.)
        if now != nil, case .contribution(let goal, _, _, _) = event.payload, achievements.goals[goal] == nil,
            streaks.event(id: event.id) == nil
        {
            throw MomentumError(.invalidEvent, "there is no goal '\(goal)'", field: "goal")
        }
        // A stage that arrives now must follow the method's history: it leaves the stage the
        // method is at (a record made offline, older than the latest, is left to the history).
        if now != nil, case .stage(let method, let from, let to, let note) = event.payload,
            streaks.event(id: event.id) == nil
        {
            try checkStage(
                StageAdvance(eventID: event.id, methodID: method, from: from, to: to, at: event.at, note: note))
        }
        if now != nil, case .milestone(let milestone) = event.payload, streaks.event(id: event.id) == nil {
            try checkMilestone(milestone)
        }
        if now != nil, case .milestoneDeleted(let id) = event.payload, streaks.event(id: event.id) == nil {
            guard achievements.customMilestone(id) != nil else {
                throw MomentumError(.invalidEvent, "there is no milestone '\(id)' to delete", field: "milestone")
            }
        }
        let result = try streaks.append(event, now: now)
        guard result == .applied else { return (result, []) }
        let detected = detectedAt ?? now ?? event.at
        var unlocks = achievements.process(event, detectedAt: detected)
        if achievements.watchesHabits, Self.touchesHabits(event) {
            streaks.advance(to: max(detected, event.at), zone: event.timeZone)
            unlocks += achievements.evaluateHabits(in: streaks, detectedAt: detected)
        }
        return (result, unlocks)
    }

    /// Replays a log as if each event had arrived when it was recorded (its `at`), in that
    /// order, then moves the clock to `now`. Events the engine refuses are skipped (load the
    /// log with ``UserEngine/load(_:now:)`` first to report them).
    ///
    /// - Returns: Every unlock, in the order granted.
    @discardableResult
    public mutating func replay(_ events: [Event], now: Date) -> [Unlock] {
        let ordered = events.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        for event in ordered { _ = try? append(event, now: now, detectedAt: event.at) }
        advance(to: now)
        return unlocks
    }

    /// Moves the clock: closes days and fires time-based achievements reached by `now`.
    @discardableResult
    public mutating func advance(to now: Date, zone: String? = nil) -> [Unlock] {
        var unlocks = achievements.advance(to: now, zone: zone ?? streaks.latest?.zone)
        if achievements.watchesHabits {
            streaks.advance(to: now, zone: zone ?? streaks.latest?.zone ?? "UTC")
            unlocks += achievements.evaluateHabits(in: streaks, detectedAt: now)
        }
        return unlocks
    }

    /// The streak engine's state at `now` (see ``UserEngine/state(at:zone:calendarDays:)``),
    /// computed in place so that a long log is not copied.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - zone: The user's current zone; by default the latest event's.
    ///   - calendarDays: How many days each habit's calendar holds; `nil` for all.
    public mutating func state(at now: Date, zone: String? = nil, calendarDays: Int? = nil) -> UserState {
        streaks.state(at: now, zone: zone, calendarDays: calendarDays)
    }

    private static func touchesHabits(_ event: Event) -> Bool {
        switch event.payload {
        case .subject, .activity, .goal, .contribution, .stage, .purchase, .unknown: false
        default: true
        }
    }
}

extension MomentumUser {
    /// Refuses a milestone of the user's own that names a habit the log does not hold, that
    /// would be one more than ``EventLimits/maximumCustomMilestones``, or one more event than
    /// ``EventLimits/maximumMilestoneEvents``.
    func checkMilestone(_ milestone: CustomMilestone) throws(MomentumError) {
        if let habit = milestone.habit, !streaks.hasHabit(habit) {
            throw MomentumError(.unknownHabit, "there is no habit '\(habit)'", field: "habit")
        }
        if achievements.customMilestone(milestone.id) == nil,
            achievements.customMilestones.count >= EventLimits.maximumCustomMilestones
        {
            throw MomentumError(
                .limitExceeded,
                "an account may define at most \(EventLimits.maximumCustomMilestones) milestones of its own; "
                    + "edit or delete one instead",
                field: "milestone")
        }
        if achievements.milestoneEventCount >= EventLimits.maximumMilestoneEvents {
            throw MomentumError(
                .limitExceeded,
                "an account may hold at most \(EventLimits.maximumMilestoneEvents) milestone definitions, edits "
                    + "and deletions",
                field: "milestone")
        }
    }

    /// Refuses a stage advance that does not follow the method's recorded history (a wrong
    /// or missing `from`, an unknown method or stage), in the words of ``ProgressionHistory``.
    func checkStage(_ advance: StageAdvance) throws(MomentumError) {
        guard var history = try? ProgressionHistory(methods: streaks.pack.methods) else { return }
        for event in streaks.events {
            guard case .stage(let method, let from, let to, let note) = event.payload else { continue }
            _ = try? history.record(
                StageAdvance(eventID: event.id, methodID: method, from: from, to: to, at: event.at, note: note))
        }
        if let latest = history.timeline(for: advance.methodID).last?.date, latest > advance.at { return }
        try history.record(advance)
    }
}
