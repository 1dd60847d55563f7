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

    /// Builds the table for a time zone.
    ///
    /// - Parameter zone: The time zone; its identifier must be an IANA name.
    public init(zone: TimeZone) {
        self.identifier = zone.identifier
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
            guard let zone = TimeZone(identifier: identifier) else { return nil }
            let table = ZoneOffsetTable(zone: zone)
            tables[identifier] = table
            return table
        }
    }

    private static let cache = Cache()

    /// The shared table for an IANA zone name, built on first use; `nil` if the name is not a
    /// time zone Foundation knows.
    ///
    /// Fixed-offset names such as `GMT+5` are refused: devices report IANA region names, and a
    /// fixed offset cannot follow daylight saving time.
    ///
    /// - Parameter identifier: An IANA time zone name, for example `Asia/Kathmandu` or `UTC`.
    public static func named(_ identifier: String) -> ZoneOffsetTable? {
        guard isPlausibleIANAName(identifier) else { return nil }
        return cache.table(named: identifier)
    }

    static func isPlausibleIANAName(_ identifier: String) -> Bool {
        if identifier == "UTC" || identifier == "GMT" { return true }
        let bytes = identifier.utf8
        guard let first = bytes.first, bytes.count <= 64, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first)
        else { return false }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "-"),
                UInt8(ascii: "+"):
                continue
            default:
                return false
            }
        }
        return !identifier.hasPrefix("GMT+") && !identifier.hasPrefix("GMT-")
    }
}
