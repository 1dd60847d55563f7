import Foundation

/// Amnesties (outages an operator declared): the local days the live `amnesty` events'
/// windows touch, less those a live `amnesty.lifted` names. Like paused days, covered days
/// are a function of the live log, not of the sweep's position, so they are kept beside the
/// run and a checkpoint replays against the current ones.
extension UserEngine {
    /// Recomputes the covered days from the live `amnesty` and `amnesty.lifted` events.
    ///
    /// A window's days are the local days (the amnesty event's zone and the user's day
    /// start hour) from the one holding its start to the one holding the instant before its
    /// end. Where two amnesties cover a day, the one applied first names it.
    mutating func recomputeAmnesties() {
        coveredDays = [:]
        for period in liveAmnesties() {
            for day in period.from...period.until where coveredDays[day] == nil { coveredDays[day] = period.index }
        }
    }

    /// Recomputes the covered days; returns the earliest day that became or stopped being
    /// covered, if any.
    mutating func recomputeAmnestyChanges() -> Int? {
        let before = coveredDays
        recomputeAmnesties()
        var earliest: Int?
        for (day, index) in before where coveredDays[day] != index { earliest = min(earliest ?? day, day) }
        for (day, index) in coveredDays where before[day] != index { earliest = min(earliest ?? day, day) }
        return earliest
    }

    /// The earliest closed day whose paused or covered days an appended `pause`, `resume`,
    /// `amnesty` or `amnesty.lifted` entry changed, if any: where the append must rewind.
    mutating func restDayChange(for entry: Entry) -> Int? {
        let changed: Int?
        switch entry.operation {
        case .pause, .resume: changed = recomputePauseChanges()
        case .amnesty, .amnestyLifted: changed = recomputeAmnestyChanges()
        default: return nil
        }
        guard let changed, let open = run.openDay, changed < open else { return nil }
        return changed
    }

    /// Whether a day is covered by an amnesty.
    @inline(__always)
    func isCovered(_ day: Int) -> Bool {
        !coveredDays.isEmpty && coveredDays[day] != nil
    }

    /// The live amnesties not lifted, in application order, each with its event's index in
    /// the log and its first and last local days.
    func liveAmnesties() -> [(index: Int32, amnesty: Amnesty, from: Int, until: Int)] {
        var lifted: Set<String> = []
        for entry in entries where entry.operation == .amnestyLifted {
            if case .amnestyLifted(let id) = log[Int(entry.event)].payload { lifted.insert(id) }
        }
        return entries.compactMap { entry in
            let event = log[Int(entry.event)]
            guard entry.operation == .amnesty, case .amnesty(let amnesty) = event.payload,
                !lifted.contains(amnesty.id), let table = table(for: event.timeZone)
            else { return nil }
            let from = clock.localDay(of: amnesty.start, in: table).number
            let until = clock.localDay(of: amnesty.end.addingTimeInterval(-0.001), in: table).number
            return (entry.event, amnesty, from, max(from, until))
        }
    }

    /// The amnesties as the state shows them: every live one not lifted, with the days it
    /// covers and its reason, in the order they were declared.
    var amnestyPeriods: [AmnestyPeriod] {
        liveAmnesties().map { period in
            AmnestyPeriod(
                id: period.amnesty.id, start: period.amnesty.start, end: period.amnesty.end,
                from: LocalDay(number: period.from), until: LocalDay(number: period.until),
                reason: period.amnesty.reason)
        }
    }
}

/// An amnesty as the state shows it: an outage whose days are ``DayState/covered``.
public struct AmnestyPeriod: Hashable, Sendable, Codable {
    /// The amnesty's id.
    public var id: String
    /// When the outage began.
    public var start: Date
    /// When it ended.
    public var end: Date
    /// The first local day it covers.
    public var from: LocalDay
    /// The last local day it covers.
    public var until: LocalDay
    /// Why, as the operator wrote it.
    public var reason: String

    /// Creates an amnesty period.
    public init(id: String, start: Date, end: Date, from: LocalDay, until: LocalDay, reason: String) {
        self.id = id
        self.start = start
        self.end = end
        self.from = from
        self.until = until
        self.reason = reason
    }

    /// The reason of the amnesty covering `day` among `periods`, if one does.
    public static func reason(on day: LocalDay, in periods: [AmnestyPeriod]) -> String? {
        periods.first { $0.from <= day && day <= $0.until }?.reason
    }
}
