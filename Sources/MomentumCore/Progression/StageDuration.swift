import Foundation

/// How long a user spent at a stage, with its English phrase ("3 weeks, 2 days").
///
/// ``wholeDays`` counts elapsed 24-hour periods, rounded down: 23 hours is 0 days and 47
/// hours is 1 day. Elapsed time, not calendar dates, because a stay from 23:00 to 01:00 the
/// next night lasted two hours, not a day.
///
/// ``description`` phrases the whole days by these rules:
/// - 0 days is "less than a day".
/// - Otherwise the days are split into years of 365 days, then months of 30 days, then
///   weeks of 7 days, then days, and the two largest non-zero units are named, largest
///   first, joined by ", " ("5 months, 1 week"; "1 year, 3 days"). Smaller units are
///   dropped, not rounded: 400 days is "1 year, 1 month".
/// - A unit is singular for 1 ("1 day", "2 days"). A 360–364-day stay reads "12 months, …".
public struct StageDuration: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The elapsed time in seconds, never negative.
    public let seconds: TimeInterval

    /// Creates a duration; negative values count as zero.
    ///
    /// - Parameter seconds: The elapsed time in seconds.
    public init(seconds: TimeInterval) {
        self.seconds = max(0, seconds)
    }

    /// The time from one instant to a later one (zero if `end` is not later).
    ///
    /// - Parameters:
    ///   - start: When the stay began.
    ///   - end: When it ended.
    public init(from start: Date, to end: Date) {
        self.init(seconds: end.timeIntervalSince(start))
    }

    /// The number of whole 24-hour periods elapsed.
    public var wholeDays: Int { Int((seconds / 86_400).rounded(.down)) }

    /// The English phrase for ``wholeDays``, following the rules in the type's documentation.
    public var description: String { Self.phrase(days: wholeDays) }

    /// Whether `lhs` is shorter than `rhs`.
    public static func < (lhs: StageDuration, rhs: StageDuration) -> Bool { lhs.seconds < rhs.seconds }

    /// The English phrase for a number of whole days ("less than a day", "3 weeks, 2 days").
    ///
    /// - Parameter days: Whole days; zero or less reads "less than a day".
    /// - Returns: The phrase, following the rules in the type's documentation.
    public static func phrase(days: Int) -> String {
        guard days > 0 else { return "less than a day" }
        let units: [(size: Int, singular: String, plural: String)] = [
            (365, "year", "years"), (30, "month", "months"), (7, "week", "weeks"), (1, "day", "days"),
        ]
        var remaining = days
        var parts: [String] = []
        for unit in units where parts.count < 2 {
            let count = remaining / unit.size
            remaining %= unit.size
            if count > 0 { parts.append("\(count) \(count == 1 ? unit.singular : unit.plural)") }
        }
        return parts.joined(separator: ", ")
    }
}
