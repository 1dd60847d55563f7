import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

extension Routes {
    func addOpsRoutes(_ router: Router<MomentumContext>) {
        router.get("healthz") { _, _ in try JSONIO.response(["status": "ok"]) }
        router.get("readyz") { _, _ in
            let schema = try await server.services.operations.readiness()
            return try JSONIO.response(["status": "ready", "schema": String(schema)])
        }
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(
                    byteBuffer: ByteBuffer(bytes: server.metrics.text(store: server.store, streams: server.hub.count))))
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
