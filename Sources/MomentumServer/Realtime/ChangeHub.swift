import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore
import Synchronization

/// The open event streams of this instance, by user.
final class ChangeHub: LocalChangeDelivery {
    enum Item: Sendable {
        case change(Change)
        case heartbeat
    }

    private let subscribers = Mutex([String: [UUID: AsyncStream<Item>.Continuation]]())
    private let maxStreamsPerUser: Int

    /// - Parameter maxStreamsPerUser: The streams one user may hold open (0: no limit).
    init(maxStreamsPerUser: Int = 0) {
        self.maxStreamsPerUser = maxStreamsPerUser
    }

    /// Opens a stream of the user's changes; it ends when `close` is called.
    ///
    /// - Throws: 429 when the user already holds `maxStreamsPerUser` streams open here. A
    ///   new stream is refused rather than an old one closed: a browser's `EventSource`
    ///   stops on an error status, where a closed stream would reconnect and close another
    ///   in turn.
    func subscribe(_ user: String) throws -> (id: UUID, stream: AsyncStream<Item>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let limit = maxStreamsPerUser
        let opened = subscribers.withLock { subscribers -> Bool in
            guard limit <= 0 || (subscribers[user]?.count ?? 0) < limit else { return false }
            subscribers[user, default: [:]][id] = continuation
            return true
        }
        guard opened else {
            continuation.finish()
            throw APIError(
                .tooManyRequests, "too_many_streams",
                "this account has \(limit) event streams open, the most allowed; close one (or wait for it to end) and retry",
                headers: [.retryAfter: "15"])
        }
        return (id, stream)
    }

    func close(_ user: String, id: UUID) {
        let continuation = subscribers.withLock { subscribers -> AsyncStream<Item>.Continuation? in
            let removed = subscribers[user]?.removeValue(forKey: id)
            if subscribers[user]?.isEmpty == true { subscribers[user] = nil }
            return removed
        }
        continuation?.finish()
    }

    func deliver(_ change: Change, to user: String) {
        let continuations = subscribers.withLock { Array(($0[user] ?? [:]).values) }
        for continuation in continuations { continuation.yield(.change(change)) }
    }

    func heartbeat(_ user: String, id: UUID) {
        let continuation = subscribers.withLock { $0[user]?[id] }
        continuation?.yield(.heartbeat)
    }

    var count: Int { subscribers.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// Closes a stream as soon as its connection ends, and returns what stops watching.
    ///
    /// A stream's body only learns of a closed connection when a write fails, and the
    /// first write after the client closed its socket still succeeds (the server allows
    /// half-closed connections): a keep-alive comment every 15 s found it only 15 to 30 s
    /// later, and meanwhile the dead stream held one of the user's
    /// `maxStreamsPerUser` places. Here the connection's end of input (the client closed
    /// or shut down its side) or its closing frees the place at once.
    func closeWhenConnectionEnds(_ channel: any Channel, user: String, id: UUID) -> @Sendable () -> Void {
        let name = "momentum-stream-\(id.uuidString)"
        channel.eventLoop.execute {
            guard channel.isActive else { return self.close(user, id: id) }
            do {
                try channel.pipeline.syncOperations.addHandler(
                    ConnectionEndWatcher { self.close(user, id: id) }, name: name, position: .first)
            } catch {
                self.close(user, id: id)
            }
        }
        return {
            channel.eventLoop.execute { channel.pipeline.syncOperations.removeHandler(name: name, promise: nil) }
        }
    }
}

/// Calls `ended` once when its connection's input ends or the connection closes.
private final class ConnectionEndWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private var ended: (() -> Void)?

    init(_ ended: @escaping () -> Void) {
        self.ended = ended
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { end() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        end()
        context.fireChannelInactive()
    }

    private func end() {
        let ended = self.ended
        self.ended = nil
        ended?()
    }
}
