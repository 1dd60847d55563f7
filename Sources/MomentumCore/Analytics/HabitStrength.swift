import Foundation

/// Habit strength: the exponential score of Loop Habit Tracker, from 0 to 1.
///
/// Every day the score moves towards that day's checkmark value `c` (1 for a fully done
/// day, 0 for a miss, partial for numeric targets):
///
///     m = 0.5^(√f / 13)        s = s_prev · m + c · (1 − m)
///
/// where `f` is the habit's frequency in repetitions per day. A daily habit checked once
/// from 0 scores 0.051922; from 0.5 it scores 0.525961 checked and 0.474039 missed; a habit
/// with frequency 1/3 checked from 0 scores 0.030315. Strength forgives: a few misses after
/// a long run lower it a little, never to zero.
///
/// As in Loop, `c` for a non-daily habit is the share of the repetitions a rolling window
/// asks for that were done: a window of `denominator` days must hold `numerator`
/// repetitions (doubled, for check habits, to smooth irregular weeks). Days that are
/// skipped (rest days, travel) leave the score unchanged. Momentum adds one rule of its
/// own: today, while still open, leaves the score unchanged too, so that an unfinished day
/// never reads as a miss.
public enum HabitStrength {
    /// A habit's frequency as Loop writes it: `numerator` repetitions every `denominator`
    /// days.
    public struct Frequency: Hashable, Sendable, Codable {
        /// Repetitions per window.
        public var numerator: Int
        /// The window, in days.
        public var denominator: Int

        /// Creates a frequency.
        public init(numerator: Int, denominator: Int) {
            precondition(numerator > 0 && denominator > 0, "a frequency needs positive terms")
            self.numerator = numerator
            self.denominator = denominator
        }

        /// Repetitions per day.
        public var perDay: Double { Double(numerator) / Double(denominator) }

        /// The frequency of a schedule: daily 1/1, weekdays k/7, N per week N/7, N per month
        /// N/30, every N days 1/N, monthly 1/30, yearly 1/365.
        public init(_ schedule: Schedule) {
            switch schedule {
            case .daily: self.init(numerator: 1, denominator: 1)
            case .weekdays(let days): self.init(numerator: max(1, days.count), denominator: 7)
            case .timesPerWeek(let n): self.init(numerator: n, denominator: 7)
            case .timesPerMonth(let n): self.init(numerator: n, denominator: 30)
            case .everyNDays(let n): self.init(numerator: 1, denominator: n)
            case .monthly: self.init(numerator: 1, denominator: 30)
            case .yearly: self.init(numerator: 1, denominator: 365)
            }
        }
    }

    /// The daily multiplier `0.5^(√f / 13)` for a frequency of `f` repetitions per day.
    @inlinable
    public static func multiplier(frequency: Double) -> Double {
        pow(0.5, frequency.squareRoot() / 13)
    }

    /// One day's step: `previous · m + checkmark · (1 − m)`.
    ///
    /// - Parameters:
    ///   - previous: The score after the day before.
    ///   - frequency: Repetitions per day.
    ///   - checkmark: The day's value, 0…1.
    @inlinable
    public static func next(previous: Double, frequency: Double, checkmark: Double) -> Double {
        let m = multiplier(frequency: frequency)
        return previous * m + checkmark * (1 - m)
    }

    /// The score after each day of a series, in the order of ``HabitSeries/states``.
    public static func scores(of series: HabitSeries) -> [Double] {
        var result = [Double](repeating: 0, count: series.states.count)
        scores(of: series) { index, score in result[index] = score }
        return result
    }

    /// The score after the last day of a series.
    public static func current(of series: HabitSeries) -> Double {
        var last = 0.0
        scores(of: series) { _, score in last = score }
        return last
    }

    /// Walks the series once, reporting the score after each day.
    static func scores(of series: HabitSeries, _ body: (Int, Double) -> Void) {
        let frequency = Frequency(series.definition.schedule)
        let perDay = frequency.perDay
        let m = multiplier(frequency: perDay)
        let target = series.definition.target
        let numeric = target.comparison != .check
        var numerator = frequency.numerator
        var denominator = frequency.denominator
        if !numeric, perDay < 1 {
            numerator *= 2
            denominator *= 2
        }
        let atMost = target.comparison == .atMost
        let windowTarget = target.amount * Double(numerator)
        let openIndex = series.today.number - series.firstDay.number
        var score = atMost ? 1.0 : 0.0
        var rolling = 0.0
        let count = series.states.count
        for index in 0..<count {
            let state = series.states[index]
            let open = index == openIndex && state != .completed
            let value: Double =
                numeric ? max(0, series.totals[index]) : state == .completed ? 1 : 0
            rolling += value
            if index >= denominator {
                let old = index - denominator
                rolling -= numeric ? max(0, series.totals[old]) : series.states[old] == .completed ? 1 : 0
            }
            if !state.isRest, !open {
                let checkmark: Double
                if !numeric {
                    checkmark = min(1, rolling / Double(numerator))
                } else if !atMost {
                    checkmark = windowTarget > 0 ? min(1, rolling / windowTarget) : 1
                } else if windowTarget > 0 {
                    checkmark = min(1, max(0, 1 - (rolling - windowTarget) / windowTarget))
                } else {
                    checkmark = rolling > 0 ? 0 : 1
                }
                score = score * m + checkmark * (1 - m)
            }
            body(index, score)
        }
    }
}
