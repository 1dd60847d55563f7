import Foundation

/// What Momentum says to the user about a habit: encouragement when the trend improves and
/// recovery coaching after a broken streak (seed 004, requirements 6.5 and 7).
///
/// Messages are sentences with the habit's name and the numbers filled in, in the language
/// the analytics were asked in (`coaching.*` texts; English by default). Where several
/// phrasings exist, one is picked deterministically from the habit id and the day, never the
/// language, so a user sees the same sentence all day and a different one on other days.
public struct Coaching: Hashable, Sendable, Codable {
    /// Praise for an improving trend; `nil` unless ``Trend/Direction/improving``.
    public var encouragement: String?
    /// Coaching after a broken streak; `nil` when none is due.
    public var recovery: RecoveryCoaching?

    /// Creates coaching.
    public init(encouragement: String?, recovery: RecoveryCoaching?) {
        self.encouragement = encouragement
        self.recovery = recovery
    }
}

/// Coaching after a streak broke.
///
/// It is offered while the streak is at 0 after a break, and during the first days back
/// until the restarted streak passes the broken one, as long as the break happened in the
/// last 30 days.
public struct RecoveryCoaching: Hashable, Sendable, Codable {
    /// The length of the streak that broke.
    public var brokenStreak: Int
    /// The day it broke (the missed day that reset it).
    public var brokenOn: LocalDay
    /// The best streak ever: the target to beat.
    public var targetToBeat: Int
    /// The restarted streak so far.
    public var current: Int
    /// Breaks in the last 60 days.
    public var recentBreaks: Int
    /// A motivating message to restart (or keep going, once restarted).
    public var restart: String
    /// The reminder that the past streak still counts.
    public var stillCounts: String
    /// Gentler guidance after repeated breaks (2 or more in 60 days); empty otherwise.
    public var guidance: [Guidance]
    /// An offer to set a reminder for the next day.
    public var reminder: ReminderOffer
}

/// Gentle guidance after repeated breaks.
public struct Guidance: Hashable, Sendable, Codable {
    /// The kind of advice.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Tie the habit to something already done every day.
        case habitStacking
        /// Lower the bar: a smaller amount or fewer days a week.
        case easierTarget
    }

    /// The kind.
    public var kind: Kind
    /// The advice.
    public var message: String
    /// For ``Kind/easierTarget``: a suggested target, when the amount can be lowered.
    public var suggestedTarget: Target?
    /// For ``Kind/easierTarget``: a suggested schedule, when fewer days would help.
    public var suggestedSchedule: Schedule?
}

/// An offer to remind the user the next day.
public struct ReminderOffer: Hashable, Sendable, Codable {
    /// The day to remind on.
    public var day: LocalDay
    /// The suggested local time, `HH:MM`: the median time of the latest completions, or
    /// 09:00 without any.
    public var time: String
    /// The offer, as shown to the user.
    public var message: String
}

extension Coaching {
    init(_ series: HabitSeries, trend: Trend, archived: Bool, translation: Translation = .english) {
        let name = series.definition.name
        let today = series.today
        var encouragement: String?
        if !archived, trend.direction == .improving, let recent = trend.recent.percent,
            let earlier = trend.earlier.percent
        {
            let values = ["habit": name, "recent": String(recent), "earlier": String(earlier)]
            encouragement = translation.text(
                Self.pick(
                    [CoachingText.encouragement1, .encouragement2, .encouragement3], series.definition.id, today),
                values)
        }
        self.init(
            encouragement: encouragement, recovery: archived ? nil : Self.recovery(series, translation: translation))
    }

