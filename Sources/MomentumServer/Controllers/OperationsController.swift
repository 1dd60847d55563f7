import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

/// `/healthz`, `/livez`, `/readyz`, `/metrics` and `/openapi.json`: what an operator and a
/// load balancer ask of the server (``Operations``).
///
/// With an admin listener (`ServerConfiguration.observability.adminPort`) the probes and
/// the metrics answer there only (``addProbes(to:)`` on its router), and the public port
/// answers 404 for them.
struct OperationsController: Sendable {
    let operations: MomentumServices.Operations
    /// The Prometheus registry `/metrics` answers with.
    let metrics: ServerMetrics
    /// The store's counts now, carried into the metrics at each scrape.
    let statistics: @Sendable () -> StoreStatistics
    /// How many change streams are open now.
    let streams: @Sendable () -> Int

    /// Whether the probes and the metrics answer on the public router (no admin listener).
    var probesOnPublicPort = true

    /// Adds the public routes: `/openapi.json`, and the probes and metrics unless an admin
    /// listener answers them.
    func addRoutes(to router: Router<MomentumContext>) {
        if probesOnPublicPort { addProbes(to: router) }
        router.get("openapi.json", use: openAPI)
    }

    /// Adds `/healthz`, `/livez`, `/readyz` and `/metrics`.
    func addProbes(to router: Router<MomentumContext>) {
        router.get("healthz", use: health)
        router.get("livez", use: health)
        router.get("readyz", use: readiness)
        router.get("metrics", use: metricsText)
    }

    /// `GET /healthz` and `GET /livez`: the process answers.
    @Sendable func health(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(["status": "ok"])
    }

    /// `GET /readyz`: the server can serve (database, schema, relay); 503 saying why not.
    @Sendable func readiness(_ request: Request, context: MomentumContext) async throws -> Response {
        let schema = try await operations.readiness()
        var body = ["status": "ready", "schema": String(schema)]
        // A degraded replica does not stop the server serving (reads go to the primary).
        if let replica = await operations.replicaHealth() {
            body["replica"] = replica.summary
            if replica != .ok { body["degraded"] = "replica" }
        }
        return try JSONIO.response(body)
    }

    /// `GET /metrics`: the metrics in Prometheus's text format.
    @Sendable func metricsText(_ request: Request, context: MomentumContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: metrics.text(statistics: statistics(), streams: streams()))))
    }

    /// `GET /openapi.json`: the API's OpenAPI document.
    @Sendable func openAPI(_ request: Request, context: MomentumContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
    }
}

/// The OpenAPI 3.1 document of the API, as `MomentumAPI` holds it.
enum OpenAPIDocument {
    static let bytes: [UInt8] = Array(APIDocument.data)
}
