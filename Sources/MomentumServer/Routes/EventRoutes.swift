import Foundation
import HTTPTypes
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

extension Routes {
    func addEventRoutes(_ group: RouterGroup<MomentumContext>) {
        group.post("events") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(
                PushRequest.self, from: request, limit: server.configuration.maxBodyBytes)
            let response = try await server.services.ingest.append(body.events, caller: caller)
            return try JSONIO.response(response)
        }
        group.get("events") { request, context in
            let caller = try context.requireCaller()
            let after = try request.integer("after", default: 0, in: 0...Int.max)
            let limit = try request.integer("limit", default: 500, in: 1...1_000)
            return try JSONIO.response(
                try await server.services.ingest.pull(caller.user, after: Int64(after), limit: limit))
        }
        group.get("stream") { request, context in try stream(request, context) }
    }

    /// Server-sent events: `change` whenever the user's data changes on any device (on
    /// any instance), a comment every 15 seconds to keep proxies from closing the stream.
    func stream(_ request: Request, _ context: MomentumContext) throws -> Response {
        let caller = try context.requireCaller()
        let server = self.server
        let (id, changes) = try server.hub.subscribe(caller.user)
        let stopWatching = server.hub.closeWhenConnectionEnds(context.channel, user: caller.user, id: id)
        server.metrics.streams.increment()
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(15))
                server.hub.heartbeat(caller.user, id: id)
            }
        }
        let headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-cache", HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        return Response(
            status: .ok, headers: headers,
            body: .init { writer in
                defer {
                    stopWatching()
                    heartbeat.cancel()
                    server.hub.close(caller.user, id: id)
                    server.metrics.streams.decrement()
                }
                try await writer.write(ByteBuffer(string: "retry: 2000\nevent: ready\ndata: {}\n\n"))
                for await item in changes.cancelOnGracefulShutdown() {
                    switch item {
                    case .heartbeat:
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    case .change(let change):
                        let data = String(decoding: try MomentumJSON.encodeBytes(change), as: UTF8.self)
                        try await writer.write(ByteBuffer(string: "event: change\ndata: \(data)\n\n"))
                    }
                }
                try await writer.finish(nil)
            })
    }
}
