extension OperationsController {
    /// The controller of `server`'s operations, store counts and streams (made here, with
    /// the routes, so that the controller itself reaches neither the store nor the server's
    /// state).
    init(server: ServerState) {
        self.init(
            operations: server.services.operations, metrics: server.metrics,
            statistics: { [store = server.store] in store.statistics }, streams: { [hub = server.hub] in hub.count },
            probesOnPublicPort: server.configuration.observability.adminAddress == nil)
    }
}
