import Foundation

extension SQLBackend {
    /// Implements ``MomentumStore`` `addRateLimitCounts`; see the protocol for its contract.
    ///
    /// One statement per 200 counters (`INSERT … ON CONFLICT DO UPDATE … RETURNING`), so a
    /// flush of a busy instance is one round trip.
    public func addRateLimitCounts(_ counts: [RateLimitCount]) async throws(StoreError) -> [Int] {
        var totals: [Int] = []
        totals.reserveCapacity(counts.count)
        var start = 0
        while start < counts.count {
            let chunk = counts[start..<min(counts.count, start + 200)]
            start += chunk.count
            var arguments: [SQLValue] = []
            arguments.reserveCapacity(chunk.count * 3)
            for count in chunk {
                arguments += [.text(count.key), .integer(count.windowStart), .int(count.count)]
            }
            let rows = Array(repeating: "(?, ?, ?)", count: chunk.count).joined(separator: ", ")
            let returned = try await writeAlone(
                SQLStatement(
                    """
                    INSERT INTO rate_limits (limit_key, window_start, count) VALUES \(rows)
                    ON CONFLICT (limit_key, window_start) DO UPDATE SET count = rate_limits.count + excluded.count
                    RETURNING limit_key, window_start, count
                    """, arguments))
            // RETURNING promises no order: match the rows to the counters by key.
            var byKey: [String: Int] = [:]
            for row in returned {
                byKey["\(try row.text(0, "limit_key")) \(try row.int(1, "window_start"))"] = Int(
                    try row.int(2, "count"))
            }
            for count in chunk {
                guard let total = byKey["\(count.key) \(count.windowStart)"] else {
                    throw .corrupt("no rate limit total for \(count.key)")
                }
                totals.append(total)
            }
        }
        return totals
    }

    /// Implements ``MomentumStore`` `deleteRateLimitCounts`; see the protocol for its contract.
    public func deleteRateLimitCounts(before windowStart: Int64) async throws(StoreError) -> Int {
        try await write(nil, SQLStatement("DELETE FROM rate_limits WHERE window_start < ?", [.integer(windowStart)]))
    }
}
