import Foundation
import MomentumCore

/// Foundation's answer to "which local day is this instant?", the reference that
/// `DayClock` must agree with on every instant (and the baseline its benchmark beats).
public struct CalendarDayReference: Sendable {
    private let calendar: Calendar
    private let dayStartHour: Int

    /// Creates a reference for one zone and day-start hour.
    ///
    /// - Parameters:
    ///   - zone: The time zone.
    ///   - dayStartHour: The local hour at which the user's day begins.
    public init(zone: TimeZone, dayStartHour: Int = 0) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
        self.dayStartHour = dayStartHour
    }

    /// The local day of an instant: the civil date of its wall-clock time, or the day
    /// before when the wall clock is earlier than the day-start hour.
    public func localDay(of instant: Date) -> LocalDay {
        let parts = calendar.dateComponents([.year, .month, .day, .hour], from: instant)
        let day = LocalDay(year: parts.year!, month: parts.month!, day: parts.day!)!
        return parts.hour! < dayStartHour ? day.advanced(by: -1) : day
    }
}
