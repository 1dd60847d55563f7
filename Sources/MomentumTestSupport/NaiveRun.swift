import Foundation
import MomentumCore

// MARK: - Calendar arithmetic on day strings

/// Local days as `"YYYY-MM-DD"` strings, computed with a gregorian `Calendar`.
struct NaiveDays {
    var calendar: Calendar
    var dayStartHour: Int

    init(zone: String, dayStartHour: Int) {
        guard let timeZone = TimeZone(identifier: zone) else {
            preconditionFailure("NaiveEvaluator: unknown time zone '\(zone)'")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        self.dayStartHour = dayStartHour
    }

    /// The local day an instant falls on, with the day-start-hour rule.
    func day(of instant: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour], from: instant)
        let key = Self.key(year: parts.year!, month: parts.month!, day: parts.day!)
        return parts.hour! < dayStartHour ? adding(-1, to: key) : key
    }

    /// The day `n` days after `key`.
    func adding(_ n: Int, to key: String) -> String {
        let later = calendar.date(byAdding: .day, value: n, to: noon(of: key))!
        let parts = calendar.dateComponents([.year, .month, .day], from: later)
        return Self.key(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    /// The day's weekday.
    func weekday(of key: String) -> Weekday {
        // Calendar counts Sunday as 1; `Weekday` counts Monday as 1 and Sunday as 7.
        let sundayFirst = calendar.component(.weekday, from: noon(of: key))
        return sundayFirst == 1 ? .sunday : Weekday(rawValue: sundayFirst - 1)!
    }

    /// Noon of a day in the calendar's zone.
    func noon(of key: String) -> Date {
        let parts = key.split(separator: "-").map { Int($0)! }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
    }

    static func key(year: Int, month: Int, day: Int) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    static func key(_ day: LocalDay) -> String {
        let (year, month, dayOfMonth) = day.civil
        return key(year: year, month: month, day: dayOfMonth)
    }

    static func localDay(_ key: String) -> LocalDay {
        LocalDay(iso8601: key)!
    }
}

// MARK: - The walk

/// One habit while the days are walked.
struct NaiveHabit {
    var id: String
    var schedule: Schedule
    var policy: StreakPolicy
    var startDay: String
    var difficulty: Difficulty
    var current = 0
    var best = 0
    var highest = 0
    var gap = 0
    /// Completions per day string.
    var completions: [String: Int] = [:]
    /// Rest days.
    var restDays: Set<String> = []
    var states: [DayState] = []
    var streaks: [Int] = []
    /// Whether a day was completed yet: a day missed before the first completion has not
    /// started counting (seed 003).
    var started = false

    func isDue(weekday: Weekday) -> Bool {
        switch schedule {
        case .daily: true
        case .weekdays(let days): days.contains(weekday)
        default: preconditionFailure("NaiveEvaluator supports only daily and weekdays schedules")
        }
    }
}

/// The mutable state of one evaluation.
struct NaiveRun {
    let pack: RulePack
    let dayStartHour: Int
    var calendars: [String: NaiveDays] = [:]
    var habits: [NaiveHabit] = []
    var habitIndex: [String: Int] = [:]
    var diamonds = 0
    var freezes = 0
    var ledger: [NaiveLedgerLine] = []
    var rejected: [String] = []
    /// Paused days of every habit, and of single habits by id.
    var pausedAll: Set<String> = []
    /// Days an amnesty not lifted covers.
    var coveredDays: Set<String> = []
    var pausedByHabit: [String: Set<String>] = [:]

    init(pack: RulePack, dayStartHour: Int) {
        self.pack = pack
        self.dayStartHour = dayStartHour
    }

    mutating func days(in zone: String) -> NaiveDays {
        if let days = calendars[zone] { return days }
        let days = NaiveDays(zone: zone, dayStartHour: dayStartHour)
        calendars[zone] = days
        return days
    }

    /// The local day an event counts for.
    mutating func day(of event: Event) -> String {
        switch event.payload {
        case .completion(_, let day?, _, _), .skip(_, let day?, _): NaiveDays.key(day)
        default: days(in: event.timeZone).day(of: event.at)
        }
    }

    mutating func evaluate(_ events: [Event], now: Date) -> NaiveResult {
        guard let latest = events.max(by: { ($0.at, $0.id) < ($1.at, $1.id) }) else {
            return NaiveResult(diamonds: 0, freezes: 0, habits: [], ledger: [], rejectedEventIDs: [])
        }
        let zoneDays = days(in: latest.timeZone)
        let today = zoneDays.day(of: now)

        // Sort by (local day, habit.created first, instant, id).
        var keyed: [(day: String, rank: Int, event: Event)] = []
        for event in events {
            var rank = 1
            if case .habitCreated = event.payload { rank = 0 }
            keyed.append((day(of: event), rank, event))
        }
        keyed.sort { a, b in
            if a.day != b.day { return a.day < b.day }
            if a.rank != b.rank { return a.rank < b.rank }
            if a.event.at != b.event.at { return a.event.at < b.event.at }
            return a.event.id < b.event.id
        }

        // Register the habits in creation order, and group the events by day.
        var eventsByDay: [String: [Event]] = [:]
        var firstDay = keyed[0].day
        for (day, _, event) in keyed {
            eventsByDay[day, default: []].append(event)
            guard case .habitCreated(let definition) = event.payload, habitIndex[definition.id] == nil else { continue }
            guard definition.target == .check else {
                preconditionFailure("NaiveEvaluator supports only check targets")
            }
            let start = definition.startDay.map(NaiveDays.key) ?? day
            firstDay = min(firstDay, start)
            habitIndex[definition.id] = habits.count
            habits.append(
                NaiveHabit(
                    id: definition.id, schedule: definition.schedule, policy: definition.policy ?? pack.defaultPolicy,
                    startDay: start, difficulty: definition.difficulty))
        }

        // Pauses: every day from `from` through `until`, but those from the day of a resume
        // that ends it on.
        var resumed: [String: String] = [:]
        for (day, _, event) in keyed {
            if case .resume(let pause) = event.payload { resumed[pause] = min(resumed[pause] ?? day, day) }
        }
        for (_, _, event) in keyed {
            guard case .pause(let pause) = event.payload else { continue }
            var day = NaiveDays.key(pause.from)
            let until = NaiveDays.key(pause.until)
            while day <= until, day < resumed[event.id] ?? "9999" {
                if let habit = pause.habit {
                    pausedByHabit[habit, default: []].insert(day)
                } else {
                    pausedAll.insert(day)
                }
                day = zoneDays.adding(1, to: day)
            }
        }

        // Amnesties: every local day (in the event's zone) from the one holding the window's
        // start to the one holding the instant before its end, unless lifted.
        var lifted: Set<String> = []
        for (_, _, event) in keyed {
            if case .amnestyLifted(let id) = event.payload { lifted.insert(id) }
        }
        for (_, _, event) in keyed {
            guard case .amnesty(let amnesty) = event.payload, !lifted.contains(amnesty.id) else { continue }
            let eventDays = days(in: event.timeZone)
            var day = eventDays.day(of: amnesty.start)
            let last = eventDays.day(of: amnesty.end.addingTimeInterval(-0.001))
            while day <= last {
                coveredDays.insert(day)
                day = eventDays.adding(1, to: day)
            }
        }

        // Walk the days: events first, then (for closed days) judge every started habit.
        var day = firstDay
        while day <= today {
            let weekday = zoneDays.weekday(of: day)
            for event in eventsByDay[day] ?? [] {
                apply(event, on: day, weekday: weekday)
            }
            if day < today {
                close(day, weekday: weekday)
            }
            day = zoneDays.adding(1, to: day)
        }

        return NaiveResult(
            diamonds: diamonds, freezes: freezes,
            habits: habits.map {
                NaiveHabitResult(
                    id: $0.id, current: $0.current, best: $0.best, highest: $0.highest, states: $0.states,
                    streaks: $0.streaks)
            },
            ledger: ledger, rejectedEventIDs: rejected)
    }

    mutating func apply(_ event: Event, on day: String, weekday: Weekday) {
        switch event.payload {
        case .habitCreated:
            break
        case .completion(let id, _, _, _):
            guard let h = habitIndex[id] else { return }
            let alreadyDone = habits[h].completions[day] != nil
            habits[h].completions[day, default: 0] += 1
            if !alreadyDone && habits[h].isDue(weekday: weekday) {
                succeed(h, on: day)
            }
        case .skip(let id?, _, _):
            if let h = habitIndex[id] { habits[h].restDays.insert(day) }
        case .skip(nil, _, _):
            for h in habits.indices { habits[h].restDays.insert(day) }
        case .pause, .resume, .amnesty, .amnestyLifted:
            break  // Their days are known before the walk.
        case .grant(let grant):
            diamonds += grant.diamonds
            freezes += grant.freezes
            record(day, .grant, diamonds: grant.diamonds, freezes: grant.freezes)
        case .purchase(let item, let days):
            guard let quote = try? pack.store.quote(item: item, days: days) else {
                preconditionFailure("NaiveEvaluator: purchase \(event.id) names nothing the store sells")
            }
            if diamonds < quote.diamonds {
                rejected.append(event.id)
                return
            }
            diamonds -= quote.diamonds
            freezes += quote.freezes
            record(day, .purchase, diamonds: -quote.diamonds, freezes: quote.freezes)
        default:
            preconditionFailure("NaiveEvaluator does not support '\(event.payload.type)' events")
        }
    }

    mutating func succeed(_ h: Int, on day: String) {
        habits[h].current += 1
        habits[h].gap = 0
        let current = habits[h].current
        habits[h].best = max(habits[h].best, current)
        guard current > habits[h].highest else { return }
        habits[h].highest = current
        for reward in pack.rewards {
            let payout = reward.payout(at: current, difficulty: habits[h].difficulty)
            if payout > 0 {
                diamonds += payout
                record(day, reward.difficulty == nil ? .reward : .difficultyBonus, diamonds: payout, freezes: 0)
            }
        }
        if let every = pack.earnedFreezeEvery, current % every == 0 {
            freezes += 1
            record(day, .earnedFreeze, diamonds: 0, freezes: 1)
        }
    }

    mutating func close(_ day: String, weekday: Weekday) {
        for h in habits.indices where habits[h].startDay <= day {
            let state: DayState
            if habits[h].completions[day] != nil {
                state = .completed
                habits[h].started = true
            } else if coveredDays.contains(day) {
                state = .covered
            } else if pausedAll.contains(day) || pausedByHabit[habits[h].id]?.contains(day) == true {
                state = .paused
            } else if habits[h].restDays.contains(day) {
                state = .skipped
            } else if !habits[h].isDue(weekday: weekday) {
                state = .notDue
            } else {
                state = miss(h, on: day)
            }
            habits[h].states.append(state)
            habits[h].streaks.append(habits[h].current)
        }
    }

    /// Handles a missed due day and returns what the day shows.
    mutating func miss(_ h: Int, on day: String) -> DayState {
        let policy = habits[h].policy
        habits[h].gap += 1
        if habits[h].current == 0 { return habits[h].started ? .missed : .notStarted }
        if habits[h].gap <= policy.grace { return .grace }
        if policy.freezes != .never && freezes > 0 {
            freezes -= 1
            record(day, .freezeUsed, diamonds: 0, freezes: -1)
            return .frozen
        }
        switch policy.penalty {
        case .reset: habits[h].current = 0
        case .decrement(let n): habits[h].current = max(0, habits[h].current - n)
        }
        return .missed
    }

    mutating func record(_ day: String, _ source: LedgerEntry.Source, diamonds: Int, freezes: Int) {
        let line = NaiveLedgerLine(day: NaiveDays.localDay(day), source: source, diamonds: diamonds, freezes: freezes)
        ledger.append(line)
    }
}
