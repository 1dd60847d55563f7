import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

/// The body of `POST /v1/stream-tickets`: an empty object, when there is one.
typealias StreamTicketRequest = Components.Schemas.StreamTicketRequest

/// Sync: push (`POST /v1/events`), pull (`GET /v1/events`) through ``EventIngest``, the
/// change stream (`GET /v1/stream`) from the ``ChangeHub``, and the tickets that open it
/// from a browser (`POST /v1/stream-tickets`, ``StreamAdmission``).
struct EventController: Sendable {
    let ingest: EventIngest
    let streamAdmission: StreamAdmission
    /// Where the user's changes arrive, from this instance or (relayed) from another.
    let hub: ChangeHub
    /// Open server-sent event streams (``ServerMetrics/streams``).
    let streams: Meter
    /// The most bytes a request body may hold.
    let maxBodyBytes: Int
    /// The versions of the rules each stream message announces.
    let rules: RulesInForce

    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.post("events", use: push)
        group.get("events", use: pull)
        group.get("stream", use: stream)
        group.post("stream-tickets", use: streamTicket)
    }

    /// `POST /v1/stream-tickets`: a ticket that opens the caller's change stream once,
    /// within a minute (``ServerConfiguration/streamTicketLifetime``), while the caller's
    /// session lasts: `{ticket, expiresAt}` (201). The body, if any, must be an empty object.
    @Sendable func streamTicket(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        _ = try await JSONIO.decode(StreamTicketRequest.self, from: request, limit: maxBodyBytes, emptyIsObject: true)
        return try JSONIO.response(try await streamAdmission.issue(for: caller), status: .created)
    }

    /// `POST /v1/events`: a device's batch of events (``PushRequest``), validated and stored;
    /// the ``PushResponse``.
    @Sendable func push(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(PushRequest.self, from: request, limit: maxBodyBytes)
        let response = try await ingest.append(body.events, caller: caller)
        return try JSONIO.response(response)
    }

    /// `GET /v1/events?after=&limit=`: a page of the user's stored events after the cursor
    /// `after`, at most `limit` (1 to 1,000, 500 by default), for a device catching up.
    @Sendable func pull(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let after = try request.integer("after", default: 0, in: 0...Int.max)
        let limit = try request.integer("limit", default: 500, in: 1...1_000)
        return try JSONIO.response(try await ingest.pull(caller.user, after: Int64(after), limit: limit))
    }

    /// `GET /v1/stream`: server-sent events: `change` whenever the user's data changes on
    /// any device (on any instance), a comment every 15 seconds to keep proxies from
    /// closing the stream. Each message's data carries the versions of the rules in force
    /// (``StreamMessage``), read again after a change of the profile (its packs may have
    /// changed).
    @Sendable func stream(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let hub = self.hub
        let streams = self.streams
        let rules = self.rules
        let initialVersions = try await rules.versions(of: caller.user)
        let (id, changes) = try hub.subscribe(caller.user)
        let stopWatching = hub.closeWhenConnectionEnds(context.channel, user: caller.user, id: id)
        streams.increment()
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(15))
                hub.heartbeat(caller.user, id: id)
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
                    hub.close(caller.user, id: id)
                    streams.decrement()
                }
                var versions = initialVersions
                let readyMessage = StreamMessage(change: nil, versions: versions)
                let ready = String(decoding: try MomentumJSON.encodeBytes(readyMessage), as: UTF8.self)
                try await writer.write(ByteBuffer(string: "retry: 2000\nevent: ready\ndata: \(ready)\n\n"))
                for await item in changes.cancelOnGracefulShutdown() {
                    switch item {
                    case .heartbeat:
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    case .change(let change):
                        if change.kind == "profile", let now = try? await rules.versions(of: caller.user) {
                            versions = now
                        }
                        let message = StreamMessage(change: change, versions: versions)
                        let data = String(decoding: try MomentumJSON.encodeBytes(message), as: UTF8.self)
                        try await writer.write(ByteBuffer(string: "event: change\ndata: \(data)\n\n"))
                    }
                }
                try await writer.finish(nil)
            })
    }
}

/// The data of a stream message: the change's fields (none for `ready`) and the versions of
/// the rules in force (`versions`).
private struct StreamMessage: Encodable {
    var change: Change?
    var versions: RuleVersions

    private enum CodingKeys: String, CodingKey {
        case kind, headSeq, device, at, versions
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let change {
            try container.encode(change.kind, forKey: .kind)
            try container.encodeIfPresent(change.headSeq, forKey: .headSeq)
            try container.encodeIfPresent(change.device, forKey: .device)
            try container.encode(change.at, forKey: .at)
        }
        try container.encode(versions, forKey: .versions)
    }
}
