import CoreMetrics
import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStore
import Prometheus
import Synchronization

/// The server's metrics, recorded through swift-metrics and kept in Prometheus form for
/// `/metrics`.
///
/// Each server has its own `PrometheusMetricsFactory` and registry, passed to every
/// metric it makes, rather than the process-wide `MetricsSystem` (which can be bootstrapped
/// once): tests run many servers in one process, each counting only its own requests. For
/// the same reason the HTTP metrics are recorded here and not by Hummingbird's
/// `MetricsMiddleware`, which records to the process-wide system. The metrics are listed,
/// with their meaning, in docs/operations.md, "Health, logs and metrics" (swift-metrics carries
/// no help text, so `/metrics` has no `# HELP` lines).
final class ServerMetrics: Sendable {
    /// Where the metrics are kept.
    let registry = PrometheusCollectorRegistry()
    /// Makes the metrics, into ``registry``.
    let factory: PrometheusMetricsFactory
    /// Open server-sent event streams.
    let streams: Meter
    /// Appends by how the store wrote them, and the counts last carried into them
    /// (`oneStatement` on PostgreSQL only).
    private let oneStatement: CoreMetrics.Counter?
    private let checkedTransaction: CoreMetrics.Counter
    private let fellBack: CoreMetrics.Counter
    private let carried = Mutex(EngineCache.AppendCounts())
    /// The engine cache: users and estimated bytes held, the bound, and counters of its
    /// hits, replays (and the events they read) and evictions, with the usage last carried
    /// into the counters.
    private let cacheUsers: Meter
    private let cacheBytes: Meter
    private let cacheBudget: Meter
    private let cacheHits: CoreMetrics.Counter
    private let cacheReplays: CoreMetrics.Counter
    private let cacheReplayedEvents: CoreMetrics.Counter
    private let cacheEvictions: CoreMetrics.Counter
    private let carriedUsage = Mutex(EngineCache.Usage())
    /// The process's resident memory, read from `/proc/self/statm` at each scrape (Linux).
    private let residentBytes: Meter
    /// PostgreSQL statements that wrote guarded appends, and the count last carried in
    /// (on PostgreSQL only).
    private let guardedStatements: CoreMetrics.Counter?
    private let failedBatches: CoreMetrics.Counter?
    private let carriedStatements = Mutex((statements: 0, failedBatches: 0))
    /// Reads a replica may serve, by where they went (on PostgreSQL only), and the counts
    /// last carried in.
    private let replicaReads: CoreMetrics.Counter?
    private let primaryFallbacks: CoreMetrics.Counter?
    private let carriedReplicaReads = Mutex(ReplicaReadCounts())

