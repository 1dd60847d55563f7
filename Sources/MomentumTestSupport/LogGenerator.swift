import Foundation
import MomentumCore

/// Generates realistic, deterministic event logs for tests and benchmarks.
///
/// A generated user creates `habits` habits on the first day and then, day by day, completes
/// each due habit with probability `completionRate` at a random time of day; now and then
/// rests a habit, buys freezes, or logs yesterday's completion the next morning.
public struct LogGenerator: Sendable {
    /// What to generate.
    public struct Options: Sendable {
        /// How many habits.
        public var habits: Int = 10
        /// How many days of history.
        public var days: Int = 365 * 5
        /// The first day.
        public var firstDay: LocalDay = LocalDay(year: 2021, month: 1, day: 4)!
        /// The zone every event is logged in.
        public var timeZone: String = "America/New_York"
        /// The chance a due habit is completed on a day.
        public var completionRate: Double = 0.9
        /// The chance, per habit and day, of a rest day.
        public var skipRate: Double = 0.01
        /// The chance, per day, of a pause (a vacation) of 1 to 10 days of one habit or of all,
        /// starting that day or the day before; about a third are ended early by a `resume`.
        public var pauseRate: Double = 0
        /// The chance, per day, of buying a 5-freeze pack.
        public var purchaseRate: Double = 0.01
        /// The chance, per day, of an operator's grant of diamonds and freezes.
        public var grantRate: Double = 0
        /// The chance, per day, of an amnesty covering a window of the last three days; one
        /// in three is lifted a few days later.
        public var amnestyRate: Double = 0
        /// The chance a completion is logged the next morning for the day before.
        public var backfillRate: Double = 0.0
        /// The schedules to draw from, in turn.
        public var schedules: [Schedule] = [.daily]
        /// The policies to draw from, in turn.
        public var policies: [StreakPolicy?] = [nil]
        /// The RNG seed.
        public var seed: UInt64 = 1
        /// The habits' week start.
        public var weekStart: Weekday = .monday

        /// Default options: 10 daily habits for five years.
        public init() {}
    }

    /// The options.
    public var options: Options

    /// Creates a generator.
    public init(_ options: Options = Options()) { self.options = options }

    /// Generates the log, in chronological order.
    public func events() -> [Event] {
        var rng = SplitMix64(seed: options.seed)
        let zone = TimeZone(identifier: options.timeZone)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var events: [Event] = []
        events.reserveCapacity(options.days * options.habits + 16)
        var serial = 0
        func id() -> String {
            serial += 1
            return "e\(serial)"
        }
        func instant(_ day: LocalDay, second: Int) -> Date {
            let (y, m, d) = day.civil
            let midnight = calendar.date(from: DateComponents(year: y, month: m, day: d, hour: 12))!
            return calendar.startOfDay(for: midnight).addingTimeInterval(Double(second))
        }
        let first = options.firstDay
        for h in 0..<options.habits {
            let definition = HabitDefinition(
                id: "h\(h)", name: "Habit \(h)", schedule: options.schedules[h % options.schedules.count],
                policy: options.policies[h % options.policies.count],
                difficulty: Difficulty.allCases[h % 3], weekStart: options.weekStart)
            events.append(
                Event(
                    id: id(), at: instant(first, second: 6 * 3600 + h), timeZone: options.timeZone,
                    payload: .habitCreated(definition)))
        }
        for offset in 0..<options.days {
            let day = first.advanced(by: offset)
            for h in 0..<options.habits {
                let roll = Double(rng.next() % 1_000_000) / 1_000_000
                let second = 7 * 3600 + Int(rng.next() % UInt64(14 * 3600))
                if roll < options.skipRate {
                    events.append(
                        Event(
                            id: id(), at: instant(day, second: second), timeZone: options.timeZone,
                            payload: .skip(habit: "h\(h)", day: nil, note: nil)))
                } else if roll < options.skipRate + options.completionRate {
                    let backfill = offset > 0 && Double(rng.next() % 1000) / 1000 < options.backfillRate
                    let at =
                        backfill ? instant(day.advanced(by: 1), second: 6 * 3600 + h) : instant(day, second: second)
                    events.append(
                        Event(
                            id: id(), at: at, timeZone: options.timeZone,
                            payload: .completion(habit: "h\(h)", day: backfill ? day : nil, value: 1, note: nil)))
                }
            }
            if options.pauseRate > 0, Double(rng.next() % 1_000_000) / 1_000_000 < options.pauseRate {
                let from = day.advanced(by: offset > 0 ? -Int(rng.next() % 2) : 0)
                let length = 1 + Int(rng.next() % 10)
                let habit = rng.next() % 2 == 0 ? nil : "h\(rng.next() % UInt64(max(1, options.habits)))"
                let pause = id()
                events.append(
                    Event(
                        id: pause, at: instant(day, second: 22 * 3600 + 1800), timeZone: options.timeZone,
                        payload: .pause(Pause(habit: habit, from: from, until: from.advanced(by: length - 1)))))
                let back = day.advanced(by: 1 + Int(rng.next() % UInt64(length)))
                if rng.next() % 3 == 0, offset + back.number - day.number < options.days {
                    events.append(
                        Event(
                            id: id(), at: instant(back, second: 5 * 3600 + 2), timeZone: options.timeZone,
                            payload: .resume(pause: pause)))
                }
            }
            if options.grantRate > 0, Double(rng.next() % 1_000_000) / 1_000_000 < options.grantRate {
                events.append(
                    Event(
                        id: id(), at: instant(day, second: 21 * 3600), timeZone: options.timeZone,
                        payload: .grant(
                            Grant(diamonds: 1 + Int(rng.next() % 50), freezes: Int(rng.next() % 3), reason: "Thanks"))))
            }
            if options.amnestyRate > 0, Double(rng.next() % 1_000_000) / 1_000_000 < options.amnestyRate {
                let at = instant(day, second: 23 * 3600)
                let end = at.addingTimeInterval(-Double(rng.next() % 86_400))
                let start = end.addingTimeInterval(-Double(1 + rng.next() % (2 * 86_400)))
                let amnesty = "am\(id())"
                events.append(
                    Event(
                        id: id(), at: at, timeZone: options.timeZone,
                        payload: .amnesty(Amnesty(id: amnesty, start: start, end: end, reason: "Outage"))))
                let later = day.advanced(by: 1 + Int(rng.next() % 5))
                if rng.next() % 3 == 0, offset + later.number - day.number < options.days {
                    events.append(
                        Event(
                            id: id(), at: instant(later, second: 6 * 3600), timeZone: options.timeZone,
                            payload: .amnestyLifted(id: amnesty)))
                }
            }
            if Double(rng.next() % 1_000_000) / 1_000_000 < options.purchaseRate {
                events.append(
                    Event(
                        id: id(), at: instant(day, second: 22 * 3600), timeZone: options.timeZone,
                        payload: .purchase(item: "freeze-5", days: nil)))
            }
        }
        return events.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
    }
}
