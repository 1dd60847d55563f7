import Foundation
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumStore

/// The engine cache is bounded in bytes as well as in users: it keeps the engines it can
/// afford by their estimate and forgets the least recently used first.
struct EngineCacheBudgetTests {
    /// An entry whose user's log holds `days` days of `habits` generated habits.
    static func entry(days: Int, habits: Int = 3, seed: UInt64 = 1) throws -> EngineEntry {
        var options = LogGenerator.Options()
        options.days = days
        options.habits = habits
        options.seed = seed
        var user = MomentumUser(pack: .habits)
        for event in LogGenerator(options).events() { _ = try? user.append(event) }
        return EngineEntry(
            version: 1, headSeq: 1, user: user, profile: Profile(displayName: "u", updatedAt: Date()),
            wallet: Wallet(), planner: CelebrationPlanner(zone: ZoneOffsetTable.named("UTC")!, clock: DayClock()))
    }

    @Test func theEstimateGrowsWithTheLog() throws {
        let small = try Self.entry(days: 30)
        let large = try Self.entry(days: 300)
        #expect(small.estimatedBytes > 4_096)
        #expect(large.estimatedBytes > 5 * small.estimatedBytes)
        // 360 bytes per event of the log, as the memory benchmark measured.
        #expect(large.user.estimatedBytes >= large.user.streaks.eventCount * 360)
    }

    @Test func theLeastRecentlyUsedGoFirstAndTheBudgetHolds() throws {
        let entry = try Self.entry(days: 60)
        let size = entry.estimatedBytes
        let cache = EngineCache(capacity: 1_000, byteBudget: size * 10 + size / 2)
        for user in 0..<10 { cache.put("u\(user)", entry) }
        #expect(cache.count == 10)
        #expect(cache.estimatedBytes == 10 * size)
        // u0 is used again: it is now the most recently used.
        let taken = try #require(cache.take("u0", version: 1))
        cache.put("u0", taken)
        // An eleventh engine goes over the budget: the oldest go, down to 7/8 of it.
        cache.put("u10", entry)
        #expect(cache.estimatedBytes <= cache.byteBudget)
        #expect(cache.estimatedBytes <= cache.byteBudget - cache.byteBudget / 8)
        #expect(cache.peek("u10", version: 1) != nil)
        #expect(cache.peek("u0", version: 1) != nil)
        #expect(cache.peek("u1", version: 1) == nil)
        #expect(cache.count == cache.estimatedBytes / size)
        // What an operator sees: what is held, the bound, and the engines forgotten.
        let statistics = cache.statistics
        #expect(statistics.users == cache.count)
        #expect(statistics.estimatedBytes == cache.estimatedBytes)
        #expect(statistics.byteBudget == size * 10 + size / 2)
        #expect(statistics.capacity == 1_000)
        #expect(statistics.usage.evictions == 11 - cache.count)
        // Taking and forgetting give their bytes back.
        _ = cache.take("u10", version: 1)
        cache.forget("u0")
        #expect(cache.estimatedBytes == cache.count * size)
        cache.removeAll()
        #expect(cache.estimatedBytes == 0 && cache.count == 0)
    }

    @Test func anEngineLargerThanTheWholeBudgetIsNotKept() throws {
        let small = try Self.entry(days: 20)
        let large = try Self.entry(days: 400)
        let cache = EngineCache(capacity: 100, byteBudget: small.estimatedBytes * 3)
        cache.put("small", small)
        cache.put("large", large)
        #expect(cache.peek("large", version: 1) == nil)
        #expect(cache.peek("small", version: 1) != nil)
        // Replacing an entry counts its bytes once.
        cache.put("small", small)
        #expect(cache.estimatedBytes == small.estimatedBytes)
    }

    @Test func withoutABudgetOnlyTheCountBounds() throws {
        let entry = try Self.entry(days: 10)
        let cache = EngineCache(capacity: 8)
        for user in 0..<9 { cache.put("u\(user)", entry) }
        // Over the count, an eighth of the capacity goes at once.
        #expect(cache.count == 7)
        #expect(cache.statistics.usage.evictions == 2)
        #expect(cache.peek("u8", version: 1) != nil)
        #expect(cache.peek("u0", version: 1) == nil)
    }
}
