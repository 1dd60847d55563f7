import Foundation

/// Why one day of one habit is in its state: the engine's reason, a sentence for a person
/// helping the user (the operator's console), and the events that made it so.
///
/// Built from a ``UserState`` and the log it was evaluated from, so it says nothing the
/// state does not: ``explain(_:events:dayStartHour:)`` reads the calendar, the ledger, the
/// pauses and the events, and names the ones that decided each day.
public struct DayExplanation: Hashable, Sendable, Codable {
    /// What decided a day.
    public enum Cause: String, Hashable, Sendable, Codable, CaseIterable {
        /// Completions were logged for the day.
        case completion
        /// Done without a completion: a limit habit kept under its limit, or a period's quota.
        case counted
        /// Missed, forgiven by the streak policy's grace.
        case grace
        /// Missed, protected by a freeze from the shared pool.
        case freeze
        /// Missed, and nothing protected it.
        case missed
        /// Missed after the user declined the freeze offered for it.
        case declinedFreeze
        /// A rest day the user took (a `skip` event).
        case skip
        /// A date the user never lived through while travelling east.
        case travel
        /// A pause (a vacation) covered the day.
        case pause
        /// An incident amnesty an operator declared covered the day.
        case amnesty
        /// The habit was not due: not on its schedule, or its period's quota was already met.
        case notDue
        /// Before the habit's first completion: streak counting begins there.
        case notStarted
        /// Before the habit existed.
        case beforeStart
        /// The habit was archived.
        case archived
        /// Today, still open.
        case open
        /// After today.
        case future
        /// A state this explanation does not know yet (from a newer engine).
        case other
    }

    /// The habit's id.
    public var habit: String
    /// The day.
    public var day: LocalDay
    /// The day's state, as the calendar shows it.
    public var state: DayState
    /// What decided it.
    public var cause: Cause
    /// One English sentence saying why.
    public var detail: String
    /// The ids of the events that made it so (completions, the skip, the pause, the freeze
    /// decision), in log order; empty where no event did (a miss, a day not due).
    public var events: [String]

    /// Creates an explanation.
    public init(habit: String, day: LocalDay, state: DayState, cause: Cause, detail: String, events: [String]) {
        self.habit = habit
        self.day = day
        self.state = state
        self.cause = cause
        self.detail = detail
        self.events = events
    }
}

extension DayExplanation {
    /// Every day of every habit's calendar in `state`, explained, by habit id.
    ///
    /// - Parameters:
    ///   - state: A state the engine evaluated (its calendars give the days explained).
    ///   - events: The log it was evaluated from (``UserEngine/events``).
    ///   - dayStartHour: The user's day boundary, to place events without a `day` on theirs.
    /// - Returns: Each habit's days in calendar order.
    public static func explain(_ state: UserState, events: [Event], dayStartHour: Int) -> [String: [DayExplanation]] {
        let clock = DayClock(dayStartHour: dayStartHour)
        let travel = Set(state.skippedDays)
        var skips: [LocalDay: [(habit: String?, id: String)]] = [:]
        var decisions: [String: [LocalDay: (id: String, accepted: Bool)]] = [:]
        var amnestyEvents: [String: [String]] = [:]
        for event in events {
            switch event.payload {
            case .skip(let habit, let logged, _):
                guard let day = logged ?? localDay(of: event, clock: clock) else { continue }
                skips[day, default: []].append((habit, event.id))
            case .freezeDecision(let habit, let day, let accepted):
                decisions[habit, default: [:]][day] = (event.id, accepted)
            case .amnesty(let amnesty):
                amnestyEvents[amnesty.id, default: []].append(event.id)
            default: continue
            }
        }
        var result: [String: [DayExplanation]] = [:]
        for habit in state.habits {
            let id = habit.definition.id
            let freezes = state.ledger.filter { $0.source == .freezeUsed && $0.habit == id }
            result[id] = habit.calendar.map { calendarDay in
                let day = calendarDay.day
                let (cause, detail, ids) = reason(
                    calendarDay, habit: habit,
                    context: Context(
                        travel: travel.contains(day),
                        skips: skips[day, default: []].filter { $0.habit == nil || $0.habit == id },
                        pauses: state.pauses.filter {
                            ($0.habit == nil || $0.habit == id) && $0.from <= day && day <= $0.until
                        },
                        freeze: freezes.first { $0.day == day }, decision: decisions[id]?[day],
                        amnesties: state.amnesties.filter { $0.from <= day && day <= $0.until }.map {
                            (reason: $0.reason, events: amnestyEvents[$0.id] ?? [])
                        }))
                return DayExplanation(
                    habit: id, day: day, state: calendarDay.state, cause: cause, detail: detail, events: ids)
            }
        }
        return result
    }

