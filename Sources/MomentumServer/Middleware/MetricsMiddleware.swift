import Foundation
import Hummingbird
import MomentumStore
import Prometheus
import Synchronization

/// The server's Prometheus metrics, served at `/metrics`.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let eventsAppended: Counter
    let eventsRejected: Counter
    let streams: Gauge
    let reviewFlags: Counter
    /// Appends by how the store wrote them, and the counts last carried into them
    /// (`oneStatement` on PostgreSQL only).
    private let oneStatement: Counter?
    private let checkedTransaction: Counter
    private let fellBack: Counter
    private let carried = Mutex(EngineCache.AppendCounts())
    /// PostgreSQL statements that wrote guarded appends, and the count last carried in
    /// (on PostgreSQL only).
    private let guardedStatements: Counter?
    private let failedBatches: Counter?
    private let carriedStatements = Mutex((statements: 0, failedBatches: 0))

    /// Creates the metrics; `postgres` adds the series only a PostgreSQL store has (its
    /// one-statement appends and their group commit), which would read 0 forever otherwise.
    init(postgres: Bool) {
        eventsAppended = registry.makeCounter(
            descriptor: Self.name("momentum_events_appended_total", "Events stored in users' logs."))
        eventsRejected = registry.makeCounter(
            descriptor: Self.name(
                "momentum_events_refused_total", "Events refused as invalid or rejected by the rules."))
        streams = registry.makeGauge(descriptor: Self.name("momentum_event_streams", "Open server-sent event streams."))
        reviewFlags = registry.makeCounter(
            descriptor: Self.name("momentum_review_flags_total", "Suspicious activity recorded for review."))
        let appends = Self.name(
            "momentum_store_appends_total",
            "Appends of a warm user by how they were written: one_statement (PostgreSQL), checked_transaction, "
                + "or fell_back (another writer had changed the user, so the append ran again in a transaction).")
        checkedTransaction = registry.makeCounter(descriptor: appends, labels: [("path", "checked_transaction")])
        fellBack = registry.makeCounter(descriptor: appends, labels: [("path", "fell_back")])
        guard postgres else {
            oneStatement = nil
            guardedStatements = nil
            failedBatches = nil
            return
        }
        oneStatement = registry.makeCounter(descriptor: appends, labels: [("path", "one_statement")])
        guardedStatements = registry.makeCounter(
            descriptor: Self.name(
                "momentum_store_append_statements_total",
                "PostgreSQL statements that wrote one_statement appends: under load one carries several users' "
                    + "appends (a group commit), so it grows slower than the one_statement appends."))
        failedBatches = registry.makeCounter(
            descriptor: Self.name(
                "momentum_store_append_batches_failed_total",
                "PostgreSQL statements of several users' appends that failed (a deadlock with another instance, "
                    + "a lost connection); their appends were then written one by one."))
    }

    /// Brings the statement counters up to the store's counts (called before each scrape).
    func update(appendStatements statements: Int, failedBatches failed: Int) {
        let previous = carriedStatements.withLock { carried in
            defer { carried = (statements, failed) }
            return carried
        }
        guardedStatements?.increment(by: Int64(max(0, statements - previous.statements)))
        failedBatches?.increment(by: Int64(max(0, failed - previous.failedBatches)))
    }

    /// Brings the append counters up to the store's counts (called before each scrape).
    func update(appends counts: EngineCache.AppendCounts) {
        let previous = carried.withLock { carried in
            defer { carried = counts }
            return carried
        }
        oneStatement?.increment(by: Int64(max(0, counts.oneStatement - previous.oneStatement)))
        checkedTransaction.increment(by: Int64(max(0, counts.checkedTransaction - previous.checkedTransaction)))
        fellBack.increment(by: Int64(max(0, counts.fellBack - previous.fellBack)))
    }

    func record(method: String, route: String, status: Int, seconds: Double) {
        registry.makeCounter(
            descriptor: Self.requests, labels: [("method", method), ("route", route), ("status", String(status))]
        ).increment()
        registry.makeValueHistogram(
            descriptor: Self.durations, labels: [("method", method), ("route", route)],
            buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
        ).record(seconds)
    }

    static var requests: MetricNameDescriptor {
        name("http_requests_total", "HTTP requests by method, route and status.")
    }
    static var durations: MetricNameDescriptor {
        name("http_request_duration_seconds", "HTTP request duration by method and route.")
    }

    static func name(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
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
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            metrics.record(method: request.method.rawValue, route: route, status: status, seconds: seconds)
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
