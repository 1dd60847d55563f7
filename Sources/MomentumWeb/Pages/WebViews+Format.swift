import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// The words of the pages: day states, insights, plurals, weekdays, months, dates.
extension WebViews {
    // MARK: Formatting

    static func label(_ state: DayState, due: Bool) -> String {
        switch state {
        case .completed: L("days.state.completed")
        case .grace: L("days.state.grace")
        case .frozen: L("days.state.frozen")
        case .missed: L("days.state.missed")
        case .skipped: L("days.state.skipped")
        case .paused: L("days.state.paused")
        case .covered: L("days.state.covered")
        case .archived: L("days.state.archived")
        case .pending: due ? L("days.state.pending") : L("days.state.notDue")
        case .beforeStart: L("days.state.beforeStart")
        case .notStarted: L("days.state.notStarted")
        case .notDue: L("days.state.notDue")
        case .future: L("days.state.future")
        }
    }

    /// What the analytics say about a habit, in sentences (seed 004 R6, R7, R9.3): the best
    /// weekday, the scores weighted by difficulty, and encouragement or coaching after a break.
    static func insights(_ analytics: HabitAnalytics) -> Insights {
        var bestWeekday: String?
        if let weekday = analytics.mostConsistentWeekday,
            let rate = analytics.weekdays.first(where: { $0.weekday == weekday })?.rate.percent
        {
            bestWeekday = L("habit.insights.bestWeekday", ["weekday": fullWeekday(weekday), "rate": String(rate)])
        }
        let score = analytics.score
        let weight = Wording.current.number(score.weight, fractionDigits: 1)
        return Insights(
            bestWeekday: bestWeekday,
            weekdays: analytics.weekdays.map { day in
                Insights.Weekday(
                    day: weekdayShort(day.weekday), percent: day.rate.percent ?? 0,
                    best: day.weekday == analytics.mostConsistentWeekday, counted: day.rate.percent != nil)
            },
            score: Insights.Score(
                raw: Int(score.raw.rounded()), adjusted: Int(score.adjusted.rounded()),
                normalized: Int(score.normalized.rounded()), weight: weight,
                difficulty: analytics.difficulty.rawValue,
                weighted: L(
                    "habit.insights.weighted",
                    ["difficulty": difficultyLabel(analytics.difficulty), "weight": weight])),
            encouragement: analytics.coaching.encouragement,
            recovery: analytics.coaching.recovery.map {
                Insights.Recovery(
                    restart: $0.restart, stillCounts: $0.stillCounts, guidance: $0.guidance.map(\.message),
                    reminder: $0.reminder.message)
            })
    }

    /// The word for a streak's unit, `1 week`'s or `3 weeks'` (the number is the caller's
    /// to write).
    static func plural(_ count: Int, _ unit: String) -> String {
        let strings = Wording.current
        return switch unit {
        case "day": strings.count("days.units.day", count)
        case "week": strings.count("days.units.week", count)
        case "month": strings.count("days.units.month", count)
        case "year": strings.count("days.units.year", count)
        case "period": strings.count("days.units.period", count)
        default: count == 1 ? unit : unit + "s"
        }
    }

    /// A number as the page's language writes it, without a needless fraction and, as
    /// ``attribute(_:)``, without grouping its thousands: `1000`, `8.5` (`8,5` in Portuguese).
    static func written(_ value: Double) -> String {
        let separator = Wording.current.locale.decimalSeparator ?? "."
        let plain = attribute(value)
        return separator == "." ? plain : plain.replacingOccurrences(of: ".", with: separator)
    }

    /// A weekday's short name: `Mon`.
    static func weekdayShort(_ weekday: Weekday) -> String {
        switch weekday {
        case .monday: L("days.weekdayShort.monday")
        case .tuesday: L("days.weekdayShort.tuesday")
        case .wednesday: L("days.weekdayShort.wednesday")
        case .thursday: L("days.weekdayShort.thursday")
        case .friday: L("days.weekdayShort.friday")
        case .saturday: L("days.weekdayShort.saturday")
        case .sunday: L("days.weekdayShort.sunday")
        }
    }

    /// A weekday's full name: `Monday`.
    static func fullWeekday(_ weekday: Weekday) -> String {
        // 1970-01-05 (day 4) was a Monday.
        Wording.current.day(LocalDay(number: 3 + weekday.rawValue), "weekday")
    }

    /// A month's name, 1 to 12: `November`.
    static func fullMonth(_ month: Int) -> String {
        switch month {
        case 1: L("days.months.january")
        case 2: L("days.months.february")
        case 3: L("days.months.march")
        case 4: L("days.months.april")
        case 5: L("days.months.may")
        case 6: L("days.months.june")
        case 7: L("days.months.july")
        case 8: L("days.months.august")
        case 9: L("days.months.september")
        case 10: L("days.months.october")
        case 11: L("days.months.november")
        default: L("days.months.december")
        }
    }

    /// A month's short name, 1 to 12: `Nov`.
    static func shortMonth(_ month: Int) -> String {
        switch month {
        case 1: L("days.monthsShort.january")
        case 2: L("days.monthsShort.february")
        case 3: L("days.monthsShort.march")
        case 4: L("days.monthsShort.april")
        case 5: L("days.monthsShort.may")
        case 6: L("days.monthsShort.june")
        case 7: L("days.monthsShort.july")
        case 8: L("days.monthsShort.august")
        case 9: L("days.monthsShort.september")
        case 10: L("days.monthsShort.october")
        case 11: L("days.monthsShort.november")
        default: L("days.monthsShort.december")
        }
    }

    /// A day in full: `Tue 24 Nov 2026`.
    static func longDay(_ day: LocalDay) -> String { Wording.current.day(day, "long") }

    /// A day without its year: `24 Nov`.
    static func shortDay(_ day: LocalDay) -> String { Wording.current.day(day, "short") }

    /// The month and year of a day: `November 2026`.
    static func monthName(_ day: LocalDay) -> String { Wording.current.day(day, "month") }

    /// The local day of an instant in the user's zone, written out.
    static func longDate(_ date: Date, zone: ZoneOffsetTable) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down) + Double(zone.offset(at: date))
        return longDay(LocalDay(number: Int((seconds / 86_400).rounded(.down))))
    }

    /// The local time of an instant in the user's zone, `HH:mm`.
    static func time(_ date: Date, zone: ZoneOffsetTable) -> String {
        let seconds = Int((date.timeIntervalSince1970).rounded(.down)) + zone.offset(at: date)
        let minutes = ((seconds / 60) % 1_440 + 1_440) % 1_440
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
