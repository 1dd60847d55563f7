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

    /// The phrase for ``wholeDays`` in a language ("3 semanas e 2 dias" in Brazilian
    /// Portuguese), by the rules in the type's documentation.
    ///
    /// - Parameter translation: The language.
    /// - Returns: The phrase.
    public func phrase(translation: Translation) -> String { Self.phrase(days: wholeDays, translation: translation) }

    /// The phrase for a number of whole days ("less than a day", "3 weeks, 2 days").
    ///
    /// - Parameters:
    ///   - days: Whole days; zero or less reads "less than a day".
    ///   - translation: The language (`duration.*` and `count.<unit>.*`); English by default.
    /// - Returns: The phrase, following the rules in the type's documentation.
    public static func phrase(days: Int, translation: Translation = .english) -> String {
        guard days > 0 else { return translation.text(ProgressionText.lessThanADay) }
        let units: [(size: Int, name: String)] = [(365, "year"), (30, "month"), (7, "week"), (1, "day")]
        var remaining = days
        var parts: [String] = []
        for unit in units where parts.count < 2 {
            let count = remaining / unit.size
            remaining %= unit.size
            if count > 0 { parts.append(translation.count(count, unit.name)) }
        }
        return parts.joined(separator: translation.text(ProgressionText.durationSeparator))
    }
}
