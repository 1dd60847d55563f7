import CoreMetrics
import MomentumCore
import Synchronization

/// Users' analytics, each kept for the projection version and the day it was computed
/// for, within a budget of bytes: reading an unchanged account again computes nothing.
///
/// Analytics are a function of the engine, the profile and the user's day: an append or a
/// profile change bumps the version, and a new day changes the key, so an entry is never
/// read for a state it was not computed from. The JSON `GET /v1/analytics` answers is kept
/// beside the value once a route asked for it. The entry used longest ago goes first.
public final class AnalyticsCache: Sendable {
    /// What an entry was computed from: the user's projection version and day.
    public struct Key: Hashable, Sendable {
        var version: Int64
        var today: LocalDay
    }

    /// One user's analytics.
    public struct Entry: Sendable {
        var key: Key
        /// The analytics.
        public var analytics: UserAnalytics
        /// The habit-days computing it read (`UserEngine/analysedDays(today:)`).
        public var analysedDays: Int
        /// The answer of `GET /v1/analytics`, once encoded.
        public var json: [UInt8]?

        /// An estimate of the memory the entry holds, in bytes.
        public var estimatedBytes: Int {
            let periods = analytics.habits.reduce(0) { $0 + $1.weeks.count + $1.months.count }
            return 1_024 + analytics.habits.count * 2_048 + periods * 64 + (json?.count ?? 0)
        }
    }

    /// How the cache has served so far.
    public struct Statistics: Sendable, Equatable {
        /// Reads answered from an entry.
        public var hits = 0
        /// Analytics computed.
        public var computed = 0
        /// The habit-days those computations read, in all.
        public var analysedDays = 0
        /// The most habit-days one computation read.
        public var largestAnalysis = 0
        /// Large reads refused because every place stayed taken.
        public var busy = 0
    }

    private struct State {
        var entries: [String: (entry: Entry, bytes: Int, lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        /// The statistics.
        public var statistics = Statistics()
    }

    /// The most bytes kept (0 keeps none).
    public let capacity: Int
    private let state = Mutex(State())
    private let hitCounter: CoreMetrics.Counter
    private let computedCounter: CoreMetrics.Counter

    /// Creates an empty cache of `capacity` bytes that counts with `factory`.
    public init(capacity: Int, factory: any MetricsFactory) {
        self.capacity = max(0, capacity)
        hitCounter = Counter(label: "momentum_analytics_cache_hits_total", factory: factory)
        computedCounter = Counter(label: "momentum_analytics_computed_total", factory: factory)
    }

    /// How the cache has served so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The user's entry if it was computed for `key`; counts a hit.
    public func entry(of user: String, at key: Key) -> Entry? {
        let found = state.withLock { state -> Entry? in
            guard var kept = state.entries[user], kept.entry.key == key else { return nil }
            state.clock += 1
            kept.lastUse = state.clock
            state.entries[user] = kept
            state.statistics.hits += 1
            return kept.entry
        }
        if found != nil { hitCounter.increment() }
        return found
    }

    /// Counts a computation and keeps its entry, in place of the user's older one.
    ///
    /// - Returns: `entry`.
    @discardableResult
    public func keep(computed entry: Entry, for user: String) -> Entry {
        computedCounter.increment()
        state.withLock { state in
            state.statistics.computed += 1
            state.statistics.analysedDays += entry.analysedDays
            state.statistics.largestAnalysis = max(state.statistics.largestAnalysis, entry.analysedDays)
        }
        store(entry, for: user)
        return entry
    }

    /// Keeps the JSON of the user's entry at `key`, if the entry is still the one kept.
    public func keep(json: [UInt8], for user: String, at key: Key) {
        guard let kept = state.withLock({ $0.entries[user]?.entry }), kept.key == key else { return }
        var entry = kept
        entry.json = json
        store(entry, for: user)
    }

    /// Counts a large read refused for want of a place.
    public func countBusy() {
        state.withLock { $0.statistics.busy += 1 }
    }

    /// Keeps an entry, dropping the least recently used ones beyond the budget. An entry
    /// larger than the whole budget is not kept.
    private func store(_ entry: Entry, for user: String) {
        let bytes = entry.estimatedBytes
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: user) { state.bytes -= old.bytes }
            guard bytes <= capacity else { return }
            state.clock += 1
            state.entries[user] = (entry, bytes, state.clock)
            state.bytes += bytes
            guard state.bytes > capacity else { return }
            // Down to seven eighths of the budget in one sort, rather than a scan per entry.
            let oldest = state.entries.filter { $0.key != user }.map { ($0.key, $0.value.lastUse) }
                .sorted { $0.1 < $1.1 }
            for (name, _) in oldest where state.bytes > capacity - capacity / 8 {
                if let removed = state.entries.removeValue(forKey: name) { state.bytes -= removed.bytes }
            }
        }
    }
}
