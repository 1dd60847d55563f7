import Foundation
import Hummingbird
import Prometheus

/// The server's Prometheus metrics, served at `/metrics`.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let eventsAppended: Counter
    let eventsRejected: Counter
    let streams: Gauge
    let reviewFlags: Counter

    init() {
        eventsAppended = registry.makeCounter(
            descriptor: Self.name("momentum_events_appended_total", "Events stored in users' logs."))
        eventsRejected = registry.makeCounter(
            descriptor: Self.name(
                "momentum_events_refused_total", "Events refused as invalid or rejected by the rules."))
        streams = registry.makeGauge(descriptor: Self.name("momentum_event_streams", "Open server-sent event streams."))
        reviewFlags = registry.makeCounter(
            descriptor: Self.name("momentum_review_flags_total", "Suspicious activity recorded for review."))
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
