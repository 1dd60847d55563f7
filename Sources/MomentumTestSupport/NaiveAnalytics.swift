import Foundation
import MomentumCore

/// A straightforward reference for the analytics of a habit on a day schedule (daily or
/// weekdays), written independently of `HabitAnalytics`: Foundation `Calendar` for weeks
/// and months, one filter over the calendar per figure, `pow` for every day of the strength.
/// It is the baseline of the analytics benchmark and the reference of its agreement tests.
public struct NaiveAnalytics: Equatable, Sendable {
    /// A rate as (done, due).
    public struct Rate: Equatable, Sendable {
        /// Units done.
        public var done: Int
        /// Units due.
        public var due: Int

        /// Creates a rate.
        public init(done: Int, due: Int) {
            self.done = done
            self.due = due
        }
    }

    /// Since the start.
    public var allTime: Rate
    /// The calendar week holding today.
    public var thisWeek: Rate
    /// The calendar month holding today.
    public var thisMonth: Rate
    /// The 30 days ending today.
    public var last30Days: Rate
    /// The last 15 days, and the 15 before.
    public var recent: Rate
    /// The 15 days before ``recent``.
    public var earlier: Rate
    /// Each calendar week: its first day and rate.
    public var weeks: [String: Rate]
    /// Each calendar month (`YYYY-MM`): its rate.
    public var months: [String: Rate]
    /// Rate per weekday, Monday first.
    public var weekdays: [Rate]
    /// Days completed.
    public var totalDaysCompleted: Int
    /// Streak runs.
    public var runs: Int
    /// The longest run.
    public var longestRun: Int
    /// The mean run length.
    public var averageRun: Double
    /// Loop's habit strength after today.
    public var strength: Double
    /// Milestones reached.
    public var milestones: Int

    /// Computes the analytics of a habit from its state.
    ///
    /// - Parameters:
    ///   - habit: The habit, evaluated with its whole calendar.
    ///   - today: The user's current day.
    ///   - milestones: The streak values that earn a badge.
    public init(_ habit: HabitState, today: LocalDay, milestones: [Int] = [7, 30, 60, 100, 365]) {
        let schedule = habit.definition.schedule
        switch schedule {
        case .daily, .weekdays: break
        default: preconditionFailure("NaiveAnalytics supports only daily and weekdays schedules")
        }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.firstWeekday = habit.definition.weekStart.rawValue % 7 + 1
        func date(_ day: LocalDay) -> Date { Date(timeIntervalSince1970: Double(day.number) * 86_400) }
        func isDue(_ day: LocalDay) -> Bool {
            guard case .weekdays(let days) = schedule else { return true }
            let weekday = calendar.component(.weekday, from: date(day))  // 1 = Sunday
            return days.contains { $0.rawValue % 7 + 1 == weekday }
        }
        func counted(_ day: CalendarDay) -> Bool {
            guard isDue(day.day) else { return false }
            switch day.state {
            case .completed: return true
            case .missed, .grace, .frozen: return day.day < today
            default: return false
            }
        }
        func rate(_ days: [CalendarDay]) -> Rate {
            let units = days.filter(counted)
            return Rate(done: units.filter { $0.state == .completed }.count, due: units.count)
        }
        func rate(from first: LocalDay, to last: LocalDay) -> Rate {
            rate(habit.calendar.filter { $0.day >= first && $0.day <= last })
        }

        allTime = rate(habit.calendar)
        let weekStart = calendar.dateInterval(of: .weekOfYear, for: date(today))!.start
        thisWeek = rate(habit.calendar.filter { date($0.day) >= weekStart && $0.day <= today })
        let monthStart = calendar.dateInterval(of: .month, for: date(today))!.start
        thisMonth = rate(habit.calendar.filter { date($0.day) >= monthStart && $0.day <= today })
        last30Days = rate(from: today.advanced(by: -29), to: today)
        recent = rate(from: today.advanced(by: -14), to: today)
        earlier = rate(from: today.advanced(by: -29), to: today.advanced(by: -15))

        var weeks: [String: [CalendarDay]] = [:]
        var months: [String: [CalendarDay]] = [:]
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = calendar.timeZone
        for day in habit.calendar {
            let week = calendar.dateInterval(of: .weekOfYear, for: date(day.day))!.start
            weeks[formatter.string(from: week), default: []].append(day)
            months[String(formatter.string(from: date(day.day)).prefix(7)), default: []].append(day)
        }
        self.weeks = weeks.mapValues(rate)
        self.months = months.mapValues(rate)

        weekdays = (1...7).map { iso in
            rate(habit.calendar.filter { calendar.component(.weekday, from: date($0.day)) == iso % 7 + 1 })
        }
        totalDaysCompleted = habit.calendar.filter { $0.state == .completed }.count

        var peaks: [Int] = []
        var peak = 0
        for day in habit.calendar {
            if day.streak > 0 {
                peak = max(peak, day.streak)
            } else if peak > 0 {
                peaks.append(peak)
                peak = 0
            }
        }
        if peak > 0 { peaks.append(peak) }
        runs = peaks.count
        longestRun = peaks.max() ?? 0
        averageRun = peaks.isEmpty ? 0 : Double(peaks.reduce(0, +)) / Double(peaks.count)

        // Loop's score, with the window of its frequency (doubled for non-daily check habits).
        let dueDays =
            schedule == .daily
            ? 7
            : { () -> Int in
                if case .weekdays(let days) = schedule { return days.count }
                return 7
            }()
        let frequency = Double(dueDays) / 7
        let window = frequency < 1 ? 14 : 1
        let needed = frequency < 1 ? Double(dueDays * 2) : 1
        var score = 0.0
        for (index, day) in habit.calendar.enumerated() {
            if day.state.isRest || (day.day == today && day.state != .completed) { continue }
            let inWindow = habit.calendar[max(0, index - window + 1)...index].filter { $0.state == .completed }.count
            let checkmark = min(1, Double(inWindow) / needed)
            let multiplier = pow(0.5, frequency.squareRoot() / 13)
            score = score * multiplier + checkmark * (1 - multiplier)
        }
        strength = score
        self.milestones = milestones.filter { m in habit.calendar.contains { $0.streak >= m } }.count
    }
}
