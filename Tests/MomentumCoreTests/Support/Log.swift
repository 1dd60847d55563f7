import Foundation
import MomentumCore

/// A day of 2026 by its number in the year: `day(1)` is 2026-01-01 (a Thursday).
func day(_ n: Int) -> LocalDay { LocalDay(year: 2026, month: 1, day: 1)!.advanced(by: n - 1) }

/// Builds event logs concisely for examples: events happen at whole hours, in UTC unless
/// a zone is given, with sequential ids.
struct Log {
    var zone = "UTC"
    var pack = RulePack.habits
    private(set) var events: [Event] = []
    private var serial = 0

    init(zone: String = "UTC", pack: RulePack = .habits) {
        self.zone = zone
        self.pack = pack
    }

    /// An instant at a local hour of a day in the log's zone (exact for whole hours outside
    /// DST transitions).
    func instant(_ day: LocalDay, hour: Double = 9, zone: String? = nil) -> Date {
        let table = ZoneOffsetTable.named(zone ?? self.zone)!
        let local = Double(day.number) * 86_400 + hour * 3600
        let guess = Int64(local) - Int64(table.offset(atSecond: Int64(local)))
        return Date(timeIntervalSince1970: Double(Int64(local) - Int64(table.offset(atSecond: guess))))
    }

    mutating func add(_ payload: Event.Payload, on day: LocalDay, hour: Double = 9, zone: String? = nil) {
        serial += 1
        events.append(
            Event(
                id: "e\(serial)", at: instant(day, hour: hour, zone: zone), timeZone: zone ?? self.zone,
                payload: payload))
    }

    mutating func habit(
        _ id: String, _ schedule: Schedule = .daily, policy: StreakPolicy? = nil, target: Target = .check,
        on start: LocalDay = day(1), weekStart: Weekday = .monday
    ) {
        add(
            .habitCreated(
                HabitDefinition(
                    id: id, name: id.capitalized, schedule: schedule, target: target, policy: policy,
                    weekStart: weekStart)),
            on: start, hour: 7)
    }

    mutating func complete(_ habit: String, on day: LocalDay, value: Double = 1, hour: Double = 9, note: String? = nil)
    {
        add(.completion(habit: habit, day: nil, value: value, note: note), on: day, hour: hour)
    }

    /// Completes a habit on every day in a range.
    mutating func complete(_ habit: String, days: ClosedRange<Int>, except: Set<Int> = []) {
        for n in days where !except.contains(n) { complete(habit, on: day(n)) }
    }

    mutating func skip(_ habit: String?, on day: LocalDay) {
        add(.skip(habit: habit, day: nil, note: nil), on: day, hour: 8)
    }

    mutating func buy(_ item: String? = nil, days: Int? = nil, on day: LocalDay, hour: Double = 20) {
        add(.purchase(item: item, days: days), on: day, hour: hour)
    }

    mutating func answer(_ habit: String, missed: LocalDay, accept: Bool, on day: LocalDay) {
        add(.freezeDecision(habit: habit, day: missed, accepted: accept), on: day, hour: 8)
    }

    /// The state at a local hour of a day.
    func state(on day: LocalDay, hour: Double = 12, dayStartHour: Int = 0) throws -> UserState {
        try UserEngine.evaluate(
            events, now: instant(day, hour: hour), pack: pack, dayStartHour: dayStartHour, zone: zone)
    }
}

extension UserState {
    subscript(habit id: String) -> HabitState { habits.first { $0.definition.id == id }! }
}

extension HabitState {
    /// The calendar entry of a day.
    subscript(day: LocalDay) -> CalendarDay { calendar.first { $0.day == day }! }

    /// The states from a day on, as short strings, for compact assertions.
    func states(from first: LocalDay, through last: LocalDay) -> [DayState] {
        calendar.filter { $0.day >= first && $0.day <= last }.map(\.state)
    }
}
