import Foundation
import MomentumCore
import Synchronization

/// One user's engine as of a projection version, with what was last written to the
/// projections, so that an append only writes what changed.
struct EngineEntry: Sendable {
    var version: Int64
    var headSeq: Int64
    var user: MomentumUser
    var profile: Profile
    var habits: [String: HabitState] = [:]
    var ledger: [LedgerEntry] = []
    var subjects: [String: Subject] = [:]
    var wallet: Wallet
    var planner: CelebrationPlanner
    /// The message templates used last, so that phrasings do not repeat.
    var recentTemplates: [String] = []
    /// Whether the version this engine is at is known to be committed: a writer caches its
    /// engine before its transaction commits (and confirms it after); an engine replayed
    /// from a committed snapshot is committed. Only a committed engine may be taken without
    /// reading the stored version first.
    var committed = false
    /// Whether ``habits``, ``ledger`` and ``subjects`` mirror the stored projection rows.
    /// An engine a reader rebuilt from the log (and offered to the cache) mirrors nothing,
    /// so the next writer to take it rewrites the projection instead of diffing against it.
    var projected = true
    /// The ``PackLibrary/generation`` of the packs the engine was built with: an engine of
    /// an older generation is a miss, rebuilt with the packs now in force.
    var packGeneration = 0

    /// An estimate of the memory the entry holds, in bytes: the engines', and the
    /// projection rows it mirrors.
    var estimatedBytes: Int {
        user.estimatedBytes + habits.count * 2_048 + ledger.count * 160 + subjects.count * 256
            + planner.pending.count * 512
    }
}

/// Recently used engines, by user: a warm user's append replays nothing.
///
/// An entry is valid only for the projection version it was taken at; a writer takes the
/// entry out (so that it is mutated in place, without copying the log) and puts it back
/// after its write. Any failure simply drops the entry, and the next append rebuilds it
/// from the log. The cache holds at most ``capacity`` users, and at most ``byteBudget``
/// bytes of them by their estimate (`MomentumUser.estimatedBytes`, with the projection
/// rows the entry mirrors), and forgets the least recently used first.
public final class EngineCache: Sendable {
    private struct State {
        var entries: [String: (entry: EngineEntry, tick: UInt64, bytes: Int)] = [:]
        var tick: UInt64 = 0
        var bytes = 0
        /// Engines forgotten to stay within the bounds, so far.
        var evictions = 0

        mutating func remove(_ user: String) -> EngineEntry? {
            guard let removed = entries.removeValue(forKey: user) else { return nil }
            bytes -= removed.bytes
            return removed.entry
        }
    }

    private let state = Mutex(State())
    private let counters = Mutex(AppendCounts())
    /// Counted on every load, so without a lock.
    private let hits = Atomic<Int>(0)
    private let replays = Atomic<Int>(0)
    private let replayedEvents = Atomic<Int>(0)
    /// The most users kept.
    public let capacity: Int
    /// The most bytes of engines kept, by their estimate; 0 for no bound but ``capacity``.
    public let byteBudget: Int
    /// The estimated bytes of the engines the cache holds now.
    public var estimatedBytes: Int { state.withLock { $0.bytes } }
    /// How many users' engines the cache holds now.
    public var count: Int { state.withLock { $0.entries.count } }
    /// How the store that owns the cache names the fields of the documents its engines are
    /// read from (the profile, the celebration planner) and written to (the projections).
    public let storedForm: StoredForm
    /// The rule packs in force for the store that owns the cache.
    public let packs = PackLibrary()

    /// How the appends that prepared their work outside a transaction were written, since
    /// the cache was created.
    public struct AppendCounts: Sendable, Equatable {
        /// Written by one statement that committed on its own (PostgreSQL).
        public var oneStatement = 0
        /// Written by a short transaction that checked the version first.
        public var checkedTransaction = 0
        /// Run again the ordinary way, because another writer had changed the user (or the
        /// one statement failed).
        public var fellBack = 0

        /// No appends yet.
        public init() {}
    }

    /// How appends were written so far (see ``AppendCounts``).
    public var appendCounts: AppendCounts { counters.withLock { $0 } }

    /// How the cache has served its users since it was created.
    public struct Usage: Sendable, Equatable {
        /// Loads that found the user's engine cached at the stored version.
        public var hits = 0
        /// Loads that replayed the user's log (a user not cached, or cached at an older
        /// version).
        public var replays = 0
        /// Events read from logs by those replays.
        public var replayedEvents = 0
        /// Engines forgotten to stay within the count or the bytes.
        public var evictions = 0

        /// Nothing yet.
        public init() {}
    }

    /// What the cache holds now and how it has served so far: what an operator sizes the
    /// bound by (`--engine-cache-mb`).
    public struct Statistics: Sendable, Equatable {
        /// Users whose engines are cached.
        public var users: Int
        /// Their estimated bytes.
        public var estimatedBytes: Int
        /// The bound in bytes (0: none but the count).
        public var byteBudget: Int
        /// The bound in users.
        public var capacity: Int
        /// Hits, replays and evictions so far.
        public var usage: Usage

        /// Creates statistics.
        public init(users: Int, estimatedBytes: Int, byteBudget: Int, capacity: Int, usage: Usage) {
            self.users = users
            self.estimatedBytes = estimatedBytes
            self.byteBudget = byteBudget
            self.capacity = capacity
            self.usage = usage
        }
    }

