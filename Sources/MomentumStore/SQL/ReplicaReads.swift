/// Which reads may be served by a streaming replica, and how a store's replica is doing.
///
/// A store with a replica (PostgreSQL's `databaseReplica`) serves a read that runs with
/// ``allowed`` set from the replica only when the replica has replayed every write the
/// primary had acknowledged when the read was asked for; otherwise from the primary. The
/// shared store code sets it around the reads that may go there: cold loads of a user's
/// engine, feeds and exports.
public enum ReplicaReads {
    /// Whether the reads of the current task may be served by the replica.
    @TaskLocal public static var allowed = false

    /// Runs `body` with its reads allowed on the replica.
    public static func allowing<R: Sendable>(
        _ body: () async throws(StoreError) -> R
    ) async throws(StoreError) -> R {
        do {
            return try await $allowed.withValue(true) { try await body() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "\(error)")
        }
    }
}

/// How a store's streaming replica is doing, as `/readyz` reports it.
public enum ReplicaHealth: Sendable, Equatable {
    /// Caught up within the allowed lag.
    case ok
    /// Behind by this many seconds, more than allowed: reads go to the primary.
    case lagging(seconds: Int)
    /// Not answering, or not a replica: reads go to the primary.
    case unreachable(String)

    /// A word or two for `/readyz`: `ok`, `lagging 12 s`, `unreachable`.
    public var summary: String {
        switch self {
        case .ok: "ok"
        case .lagging(let seconds): "lagging \(seconds) s"
        case .unreachable: "unreachable"
        }
    }
}

/// Reads served by a replica, and reads that could have been but went to the primary.
public struct ReplicaReadCounts: Sendable, Equatable {
    /// Reads the replica served.
    public var replica = 0
    /// Reads that fell back to the primary (the replica behind, lagging or unreachable).
    public var primary = 0

    /// No reads yet.
    public init(replica: Int = 0, primary: Int = 0) {
        self.replica = replica
        self.primary = primary
    }
}

/// A store that may serve reads from a replica.
public protocol ReplicaReporting: Sendable {
    /// The replica's state now (it is asked), or `nil` without a replica.
    func replicaHealth() async -> ReplicaHealth?
    /// How reads allowed on the replica were served so far.
    var replicaReadCounts: ReplicaReadCounts? { get }
}
