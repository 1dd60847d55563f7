import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

/// `/healthz`, `/readyz`, `/metrics` and `/openapi.json`: what an operator and a load
/// balancer ask of the server (``Operations``).
struct OperationsController: Sendable {
    let operations: MomentumServices.Operations
    /// The Prometheus registry `/metrics` answers with.
    let metrics: ServerMetrics
    /// The store's counts now, carried into the metrics at each scrape.
    let statistics: @Sendable () -> StoreStatistics
    /// How many change streams are open now.
    let streams: @Sendable () -> Int

    func addRoutes(to router: Router<MomentumContext>) {
        router.get("healthz", use: health)
        router.get("readyz", use: readiness)
        router.get("metrics", use: metricsText)
        router.get("openapi.json", use: openAPI)
    }

    /// `GET /healthz`: the process answers.
    @Sendable func health(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(["status": "ok"])
    }

    /// `GET /readyz`: the server can serve (database, schema, relay); 503 saying why not.
    @Sendable func readiness(_ request: Request, context: MomentumContext) async throws -> Response {
        let schema = try await operations.readiness()
        return try JSONIO.response(["status": "ready", "schema": String(schema)])
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
