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
}

/// Recently used engines, by user: a warm user's append replays nothing.
///
/// An entry is valid only for the projection version it was taken at; a writer takes the
/// entry out (so that it is mutated in place, without copying the log) and puts it back
/// after its write. Any failure simply drops the entry, and the next append rebuilds it
/// from the log. The cache holds at most ``capacity`` users and forgets the least
/// recently used.
public final class EngineCache: Sendable {
    private struct State {
        var entries: [String: (entry: EngineEntry, tick: UInt64)] = [:]
        var tick: UInt64 = 0
    }

    private let state = Mutex(State())
    private let counters = Mutex(AppendCounts())
    /// The most users kept.
    public let capacity: Int
    /// How the store that owns the cache names the fields of the documents its engines are
    /// read from (the profile, the celebration planner) and written to (the projections).
    public let storedForm: StoredForm

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

    /// Counts one append's way of writing.
    func count(_ path: WritableKeyPath<AppendCounts, Int>) {
        counters.withLock { $0[keyPath: path] += 1 }
    }

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - capacity: The most users kept (0 disables caching).
    ///   - storedForm: How the store names the fields of its documents.
    public init(capacity: Int = 2_000, storedForm: StoredForm = .current) {
        self.capacity = capacity
        self.storedForm = storedForm
    }

    /// Takes a user's entry out if it is at `version`.
    func take(_ user: String, version: Int64) -> EngineEntry? {
        state.withLock { state in
            guard let cached = state.entries.removeValue(forKey: user) else { return nil }
            return cached.entry.version == version ? cached.entry : nil
        }
    }

    /// Takes a user's entry out, whatever its version, if that version is committed.
    func takeLatest(_ user: String) -> EngineEntry? {
        state.withLock { state in
            // One lookup, and the entry moved out rather than copied.
            guard let index = state.entries.index(forKey: user), state.entries.values[index].entry.committed else {
                return nil
            }
            return state.entries.remove(at: index).value.entry
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
            guard let cached = state.entries[user], cached.entry.version == version else { return nil }
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
        state.withLock { state in
            state.tick += 1
            state.entries[user] = (entry, state.tick)
            guard state.entries.count > capacity else { return }
            // The least recently used eighth goes at once: one scan of the ticks (not of the
            // entries, which copying would retain field by field) per capacity/8 users
            // loaded, where finding the oldest for every load cost a scan of the whole cache
            // each time (the notifications benchmark found it: 3,000 cold users took 4.8 s).
            var ticks: [(tick: UInt64, index: Dictionary<String, (entry: EngineEntry, tick: UInt64)>.Index)] = []
            ticks.reserveCapacity(state.entries.count)
            for index in state.entries.indices { ticks.append((state.entries.values[index].tick, index)) }
            let evicted = max(1, state.entries.count - capacity + capacity / 8)
            let oldest = ticks.sorted { $0.tick < $1.tick }.prefix(evicted).map { state.entries.keys[$0.index] }
            for user in oldest { state.entries[user] = nil }
        }
    }

    /// Forgets a user's entry.
    func forget(_ user: String) {
        _ = state.withLock { $0.entries.removeValue(forKey: user) }
    }

    /// Forgets every entry.
    public func removeAll() {
        state.withLock { $0.entries.removeAll() }
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
