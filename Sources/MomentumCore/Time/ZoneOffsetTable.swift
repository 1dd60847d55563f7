import Foundation

/// Every UTC offset a time zone has used between 1900 and 2100, laid out for O(1) lookup.
///
/// Converting an instant to a local day is on Momentum's hot path: every event and every
/// "today" needs it. Foundation's `Calendar` is exact but slow, so the table is built once
/// per zone from Foundation's own transition data and then answered with a bucket index:
/// the instant's 24-day bucket names the last transition before it, and at most a step or
/// two forward finds the offset in force. Outside 1900–2100 the table defers to Foundation.
///
/// Tables are immutable and safe to share between tasks; ``ZoneOffsetTable/named(_:)``
/// builds each zone's table once per process.
public final class ZoneOffsetTable: Sendable {
    /// The IANA identifier of the zone, for example `Europe/Lisbon`.
    public let identifier: String

    private let zone: TimeZone
    /// Instants (seconds since 1970) at which an offset starts; `starts[0]` is `lowerBound`.
    private let starts: [Int64]
    /// The offset from UTC, in seconds, in force from `starts[i]`.
    private let offsets: [Int32]
    /// For each bucket, the index of the last transition at or before the bucket's start.
    private let buckets: [Int32]

    static let lowerBound: Int64 = -2_208_988_800  // 1900-01-01T00:00:00Z
    static let upperBound: Int64 = 4_133_980_800  // 2101-01-01T00:00:00Z
    static let bucketShift: Int64 = 21  // 2^21 s ≈ 24.3 days
    /// The smallest forward jump, in seconds, that counts as moving across the date line:
    /// half a day, far beyond any daylight-saving shift (at most two hours).
    static let dateLineJump = 43_200

    /// A change of a zone's offset from UTC.
    public struct Transition: Hashable, Sendable {
        /// The first instant of the new offset, in seconds since 1970.
        public var at: Int64
        /// The offset in force before ``at``, in seconds.
        public var offsetBefore: Int
        /// The offset in force from ``at`` on, in seconds.
        public var offsetAfter: Int
    }

    /// The transitions between 1900 and 2100 at which the zone moved its clocks forward by
    /// half a day or more, crossing the date line eastward and skipping a date, in time
    /// order: `Pacific/Apia` at 2011-12-30T10:00:00Z (from −10:00 to +14:00, so 2011-12-30
    /// never happened there), `Pacific/Kiritimati` on 1994-12-31, `Pacific/Kwajalein` on
    /// 1993-08-21. Empty for nearly every zone.
    public let dateLineJumps: [Transition]

    /// Builds the table for a time zone.
    ///
    /// - Parameter zone: The time zone; its identifier must be an IANA name.
    public convenience init(zone: TimeZone) {
        self.init(zone: zone, identifier: zone.identifier)
    }