    /// The request duration histogram's buckets, from half a millisecond to 2.5 seconds.
    static let durationBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .microseconds(2_500), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2_500),
    ]

    /// Creates the metrics; `postgres` adds the series only a PostgreSQL store has (its
    /// one-statement appends and their group commit), which would read 0 forever otherwise.
    init(postgres: Bool) {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets["http_request_duration_seconds"] = Self.durationBuckets
        self.factory = factory
        streams = Meter(label: "momentum_event_streams", factory: factory)
        cacheUsers = Meter(label: "momentum_engine_cache_users", factory: factory)
        cacheBytes = Meter(label: "momentum_engine_cache_bytes", factory: factory)
        cacheBudget = Meter(label: "momentum_engine_cache_budget_bytes", factory: factory)
        cacheHits = Counter(label: "momentum_engine_cache_hits_total", factory: factory)
        cacheReplays = Counter(label: "momentum_engine_cache_replays_total", factory: factory)
        cacheReplayedEvents = Counter(label: "momentum_engine_cache_replayed_events_total", factory: factory)
        cacheEvictions = Counter(label: "momentum_engine_cache_evictions_total", factory: factory)
        residentBytes = Meter(label: "process_resident_memory_bytes", factory: factory)
        let appends = "momentum_store_appends_total"
        checkedTransaction = Counter(label: appends, dimensions: [("path", "checked_transaction")], factory: factory)
        fellBack = Counter(label: appends, dimensions: [("path", "fell_back")], factory: factory)
        guard postgres else {
            oneStatement = nil
            guardedStatements = nil
            failedBatches = nil
            replicaReads = nil
            primaryFallbacks = nil
            return
        }
        let replicaLabel = "momentum_store_replica_reads_total"
        replicaReads = Counter(label: replicaLabel, dimensions: [("served_by", "replica")], factory: factory)
        primaryFallbacks = Counter(label: replicaLabel, dimensions: [("served_by", "primary")], factory: factory)
        oneStatement = Counter(label: appends, dimensions: [("path", "one_statement")], factory: factory)
        guardedStatements = Counter(label: "momentum_store_append_statements_total", factory: factory)
        failedBatches = Counter(label: "momentum_store_append_batches_failed_total", factory: factory)
    }

    /// Brings the statement counters up to the store's counts (called before each scrape).
    func update(appendStatements statements: Int, failedBatches failed: Int) {
        let previous = carriedStatements.withLock { carried in
            defer { carried = (statements, failed) }
            return carried
        }
        guardedStatements?.increment(by: max(0, statements - previous.statements))
        failedBatches?.increment(by: max(0, failed - previous.failedBatches))
    }

    /// Brings the replica read counters up to the store's counts (called before each scrape).
    func update(replicaReads counts: ReplicaReadCounts) {
        let previous = carriedReplicaReads.withLock { carried in
            defer { carried = counts }
            return carried
        }
        replicaReads?.increment(by: max(0, counts.replica - previous.replica))
        primaryFallbacks?.increment(by: max(0, counts.primary - previous.primary))
    }

    /// Brings the append counters up to the store's counts (called before each scrape).
    func update(appends counts: EngineCache.AppendCounts) {
        let previous = carried.withLock { carried in
            defer { carried = counts }
            return carried
        }
        oneStatement?.increment(by: max(0, counts.oneStatement - previous.oneStatement))
        checkedTransaction.increment(by: max(0, counts.checkedTransaction - previous.checkedTransaction))
        fellBack.increment(by: max(0, counts.fellBack - previous.fellBack))
    }

    /// Brings the engine cache's gauges and counters up to its statistics (called before
    /// each scrape).
    func update(engineCache statistics: EngineCache.Statistics) {
        cacheUsers.set(Double(statistics.users))
        cacheBytes.set(Double(statistics.estimatedBytes))
        cacheBudget.set(Double(statistics.byteBudget))
        let usage = statistics.usage
        let previous = carriedUsage.withLock { carried in
            defer { carried = usage }
            return carried
        }
        cacheHits.increment(by: max(0, usage.hits - previous.hits))
        cacheReplays.increment(by: max(0, usage.replays - previous.replays))
        cacheReplayedEvents.increment(by: max(0, usage.replayedEvents - previous.replayedEvents))
        cacheEvictions.increment(by: max(0, usage.evictions - previous.evictions))
    }

    /// Sets the resident memory gauge from `/proc/self/statm` (where there is one).
    func updateResidentMemory() {
        guard let bytes = Self.residentMemory() else { return }
        residentBytes.set(Double(bytes))
    }

    /// The process's resident memory in bytes, from `/proc/self/statm` (its second field,
    /// in pages), or `nil` where that file does not exist.
    static func residentMemory() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let (bytes, overflow) = pages.multipliedReportingOverflow(by: max(pageSize, 1))
        return overflow ? nil : bytes
    }

    /// The request metrics already made, by method, route and status: made once, then
    /// found with one lookup (making one asks the factory to check its name and labels).
    private let requestMetrics = Mutex([RequestKey: (count: CoreMetrics.Counter, duration: CoreMetrics.Timer)]())

    private struct RequestKey: Hashable {
        var method: String
        var route: String
        var status: Int
    }

    /// The methods counted by name; any other is counted as `OTHER`, so that a client
    /// inventing methods cannot make series without end.
    private static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// Counts a request and records how long it took, by method, route pattern and status.
    func record(method: String, route: String, status: Int, duration: Duration) {
        let key = RequestKey(method: Self.methods.contains(method) ? method : "OTHER", route: route, status: status)
        let factory = factory
        let metrics = requestMetrics.withLock { made in
            if let found = made[key] { return found }
            let created = (
                count: Counter(
                    label: "http_requests_total",
                    dimensions: [("method", key.method), ("route", route), ("status", String(status))],
                    factory: factory),
                duration: Timer(
                    label: "http_request_duration_seconds", dimensions: [("method", key.method), ("route", route)],
                    factory: factory)
            )
            made[key] = created
            return created
        }
        metrics.count.increment()
        metrics.duration.recordSeconds(
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// The metrics in Prometheus's text format, brought up to the store's counts
    /// (`statistics`) and the streams open now.
    func text(statistics: StoreStatistics, streams: Int) -> [UInt8] {
        self.streams.set(Double(streams))
        if let appends = statistics.appends { update(appends: appends) }
        if let guarded = statistics.guardedWrites {
            update(appendStatements: guarded.statements, failedBatches: guarded.failedBatches)
        }
        if let cache = statistics.engineCache { update(engineCache: cache) }
        if let replica = statistics.replicaReads { update(replicaReads: replica) }
        updateResidentMemory()
        return registry.emitToBuffer()
    }
}

/// Counts requests and their durations by route pattern (never by raw path, so ids do
/// not multiply the series).
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = MomentumContext
    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let started = ContinuousClock.now
        var status = 500
        var route = "unmatched"
        defer {
            metrics.record(
                method: request.method.rawValue, route: route, status: status, duration: ContinuousClock.now - started)
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            route = context.endpointPath ?? route
            return response
        } catch {
            status = APIError.from(error).status.code
            route = context.endpointPath ?? route
            throw error
        }
    }
}
