import Foundation
import HTTPTypes
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumStore

/// What happened to one pushed event.
struct EventResult: Codable {
    /// `applied`, `duplicate` (already stored: a retry), `rejected` (valid but refused by
    /// the rules, such as a purchase without enough diamonds) or `invalid`.
    var status: String
    var id: String
    var seq: Int64?
    var error: ErrorBody?

    struct ErrorBody: Codable {
        var code: String
        var message: String
        var field: String?
    }

    init(_ outcome: EventOutcome) {
        id = outcome.id
        switch outcome.status {
        case .applied(let seq):
            status = "applied"
            self.seq = seq
        case .duplicate: status = "duplicate"
        case .rejected(let error):
            status = "rejected"
            self.error = ErrorBody(code: error.code.description, message: error.message, field: error.field)
        case .invalid(let error):
            status = "invalid"
            self.error = ErrorBody(code: error.code.description, message: error.message, field: error.field)
        }
    }
}

/// The answer to a push.
struct PushResponse: Codable {
    var results: [EventResult]
    /// The user's newest sequence number: pull after it for changes from other devices.
    var headSeq: Int64
    var wallet: Wallet
    /// Achievements this push unlocked.
    var unlocks: [Unlock]
    /// The projection version the push produced (not sent: routes read their answer with it).
    var version: Int64 = -1
    /// The JSON of the habit states the push wrote, by habit id (not sent: routes may
    /// answer with it; see `AppendResult.habitJSON`).
    var habitJSON: [String: String] = [:]

    enum CodingKeys: String, CodingKey {
        case results, headSeq, wallet, unlocks
    }
}

/// A stored event, as pulled by a device.
struct PulledEvent: Codable {
    var seq: Int64
    var event: Event
    var receivedAt: Date
    var device: String?
    /// The family member who logged it into this log, when not its owner.
    var loggedBy: String?
}

/// The answer to a pull.
struct PullResponse: Codable {
    var events: [PulledEvent]
    /// Pass this as `after` to get what comes next.
    var cursor: Int64
    /// Whether more events are waiting after `cursor`.
    var more: Bool
}

extension Routes {
    func addEventRoutes(_ group: RouterGroup<MomentumContext>) {
        group.post("events") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(
                PushRequest.self, from: request, limit: server.configuration.maxBodyBytes)
            let response = try await server.ingest.append(body.events, caller: caller)
            return try JSONIO.response(response)
        }
        group.get("events") { request, context in
            let caller = try context.requireCaller()
            let after = try request.integer("after", default: 0, in: 0...Int.max)
            let limit = try request.integer("limit", default: 500, in: 1...1_000)
            return try JSONIO.response(try await server.ingest.pull(caller.user, after: Int64(after), limit: limit))
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

extension Request {
    /// A boolean query parameter: `true` or `1`, `false` or `0`.
    func boolean(_ name: String, default value: Bool) throws -> Bool {
        guard let text = uri.queryParameters[name[...]] else { return value }
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: throw APIError.invalid("must be true or false", field: name)
        }
    }

    /// An integer query parameter within a range.
    func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = uri.queryParameters[name[...]] else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw APIError.invalid(
                "must be an integer from \(range.lowerBound) to \(range.upperBound == .max ? "…" : String(range.upperBound))",
                field: name)
        }
        return number
    }
}