    /// What the cache holds now and how it has served so far.
    public var statistics: Statistics {
        let (users, bytes, evictions) = state.withLock { ($0.entries.count, $0.bytes, $0.evictions) }
        var usage = Usage()
        usage.hits = hits.load(ordering: .relaxed)
        usage.replays = replays.load(ordering: .relaxed)
        usage.replayedEvents = replayedEvents.load(ordering: .relaxed)
        usage.evictions = evictions
        return Statistics(
            users: users, estimatedBytes: bytes, byteBudget: byteBudget, capacity: capacity, usage: usage)
    }

    /// Counts a load that found its engine cached.
    func countHit() {
        hits.wrappingAdd(1, ordering: .relaxed)
    }

    /// Counts a load that replayed `events` events of a log.
    func countReplay(events: Int) {
        replays.wrappingAdd(1, ordering: .relaxed)
        replayedEvents.wrappingAdd(events, ordering: .relaxed)
    }

    /// Counts one append's way of writing.
    func count(_ path: WritableKeyPath<AppendCounts, Int>) {
        counters.withLock { $0[keyPath: path] += 1 }
    }

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - capacity: The most users kept (0 disables caching).
    ///   - byteBudget: The most bytes of engines kept, by their estimate (0: no bound in
    ///     bytes). An engine larger than the whole budget is not kept.
    ///   - storedForm: How the store names the fields of its documents.
    public init(capacity: Int = 2_000, byteBudget: Int = 0, storedForm: StoredForm = .current) {
        self.capacity = capacity
        self.byteBudget = max(0, byteBudget)
        self.storedForm = storedForm
    }

    /// Takes a user's entry out if it is at `version`.
    func take(_ user: String, version: Int64) -> EngineEntry? {
        state.withLock { state in
            guard let cached = state.remove(user) else { return nil }
            return cached.version == version && cached.packGeneration == packs.generation ? cached : nil
        }
    }

    /// Takes a user's entry out, whatever its version, if that version is committed.
    func takeLatest(_ user: String) -> EngineEntry? {
        state.withLock { state in
            // One lookup, and the entry moved out rather than copied.
            guard let index = state.entries.index(forKey: user), state.entries.values[index].entry.committed,
                state.entries.values[index].entry.packGeneration == packs.generation
            else {
                return nil
            }
            let removed = state.entries.remove(at: index).value
            state.bytes -= removed.bytes
            return removed.entry
        }
    }

    /// Marks a user's entry at `version` as committed.
    func confirm(_ user: String, version: Int64) {
        state.withLock { state in
            guard let index = state.entries.index(forKey: user), state.entries.values[index].entry.version == version
            else { return }
            state.entries.values[index].entry.committed = true
        }
    }

    /// Looks at a user's entry if it is at `version`, leaving it in place.
    func peek(_ user: String, version: Int64) -> EngineEntry? {
        state.withLock { state in
            guard let cached = state.entries[user], cached.entry.version == version,
                cached.entry.packGeneration == packs.generation
            else { return nil }
            return cached.entry
        }
    }

    /// Caches an engine a reader rebuilt, unless a writer has cached a newer one meanwhile.
    func offer(_ user: String, _ entry: EngineEntry) {
        let newer = state.withLock { state in (state.entries[user]?.entry.version ?? -1) >= entry.version }
        if !newer { put(user, entry) }
    }

    func put(_ user: String, _ entry: EngineEntry) {
        guard capacity > 0 else { return }
        let bytes = entry.estimatedBytes
        state.withLock { state in
            _ = state.remove(user)
            // An engine larger than the whole budget would push out every other one.
            if byteBudget > 0, bytes > byteBudget { return }
            state.tick += 1
            state.entries[user] = (entry, state.tick, bytes)
            state.bytes += bytes
            let overCount = state.entries.count > capacity
            let overBytes = byteBudget > 0 && state.bytes > byteBudget
            guard overCount || overBytes else { return }
            // The least recently used go, in one scan of the ticks (not of the entries,
            // which copying would retain field by field): over the count, an eighth of the
            // capacity at once, so that a stream of cold users costs one scan per
            // capacity/8 loads, where finding the oldest for every load cost a scan of the
            // whole cache each time (the notifications benchmark found it: 3,000 cold users
            // took 4.8 s); over the bytes, down to seven eighths of the budget, likewise.
            var ticks: [(tick: UInt64, user: String, bytes: Int)] = []
            ticks.reserveCapacity(state.entries.count)
            for index in state.entries.indices where state.entries.keys[index] != user {
                let value = state.entries.values[index]
                ticks.append((value.tick, state.entries.keys[index], value.bytes))
            }
            ticks.sort { $0.tick < $1.tick }
            var count = overCount ? max(1, state.entries.count - capacity + capacity / 8) : 0
            let byteTarget = byteBudget - byteBudget / 8
            var evicted = 0
            for oldest in ticks {
                guard count > 0 || (byteBudget > 0 && state.bytes > byteTarget) else { break }
                _ = state.remove(oldest.user)
                count -= 1
                evicted += 1
            }
            state.evictions += evicted
        }
    }

    /// Forgets a user's entry.
    func forget(_ user: String) {
        _ = state.withLock { $0.remove(user) }
    }

    /// Forgets every entry.
    public func removeAll() {
        state.withLock {
            $0.entries.removeAll()
            $0.bytes = 0
        }
    }
}

/// A mutable slot a program's steps share (they run one after another, never at once).
final class Slot<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    func with<R>(_ body: (inout Value) throws(StoreError) -> R) throws(StoreError) -> R {
        try storage.withLock { (value: inout Value) throws(StoreError) -> R in try body(&value) }
    }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