    static func recovery(_ series: HabitSeries, translation: Translation = .english) -> RecoveryCoaching? {
        guard series.breaks > 0 else { return nil }
        let first = series.firstDay.number
        let today = series.today.number
        var breakIndex: Int?
        var recentBreaks = 0
        var index = series.streaks.count - 1
        while index > 0 {
            if series.streaks[index] == 0, series.streaks[index - 1] > 0 {
                if breakIndex == nil { breakIndex = index }
                if first + index >= today - 59 { recentBreaks += 1 } else { break }
            }
            index -= 1
        }
        guard let broke = breakIndex else { return nil }
        var peak = 0
        var scan = broke - 1
        while scan >= 0, series.streaks[scan] > 0 {
            peak = max(peak, series.streaks[scan])
            scan -= 1
        }
        let brokenOn = LocalDay(number: first + broke)
        let current = series.current
        guard current == 0 || (brokenOn.number >= today - 29 && current <= peak) else { return nil }

        let name = series.definition.name
        let id = series.definition.id
        let best = series.best
        let unit = Self.unit(series.definition.schedule)
        var values = [
            "habit": name, "best": String(best), "current": String(current), "toGo": String(best - current + 1),
            "record": String(best + 1), "streak": translation.streakLength(peak, unit),
            "length": translation.count(current, unit),
        ]
        let restart =
            current == 0
            ? translation.text(pick([CoachingText.restart1, .restart2, .restart3], id, series.today), values)
            : translation.text(pick([CoachingText.rebuild1, .rebuild2, .rebuild3], id, series.today), values)
        values["length"] = translation.count(peak, unit)
        values["unit"] = translation.unitName(unit)
        let stillCounts = translation.text(CoachingText.stillCounts, count: Double(peak), values)

        var guidance: [Guidance] = []
        if recentBreaks >= 2 {
            guidance.append(
                Guidance(
                    kind: .habitStacking, message: translation.text(CoachingText.habitStacking, ["habit": name]),
                    suggestedTarget: nil, suggestedSchedule: nil))
            let target = series.definition.target
            if target.comparison == .atLeast, target.amount > 1 {
                let lower = (target.amount / 2).rounded(.up)
                guidance.append(
                    Guidance(
                        kind: .easierTarget,
                        message: translation.text(
                            CoachingText.smallerAmount,
                            [
                                "amount": Self.format(lower, translation: translation),
                                "target": Self.format(target.amount, translation: translation),
                                "unit": target.unit.map { " \($0)" } ?? "",
                            ]),
                        suggestedTarget: Target(comparison: .atLeast, amount: lower, unit: target.unit),
                        suggestedSchedule: nil))
            } else if series.definition.schedule == .daily {
                guidance.append(
                    Guidance(
                        kind: .easierTarget, message: translation.text(CoachingText.fewerDays, ["habit": name]),
                        suggestedTarget: nil, suggestedSchedule: .timesPerWeek(4)))
            } else {
                guidance.append(
                    Guidance(
                        kind: .easierTarget, message: translation.text(CoachingText.smallerVersion, ["habit": name]),
                        suggestedTarget: nil, suggestedSchedule: nil))
            }
        }
        let time = reminderTime(series.completionMinutes)
        let tomorrow = series.today.advanced(by: 1)
        return RecoveryCoaching(
            brokenStreak: peak, brokenOn: brokenOn, targetToBeat: best, current: current,
            recentBreaks: recentBreaks, restart: restart, stillCounts: stillCounts, guidance: guidance,
            reminder: ReminderOffer(
                day: tomorrow, time: time,
                message: translation.text(CoachingText.reminder, ["habit": name, "time": time])))
    }

    /// The median of the latest completion times, as `HH:MM`, or 09:00 without any.
    static func reminderTime(_ minutes: [Int]) -> String {
        guard !minutes.isEmpty else { return "09:00" }
        let sorted = minutes.sorted()
        let median = sorted[(sorted.count - 1) / 2]
        let hh = median / 60
        let mm = median % 60
        return (hh < 10 ? "0" : "") + String(hh) + ":" + (mm < 10 ? "0" : "") + String(mm)
    }

    /// The period a streak of a habit on `schedule` counts, as an identifier: `day`,
    /// `week`, `month`, `year`, or `period` for every N days. It is data (servers and
    /// notifications key on it) and the same in every language; show a length with
    /// ``length(_:unit:translation:)``.
    public static func unit(_ schedule: Schedule) -> String {
        switch schedule {
        case .timesPerWeek: "week"
        case .timesPerMonth, .monthly: "month"
        case .yearly: "year"
        case .everyNDays: "period"
        case .daily, .weekdays: "day"
        }
    }

    /// A length of time in a streak's unit, for people: "1 day", "12 days", "3 weeks"
    /// (`count.<unit>.one` / `.other`).
    ///
    /// - Parameters:
    ///   - count: How many units.
    ///   - unit: A unit as ``unit(_:)`` names it; any other reads as English adds an "s".
    ///   - translation: The language; English by default.
    /// - Returns: The length.
    public static func length(_ count: Int, unit: String, translation: Translation = .english) -> String {
        translation.count(count, unit)
    }

    /// A whole amount without its `.0` (`8`, not `8.0`); any other number as Swift writes it,
    /// with the language's decimal separator. Total: an amount too large for `Int` is written
    /// as a `Double`, never converted.
    static func format(_ value: Double, translation: Translation = .english) -> String {
        Int(exactly: value).map(String.init)
            ?? String(value).replacingOccurrences(of: ".", with: translation.decimalSeparator)
    }

    /// A phrasing chosen by a stable hash (FNV-1a) of the habit id and the day.
    static func pick<Option>(_ options: [Option], _ id: String, _ day: LocalDay) -> Option {
        var hash = AffirmationCatalog.stableHash(id)
        hash ^= UInt64(bitPattern: Int64(day.number))
        hash = hash &* 0x100_0000_01b3
        return options[Int(hash % UInt64(options.count))]
    }
}