    private struct Context {
        var travel: Bool
        var skips: [(habit: String?, id: String)]
        var pauses: [PausePeriod]
        var freeze: LedgerEntry?
        var decision: (id: String, accepted: Bool)?
        var amnesties: [(reason: String, events: [String])]
    }

    private static func localDay(of event: Event, clock: DayClock) -> LocalDay? {
        ZoneOffsetTable.named(event.timeZone).map { clock.localDay(of: event.at, in: $0) }
    }

    // An if-chain rather than a switch: a state a newer engine adds is explained as
    // `other` with its name instead of failing to build.
    private static func reason(
        _ day: CalendarDay, habit: HabitState, context: Context
    ) -> (Cause, String, [String]) {
        let state = day.state
        if state == .completed {
            guard !day.completions.isEmpty else { return (.counted, "Counted as done.", []) }
            let count = day.completions.count
            let backfilled = day.completions.contains(where: \.backfilled) ? ", logged later" : ""
            return (
                .completion, "Done: \(count) completion\(count == 1 ? "" : "s") logged\(backfilled).",
                day.completions.map(\.event)
            )
        }
        if state == .grace {
            let grace = habit.policy.grace
            return (
                .grace, "Missed, forgiven by the streak's grace (\(grace) missed day\(grace == 1 ? "" : "s") allowed).",
                []
            )
        }
        if state == .frozen {
            let accepted = context.decision.flatMap { $0.accepted ? [$0.id] : nil } ?? []
            let spent = context.freeze.flatMap(\.event).map { [$0] } ?? []
            let left = context.freeze.map { " (\($0.freezeBalance) left after it)" } ?? ""
            let how = accepted.isEmpty ? "spent automatically" : "accepted by the user"
            return (
                .freeze, "Missed, protected by a freeze from the shared pool, \(how)\(left).",
                Array(Set(accepted + spent)).sorted()
            )
        }
        if state == .missed {
            if let decision = context.decision, !decision.accepted {
                return (.declinedFreeze, "Missed: the user declined the freeze offered for it.", [decision.id])
            }
            return (.missed, "Missed: due and not done, with no grace or freeze left to cover it.", [])
        }
        if state == .skipped {
            if context.skips.isEmpty, context.travel {
                return (.travel, "Skipped: a date the user never lived through while travelling east.", [])
            }
            return (.skip, "Skipped: a rest day the user took.", context.skips.map(\.id))
        }
        if state == .paused {
            let notes = context.pauses.compactMap(\.note)
            let note = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
            return (.pause, "Paused: a vacation covered the day\(note).", context.pauses.map(\.id))
        }
        if state == .covered {
            let reasons = context.amnesties.map(\.reason)
            let reason = reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))"
            return (
                .amnesty, "Covered: an outage the operator declared\(reason); no freeze spent.",
                context.amnesties.flatMap(\.events)
            )
        }
        if state == .notDue {
            return (.notDue, "Not due: not on the habit's schedule, or its period's quota was already met.", [])
        }
        if state == .notStarted {
            return (.notStarted, "Before the habit's first completion: the streak counts from there.", [])
        }
        if state == .beforeStart { return (.beforeStart, "Before the habit existed.", []) }
        if state == .archived { return (.archived, "The habit was archived.", []) }
        if state == .pending {
            guard !day.completions.isEmpty else { return (.open, "Today, still open.", []) }
            return (.open, "Today, still open: logged so far, not yet done.", day.completions.map(\.event))
        }
        if state == .future { return (.future, "After today.", []) }
        return (.other, "In state '\(state.rawValue)'.", [])
    }
}

extension UserEngine {
    /// The last `days` days (ending today) of every habit, explained
    /// (``DayExplanation/explain(_:events:dayStartHour:)``).
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - zone: The user's current zone; by default the latest event's.
    ///   - days: How many days, ending today, to explain (at least 1).
    public mutating func dayExplanations(at now: Date, zone: String? = nil, days: Int) -> [String: [DayExplanation]] {
        let state = state(at: now, zone: zone, calendarDays: max(1, days))
        return DayExplanation.explain(state, events: events, dayStartHour: clock.dayStartHour)
    }
}
