import Foundation

/// Decides which local day an instant belongs to, for one user.
///
/// A user's day runs from `dayStartHour` o'clock local wall-clock time until the same hour
/// the next calendar day, so a night owl with `dayStartHour = 3` who logs at 01:30 on the
/// 15th is still logging for the 14th. Wall-clock time is what the user sees, so the rule
/// holds through daylight-saving gaps and overlaps and through zones that skipped a date.
///
/// `DayClock` is pure: the instant and the zone are parameters; no clock is read.
public struct DayClock: Sendable, Hashable {
    /// The hour (0–23) at which the user's day begins.
    public let dayStartHour: Int

    /// Creates a day clock.
    ///
    /// - Parameter dayStartHour: The local hour at which a new day begins, 0 (midnight,
    ///   the default) through 23. Values outside that range are clamped.
    public init(dayStartHour: Int = 0) {
        self.dayStartHour = min(max(dayStartHour, 0), 23)
    }

    /// The local day of an instant in a zone.
    ///
    /// - Parameters:
    ///   - instant: The moment, for example when a completion was logged.
    ///   - table: The zone's offset table (see ``ZoneOffsetTable/named(_:)``).
    /// - Returns: The user's local day at that instant.
    @inlinable
    public func localDay(of instant: Date, in table: ZoneOffsetTable) -> LocalDay {
        localDay(ofSecond: Int64(instant.timeIntervalSince1970.rounded(.down)), in: table)
    }

    /// The local day of an instant given in whole seconds since 1970.
    ///
    /// - Parameters:
    ///   - seconds: Seconds since 1970-01-01T00:00:00Z, rounded down.
    ///   - table: The zone's offset table.
    /// - Returns: The user's local day at that instant.
    @inlinable
    public func localDay(ofSecond seconds: Int64, in table: ZoneOffsetTable) -> LocalDay {
        let local = seconds + Int64(table.offset(atSecond: seconds)) - Int64(dayStartHour) * 3600
        // Floor division: instants before 1970 have negative local seconds.
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return LocalDay(number: Int(day))
    }

    /// The first instant (in seconds since 1970) of a local day in a zone.
    ///
    /// Where the day's start falls into a daylight-saving gap, the first instant that
    /// belongs to the day is returned. Where the clocks go back across the day's start, so
    /// that its wall-clock time is read twice, the first reading is the start: the day
    /// before ends there, though the clock then reads some of its last hours again.
    ///
    /// - Parameters:
    ///   - day: The local day.
    ///   - table: The zone's offset table.
    /// - Returns: Seconds since 1970 at which `day` begins for this user.
    public func start(of day: LocalDay, in table: ZoneOffsetTable) -> Int64 {
        // An instant's local day is at least `day` exactly when its wall clock reads at
        // least the day's start. A search for any instant on either side of that line would
        // find the second crossing of an overlap as readily as the first.
        table.firstInstant(reading: Int64(day.number) * 86_400 + Int64(dayStartHour) * 3600)
    }

    /// The local days a zone skipped by moving its clocks forward across the date line
    /// (see ``ZoneOffsetTable/dateLineJumps``), for jumps in an interval of instants.
    ///
    /// A day is skipped when the jump took most of it: its middle, twelve wall-clock hours
    /// after its start, lies within the jump, after the time the clock jumped from and no
    /// later than the time it jumped to (of two days that each lost half, the later). With
    /// midnight as the day's start these are exactly the civil dates the zone jumped over
    /// (Samoa's 2011-12-30); with a 03:00 start, Samoa's 30th lasted only from 00:00 to 03:00
    /// on the 31st and is skipped, while the 29th, 21 hours long, is not. A daylight-saving
    /// gap never skips a day.
    ///
    /// - Parameters:
    ///   - table: The zone's offset table.
    ///   - after: Only jumps after this instant (seconds since 1970) count.
    ///   - through: Only jumps at or before this instant count.
    /// - Returns: The skipped days, in order.
    public func daysSkipped(by table: ZoneOffsetTable, after: Int64 = .min, through: Int64 = .max) -> [LocalDay] {
        var days: [LocalDay] = []
        for jump in table.dateLineJumps where jump.at > after && jump.at <= through {
            // The clock jumped from `first` to `last` (the old and the new offset's reading at
            // the jump), in local seconds shifted so that each day's middle is a multiple of
            // 86 400.
            let shift = Int64(dayStartHour) * 3600 + 43_200
            let first = jump.at + Int64(jump.offsetBefore) - shift
            let last = jump.at + Int64(jump.offsetAfter) - shift
            // Days whose middle, d × 86 400, lies in (first, last].
            var day = Self.floorDivide(first, 86_400) + 1
            while day * 86_400 <= last {
                days.append(LocalDay(number: Int(day)))
                day += 1
            }
        }
        return days
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }
}
