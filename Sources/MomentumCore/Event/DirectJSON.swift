import Foundation

/// A type whose canonical JSON ``CanonicalJSONEncoder`` writes by calling the type directly,
/// not through the `Encoder` protocol: the same bytes as its `encode(to:)`, several times
/// faster, for the documents written on every check-in (a habit's state and a completion
/// event, which the stream recognises by their types wherever they appear).
///
/// Each conformance writes its keys in byte order and leaves out what its `encode(to:)`
/// leaves out. The tests compare it with Foundation's encoder on generated states and on
/// every schedule, target and policy form, so a property added to one of these types
/// without being added here fails them.
protocol DirectJSON {
    /// Appends the value's canonical JSON to `out`; returns false, with `out` left in any
    /// state, for a value it cannot write (a number that is not finite), which the encoder
    /// then encodes through `encode(to:)` to report the error as Foundation does.
    func writeJSON(into out: inout [UInt8]) -> Bool
}

extension JSONBytes {
    /// Appends text known to need no escaping: punctuation and keys.
    @inline(__always)
    static func raw(_ text: StaticString, into out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends a finite double as ``double(_:path:into:)`` does; false when it is not finite.
    @inline(__always)
    static func finite(_ value: Double, into out: inout [UInt8]) -> Bool {
        guard value.isFinite else { return false }
        try? double(value, path: JSONPath(parent: nil, key: nil), into: &out)
        return true
    }

    @inline(__always)
    static func int(_ value: Int, into out: inout [UInt8]) {
        integer(Int64(value), into: &out)
    }
}

extension HabitState: DirectJSON {
    func writeJSON(into out: inout [UInt8]) -> Bool {
        JSONBytes.raw("{", into: &out)
        if let archivedDay {
            JSONBytes.raw(#""archivedDay":"#, into: &out)
            JSONBytes.day(archivedDay, into: &out)
            JSONBytes.raw(",", into: &out)
        }
        JSONBytes.raw(#""best":"#, into: &out)
        JSONBytes.int(best, into: &out)
        JSONBytes.raw(#","border":"#, into: &out)
        JSONBytes.string(border.rawValue, into: &out)
        JSONBytes.raw(#","breaks":"#, into: &out)
        JSONBytes.int(breaks, into: &out)
        JSONBytes.raw(#","calendar":["#, into: &out)
        for (index, day) in calendar.enumerated() {
            if index > 0 { JSONBytes.raw(",", into: &out) }
            guard day.writeJSON(into: &out) else { return false }
        }
        JSONBytes.raw(#"],"current":"#, into: &out)
        JSONBytes.int(current, into: &out)
        if let currentStreakStart {
            JSONBytes.raw(#","currentStreakStart":"#, into: &out)
            JSONBytes.day(currentStreakStart, into: &out)
        }
        JSONBytes.raw(#","definition":"#, into: &out)
        guard definition.writeJSON(into: &out) else { return false }
        JSONBytes.raw(#","highestStreakAchieved":"#, into: &out)
        JSONBytes.int(highestStreakAchieved, into: &out)
        JSONBytes.raw(#","policy":"#, into: &out)
        policy.writeJSON(into: &out)
        JSONBytes.raw(#","shieldActive":"#, into: &out)
        JSONBytes.bool(shieldActive, into: &out)
        JSONBytes.raw(#","startDay":"#, into: &out)
        JSONBytes.day(startDay, into: &out)
        JSONBytes.raw(#","today":"#, into: &out)
        guard today.writeJSON(into: &out) else { return false }
        JSONBytes.raw("}", into: &out)
        return true
    }
}

extension TodayStatus: DirectJSON {
    func writeJSON(into out: inout [UInt8]) -> Bool {
        JSONBytes.raw(#"{"due":"#, into: &out)
        JSONBytes.bool(due, into: &out)
        JSONBytes.raw(#","logged":"#, into: &out)
        guard JSONBytes.finite(logged, into: &out) else { return false }
        if let period {
            JSONBytes.raw(#","period":"#, into: &out)
            period.writeJSON(into: &out)
        }
        if let remaining {
            JSONBytes.raw(#","remaining":"#, into: &out)
            guard JSONBytes.finite(remaining, into: &out) else { return false }
        }
        JSONBytes.raw(#","state":"#, into: &out)
        JSONBytes.string(state.rawValue, into: &out)
        JSONBytes.raw("}", into: &out)
        return true
    }
}

extension PeriodProgress {
    func writeJSON(into out: inout [UInt8]) {
        JSONBytes.raw(#"{"completedDays":"#, into: &out)
        JSONBytes.int(completedDays, into: &out)
        JSONBytes.raw(#","end":"#, into: &out)
        JSONBytes.day(end, into: &out)
        JSONBytes.raw(#","fulfilled":"#, into: &out)
        JSONBytes.bool(fulfilled, into: &out)
        JSONBytes.raw(#","requiredDays":"#, into: &out)
        JSONBytes.int(requiredDays, into: &out)
        JSONBytes.raw(#","start":"#, into: &out)
        JSONBytes.day(start, into: &out)
        JSONBytes.raw("}", into: &out)
    }
}

extension CalendarDay: DirectJSON {
    func writeJSON(into out: inout [UInt8]) -> Bool {
        JSONBytes.raw(#"{"border":"#, into: &out)
        JSONBytes.string(border.rawValue, into: &out)
        JSONBytes.raw(#","completions":["#, into: &out)
        for (index, completion) in completions.enumerated() {
            if index > 0 { JSONBytes.raw(",", into: &out) }
            guard completion.writeJSON(into: &out) else { return false }
        }
        JSONBytes.raw(#"],"day":"#, into: &out)
        JSONBytes.day(day, into: &out)
        JSONBytes.raw(#","state":"#, into: &out)
        JSONBytes.string(state.rawValue, into: &out)
        JSONBytes.raw(#","streak":"#, into: &out)
        JSONBytes.int(streak, into: &out)
        JSONBytes.raw("}", into: &out)
        return true
    }
}

extension CompletionDetail: DirectJSON {
    func writeJSON(into out: inout [UInt8]) -> Bool {
        JSONBytes.raw(#"{"at":"#, into: &out)
        JSONBytes.instant(at, into: &out)
        JSONBytes.raw(#","backfilled":"#, into: &out)
        JSONBytes.bool(backfilled, into: &out)
        JSONBytes.raw(#","event":"#, into: &out)
        JSONBytes.string(event, into: &out)
        if let note {
            JSONBytes.raw(#","note":"#, into: &out)
            JSONBytes.string(note, into: &out)
        }
        JSONBytes.raw(#","value":"#, into: &out)
        guard JSONBytes.finite(value, into: &out) else { return false }
        JSONBytes.raw("}", into: &out)
        return true
    }
}

extension HabitDefinition: DirectJSON {
    func writeJSON(into out: inout [UInt8]) -> Bool {
        JSONBytes.raw("{", into: &out)
        if let category {
            JSONBytes.raw(#""category":"#, into: &out)
            JSONBytes.string(category, into: &out)
            JSONBytes.raw(",", into: &out)
        }
        JSONBytes.raw(#""difficulty":"#, into: &out)
        JSONBytes.string(difficulty.rawValue, into: &out)
        if let group {
            JSONBytes.raw(#","group":"#, into: &out)
            JSONBytes.string(group, into: &out)
        }
        JSONBytes.raw(#","habit":"#, into: &out)
        JSONBytes.string(id, into: &out)
        JSONBytes.raw(#","name":"#, into: &out)
        JSONBytes.string(name, into: &out)
        if let policy {
            JSONBytes.raw(#","policy":"#, into: &out)
            policy.writeJSON(into: &out)
        }
        JSONBytes.raw(#","schedule":"#, into: &out)
        schedule.writeJSON(into: &out)
        if let startDay {
            JSONBytes.raw(#","start":"#, into: &out)
            JSONBytes.day(startDay, into: &out)
        }
        if target != .check {
            JSONBytes.raw(#","target":"#, into: &out)
            guard target.writeJSON(into: &out) else { return false }
        }
        if weekStart != .monday {
            JSONBytes.raw(#","weekStart":"#, into: &out)
            JSONBytes.string(weekStart.name, into: &out)
        }
        JSONBytes.raw("}", into: &out)
        return true
    }
}

extension Schedule {
    func writeJSON(into out: inout [UInt8]) {
        switch self {
        case .daily:
            JSONBytes.raw(#"{"kind":"daily"}"#, into: &out)
        case .weekdays(let days):
            JSONBytes.raw(#"{"days":["#, into: &out)
            for (index, day) in days.sorted().enumerated() {
                if index > 0 { JSONBytes.raw(",", into: &out) }
                JSONBytes.string(day.name, into: &out)
            }
            JSONBytes.raw(#"],"kind":"weekdays"}"#, into: &out)
        case .timesPerWeek(let count):
            JSONBytes.raw(#"{"count":"#, into: &out)
            JSONBytes.int(count, into: &out)
            JSONBytes.raw(#","kind":"timesPerWeek"}"#, into: &out)
        case .timesPerMonth(let count):
            JSONBytes.raw(#"{"count":"#, into: &out)
            JSONBytes.int(count, into: &out)
            JSONBytes.raw(#","kind":"timesPerMonth"}"#, into: &out)
        case .everyNDays(let interval):
            JSONBytes.raw(#"{"interval":"#, into: &out)
            JSONBytes.int(interval, into: &out)
            JSONBytes.raw(#","kind":"everyNDays"}"#, into: &out)
        case .monthly(let day):
            JSONBytes.raw(#"{"day":"#, into: &out)
            JSONBytes.int(day, into: &out)
            JSONBytes.raw(#","kind":"monthly"}"#, into: &out)
        case .yearly(let month, let day):
            JSONBytes.raw(#"{"day":"#, into: &out)
            JSONBytes.int(day, into: &out)
            JSONBytes.raw(#","kind":"yearly","month":"#, into: &out)
            JSONBytes.int(month, into: &out)
            JSONBytes.raw("}", into: &out)
        }
    }
}

extension Target {
    func writeJSON(into out: inout [UInt8]) -> Bool {
        JSONBytes.raw("{", into: &out)
        switch comparison {
        case .check: break
        case .atLeast:
            JSONBytes.raw(#""atLeast":"#, into: &out)
            guard JSONBytes.finite(amount, into: &out) else { return false }
        case .atMost:
            JSONBytes.raw(#""atMost":"#, into: &out)
            guard JSONBytes.finite(amount, into: &out) else { return false }
        }
        if let unit {
            if comparison != .check { JSONBytes.raw(",", into: &out) }
            JSONBytes.raw(#""unit":"#, into: &out)
            JSONBytes.string(unit, into: &out)
        }
        JSONBytes.raw("}", into: &out)
        return true
    }
}

extension StreakPolicy {
    func writeJSON(into out: inout [UInt8]) {
        if let name, StreakPolicy.presets[name] == self {
            JSONBytes.string(name, into: &out)
            return
        }
        JSONBytes.raw(#"{"freezes":"#, into: &out)
        JSONBytes.string(freezes.rawValue, into: &out)
        JSONBytes.raw(#","grace":"#, into: &out)
        JSONBytes.int(grace, into: &out)
        if let name {
            JSONBytes.raw(#","name":"#, into: &out)
            JSONBytes.string(name, into: &out)
        }
        switch penalty {
        case .reset:
            JSONBytes.raw(#","penalty":"reset"}"#, into: &out)
        case .decrement(let count):
            JSONBytes.raw(#","penalty":{"decrement":"#, into: &out)
            JSONBytes.int(count, into: &out)
            JSONBytes.raw("}}", into: &out)
        }
    }
}

extension Event {
    /// Writes a completion (the event every check-in appends) as its `encode(to:)` does;
    /// `nil` for another type of event, or one with ``Event/unknownFields``, which the
    /// encoder writes through `encode(to:)`.
    func writeCompletionJSON(into out: inout [UInt8]) -> Bool? {
        guard case .completion(let habit, let day, let value, let note) = payload, unknownFields.isEmpty else {
            return nil
        }
        JSONBytes.raw(#"{"at":"#, into: &out)
        JSONBytes.instant(at, into: &out)
        if let day {
            JSONBytes.raw(#","day":"#, into: &out)
            JSONBytes.day(day, into: &out)
        }
        JSONBytes.raw(#","habit":"#, into: &out)
        JSONBytes.string(habit, into: &out)
        JSONBytes.raw(#","id":"#, into: &out)
        JSONBytes.string(id, into: &out)
        if let note {
            JSONBytes.raw(#","note":"#, into: &out)
            JSONBytes.string(note, into: &out)
        }
        JSONBytes.raw(#","type":"completion","tz":"#, into: &out)
        JSONBytes.string(timeZone, into: &out)
        if value != 1 {
            JSONBytes.raw(#","value":"#, into: &out)
            guard JSONBytes.finite(value, into: &out) else { return false }
        }
        JSONBytes.raw("}", into: &out)
        return true
    }
}
