import Foundation
import Hummingbird
import HummingbirdTesting
import MomentumStore
import MomentumTestSupport
import Testing

@testable import MomentumPostgres
@testable import MomentumServer

/// `/readyz` names a degraded replica and stays 200 (reads go to the primary), and
/// `/metrics` counts where the reads a replica may serve went.
struct ReplicaReadinessTests {
    @Test func anUnreachableReplicaIsNamedDegradedWhileTheServerStaysReady() async throws {
        let nobody = try PostgresTestCluster.freePort()
        try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_readyz") { url in
            let name = String(URLComponents(string: url)?.path.dropFirst() ?? "")
            let store = try PostgresStore(
                url: url,
                topology: PostgresTopology(replica: "postgres://postgres@127.0.0.1:\(nobody)/\(name)?sslmode=disable"))
            do {
                try await store.migrate()
                let harness = ServerHarness(store: store, adminToken: nil)
                let app = Application(router: buildRouter(harness.state))
                try await app.test(.router) { client in
                    let token = try await client.register("replica")
                    let export = try await client.call(.get, "/v1/account/archive", token: token)
                    #expect(export.status == .ok)
                    let ready = try await client.call(.get, "/readyz")
                    #expect(ready.status == .ok)
                    #expect(ready.json["status"] as? String == "ready")
                    #expect(ready.json["replica"] as? String == "unreachable")
                    #expect(ready.json["degraded"] as? String == "replica")
                    let metrics = try await client.call(.get, "/metrics")
                    #expect(metrics.text.contains(#"momentum_store_replica_reads_total{served_by="replica"} 0"#))
                    #expect(!metrics.text.contains(#"momentum_store_replica_reads_total{served_by="primary"} 0"#))
                    #expect(metrics.text.contains(#"momentum_store_replica_reads_total{served_by="primary"}"#))
                }
                await store.close()
            } catch {
                await store.close()
                throw error
            }
        }
    }
}