    init(zone: TimeZone, identifier: String) {
        self.identifier = identifier
        self.zone = zone
        var starts: [Int64] = [Self.lowerBound]
        var offsets: [Int32] = [Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(Self.lowerBound))))]
        var cursor = Date(timeIntervalSince1970: Double(Self.lowerBound))
        let end = Date(timeIntervalSince1970: Double(Self.upperBound))
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < end {
            let offset = Int32(zone.secondsFromGMT(for: next))
            if offset != offsets.last {
                starts.append(Int64(next.timeIntervalSince1970.rounded(.down)))
                offsets.append(offset)
            }
            cursor = next
        }
        let bucketCount = Int((Self.upperBound - Self.lowerBound) >> Self.bucketShift) + 1
        var buckets = [Int32](repeating: 0, count: bucketCount)
        var index = 0
        for bucket in 0..<bucketCount {
            let bucketStart = Self.lowerBound + (Int64(bucket) << Self.bucketShift)
            while index + 1 < starts.count, starts[index + 1] <= bucketStart { index += 1 }
            buckets[bucket] = Int32(index)
        }
        self.starts = starts
        self.offsets = offsets
        self.buckets = buckets
        self.dateLineJumps = starts.indices.dropFirst().compactMap { i in
            let jump = Int(offsets[i]) - Int(offsets[i - 1])
            guard jump >= Self.dateLineJump else { return nil }
            return Transition(at: starts[i], offsetBefore: Int(offsets[i - 1]), offsetAfter: Int(offsets[i]))
        }
    }

    /// The UTC offset, in seconds, at an instant (its whole second).
    public func offset(at instant: Date) -> Int {
        offset(atSecond: Int64(instant.timeIntervalSince1970.rounded(.down)))
    }

    /// The offset from UTC, in seconds, in force at an instant.
    ///
    /// - Parameter seconds: Seconds since 1970-01-01T00:00:00Z, rounded down.
    /// - Returns: The zone's offset at that instant, for example `-18000` for New York in winter.
    @inlinable
    public func offset(atSecond seconds: Int64) -> Int {
        offsetLookup(seconds)
    }

    @usableFromInline
    func offsetLookup(_ seconds: Int64) -> Int {
        guard seconds >= Self.lowerBound, seconds < Self.upperBound else {
            return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
        }
        return starts.withUnsafeBufferPointer { starts in
            buckets.withUnsafeBufferPointer { buckets in
                var index = Int(buckets[Int((seconds - Self.lowerBound) >> Self.bucketShift)])
                while index + 1 < starts.count, starts[index + 1] <= seconds { index += 1 }
                return offsets.withUnsafeBufferPointer { Int($0[index]) }
            }
        }
    }

    /// The first instant at which the zone's wall clock reads a local time or later.
    ///
    /// Local time counts wall-clock seconds since 1970-01-01T00:00:00. Where the clock reads
    /// `local`, this is the first time it does: in an overlap, before the clocks go back.
    /// Where the clocks skip it, this is the instant they jump past it.
    ///
    /// - Parameter local: The wall-clock reading, in local seconds since 1970.
    /// - Returns: Seconds since 1970.
    public func firstInstant(reading local: Int64) -> Int64 {
        // Bounded to ±35 million years: a reading far off must not overflow.
        let local = min(max(local, -1 << 50), 1 << 50)
        // Offsets stay within ±26 hours, so two days before `local` the clock reads less and
        // two days after it reads more. Within one offset's period the clock runs with time,
        // so the first period that reaches `local` holds the answer.
        var cursor = local - 2 * 86_400
        let limit = local + 2 * 86_400
        while cursor < limit {
            let offset = Int64(offset(atSecond: cursor))
            let end = min(nextChange(after: cursor), limit)
            if end - 1 + offset >= local { return max(cursor, local - offset) }
            cursor = end
        }
        return limit
    }

    /// When a wall-clock reading happens. Where the clock reads it, `earlier` and `later`
    /// are both the first instant that does. Where the clocks skip it, `later` is the instant
    /// it would have had on the offset before the jump (the reading moved forward by the
    /// gap) and `earlier` the one on the offset after it (moved back by the gap).
    ///
    /// - Parameter local: The wall-clock reading, in local seconds since 1970.
    /// - Returns: The two instants, in seconds since 1970, `earlier <= later`.
    func instants(reading local: Int64) -> (earlier: Int64, later: Int64) {
        let first = firstInstant(reading: local)
        let after = Int64(offset(atSecond: first))
        guard first + after != local else { return (first, first) }
        let before = Int64(offset(atSecond: first - 1))
        return (min(local - after, first), max(local - before, first))
    }

    /// The first instant after `seconds` at which the offset may change: the next
    /// transition in the table, its bounds, or Foundation's next transition outside them.
    func nextChange(after seconds: Int64) -> Int64 {
        guard seconds >= Self.lowerBound, seconds < Self.upperBound else {
            let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(seconds)))
            let change = next.map { Int64(min(max($0.timeIntervalSince1970.rounded(.up), -1e15), 1e15)) } ?? .max
            let bound = seconds < Self.lowerBound ? Self.lowerBound : Int64.max
            return max(min(change, bound), seconds + 1)
        }
        var index = Int(buckets[Int((seconds - Self.lowerBound) >> Self.bucketShift)])
        while index + 1 < starts.count, starts[index + 1] <= seconds { index += 1 }
        return index + 1 < starts.count ? starts[index + 1] : Self.upperBound
    }

    /// The number of distinct offsets periods in the table (for diagnostics and tests).
    public var transitionCount: Int { starts.count - 1 }
}

extension ZoneOffsetTable {
    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var tables: [String: ZoneOffsetTable] = [:]

        func table(named identifier: String) -> ZoneOffsetTable? {
            lock.lock()
            defer { lock.unlock() }
            if let table = tables[identifier] { return table }
            guard ZoneOffsetTable.isTZDatabaseName(identifier), let zone = TimeZone(identifier: identifier) else {
                return nil
            }
            // The requested name, not Foundation's (which calls `UTC` and `GMT+0` `GMT`).
            let table = ZoneOffsetTable(zone: zone, identifier: identifier)
            tables[identifier] = table
            return table
        }
    }

    private static let cache = Cache()

    /// The shared table for a tz database name, built on first use; `nil` if the tz database
    /// does not define the name.
    ///
    /// Every zone and link name of the tz database is accepted (``tzDatabaseNames``), the
    /// fixed-offset ones included: `Etc/GMT+5`, `GMT-0`, `UTC`, `Zulu`, `US/Eastern`,
    /// `Asia/Calcutta`. Anything else is refused, even where Foundation would make up a zone
    /// for it: `GMT+5` (not a tz name: the database spells it `Etc/GMT-5`), `PST`, `+05:00`,
    /// or a name in the wrong case.
    ///
    /// - Parameter identifier: A tz database name, for example `Asia/Kathmandu` or `UTC`.
    public static func named(_ identifier: String) -> ZoneOffsetTable? {
        cache.table(named: identifier)
    }

    /// Whether the tz database defines a name (as a zone or as a link).
    ///
    /// - Parameter identifier: The name, for example `America/Sao_Paulo`.
    /// - Returns: `true` if ``named(_:)`` accepts it.
    public static func isTZDatabaseName(_ identifier: String) -> Bool {
        // Names are short; a long string is refused before it is hashed.
        identifier.utf8.count <= 64 && tzDatabaseNames.contains(identifier)
    }
}
