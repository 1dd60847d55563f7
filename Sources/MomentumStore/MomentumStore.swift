import Foundation
import MomentumCore
import ServiceLifecycle

/// Everything Momentum persists: accounts and device sessions, profiles, the event log,
/// the projections derived from it, photos and idempotency records.
///
/// Appending is idempotent by the client-generated event id, and an append and the update
/// of that user's projections happen in one transaction. Writes of one user are
/// serialized; different users never wait on each other's locks. Every method that takes a
/// user id treats a user that does not exist like one that has no data, except where a
/// ``StoreError/Code/notFound`` is documented.
///
/// Two backends implement it: `SQLiteStore` (GRDB, the embedded default) and
/// `PostgresStore` (PostgresNIO). Both pass one conformance suite.
///
/// Its requirements are grouped into one protocol per area (``EventStore``, ``AccountStore``,
/// ``SocialGraph``, ``NotificationInbox``, ``DeliveryQueue`` and the others), which the
/// services layer receives one at a time; `MomentumStore` is all of them together.
public protocol MomentumStore: Service, StoreSchema, AccountStore, EventStore, ReviewFlags, SocialGraph,
    NotificationInbox, DeliveryQueue, PhotoStore, IdempotencyRecords, RateLimitCounts, AccountArchives, IdentityLinks,
    MailOutbox, StreamTickets, WebhookEventQueue, ServerKeys, OperatorStore, WhatIfRuns,
    ConsoleReads, UserInspection, PackVersions, AmnestyStore
{
    /// Closes connections; the store must not be used afterwards.
    func close() async

    /// Runs the store's background work for as long as a service group runs it (the
    /// server adds its store to its `ServiceGroup`), and ends it at graceful shutdown.
    ///
    /// A PostgreSQL store opened with ``StoreLifecycle/service`` runs its connection pool
    /// here, so the pool starts and stops with the server and its services; a store whose
    /// work started when it was opened (the default, for tools and tests) waits for the
    /// graceful shutdown and returns. Either way ``close()`` stays the owner's to call.
    func run() async throws

    // MARK: Operations

    /// What the store counts about its own work, for the server's `/metrics`.
    var statistics: StoreStatistics { get }

    /// A relay that carries changes between server instances sharing this store's
    /// database, or `nil` when the store cannot share one (an embedded SQLite file).
    func makeRelay() -> (any ChangeRelay)?
}

/// What a store counts about its own work.
public struct StoreStatistics: Sendable, Equatable {
    /// How warm users' appends were written (engine cache).
    public var appends: EngineCache.AppendCounts?
    /// Statements that wrote guarded appends, and the batches of them that failed: on a
    /// store that writes a warm user's append in one statement (PostgreSQL), else `nil`.
    public var guardedWrites: GuardedStatementCounts?
    /// What the engine cache holds and how it has served, on a store with one.
    public var engineCache: EngineCache.Statistics?
    /// Reads a replica served and reads that fell back to the primary, on a store with a
    /// replica.
    public var replicaReads: ReplicaReadCounts?

    /// Creates statistics.
    public init(
        appends: EngineCache.AppendCounts? = nil, guardedWrites: GuardedStatementCounts? = nil,
        engineCache: EngineCache.Statistics? = nil, replicaReads: ReplicaReadCounts? = nil
    ) {
        self.appends = appends
        self.guardedWrites = guardedWrites
        self.engineCache = engineCache
        self.replicaReads = replicaReads
    }
}

/// Statements that wrote guarded appends.
public struct GuardedStatementCounts: Sendable, Equatable {
    /// Statements that wrote guarded appends: under load, one carries many users' appends.
    public var statements: Int
    /// Statements of several appends that failed and were written one by one.
    public var failedBatches: Int

    /// Creates counts.
    public init(statements: Int, failedBatches: Int) {
        self.statements = statements
        self.failedBatches = failedBatches
    }
}

extension MomentumStore {
    /// No relay: a store whose database one server instance owns.
    public func makeRelay() -> (any ChangeRelay)? { nil }
}

extension MomentumStore where Self: SQLBackend {
    /// The engine cache's counts.
    public var statistics: StoreStatistics {
        StoreStatistics(appends: engines.appendCounts, engineCache: engines.statistics)
    }
}

/// When a store's background work runs: the loops that write batched appends (SQLite's
/// group commit, PostgreSQL's guarded writes) and PostgreSQL's connection pool.
public enum StoreLifecycle: Sendable, Hashable {
    /// From the moment the store is opened until it is closed: for tools and tests, which
    /// use a store without a service group.
    case whileOpen
    /// While the store runs as a service (``MomentumStore/run()``) in a `ServiceGroup`:
    /// the server's, so that the work starts before the HTTP server and stops after it.
    /// Until the store runs, its writes wait.
    case service
}

extension MomentumStore {
    /// Waits for the graceful shutdown of the service group running the store: a store
    /// whose work runs while it is open has nothing else to run.
    public func run() async throws {
        try? await gracefulShutdown()
    }
}
