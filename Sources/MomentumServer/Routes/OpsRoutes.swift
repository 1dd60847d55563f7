import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumStore

extension Routes {
    func addOpsRoutes(_ router: Router<MomentumContext>) {
        router.get("healthz") { _, _ in try JSONIO.response(["status": "ok"]) }
        router.get("readyz") { _, _ in
            do {
                let applied = try await server.store.appliedMigrations()
                guard applied.last == Schema.latestVersion else {
                    throw APIError(.serviceUnavailable, "not_ready", "the database schema is not up to date")
                }
                if server.relay != nil, !server.relayListening.load(ordering: .relaxed) {
                    throw APIError(
                        .serviceUnavailable, "not_ready",
                        "not yet listening for other instances' changes (PostgreSQL LISTEN)")
                }
                return try JSONIO.response(["status": "ready", "schema": String(applied.last ?? 0)])
            } catch let error as StoreError {
                throw APIError(.serviceUnavailable, "not_ready", "the database is not reachable: \(error.message)")
            }
        }
        router.get("metrics") { _, _ in
            server.metrics.streams.set(to: Double(server.hub.count))
            let statistics = server.store.statistics
            if let appends = statistics.appends { server.metrics.update(appends: appends) }
            if let guarded = statistics.guardedWrites {
                server.metrics.update(appendStatements: guarded.statements, failedBatches: guarded.failedBatches)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: server.metrics.registry.emitToBuffer())))
        }
        router.get("openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
        }
    }
}

/// The OpenAPI 3.1 document of the API, as `MomentumAPI` holds it.
enum OpenAPIDocument {
    static let bytes: [UInt8] = Array(APIDocument.data)
}
