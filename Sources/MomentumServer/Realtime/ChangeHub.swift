import Foundation
import MomentumCore
import NIOCore
import Synchronization

/// A change to a user's data, as sent to their other devices over server-sent events.
public struct Change: Sendable, Codable, Hashable {
    /// What changed: `events`, `profile`, `memories` or `celebrations`.
    public var kind: String
    /// The user's newest event sequence number after the change (pull from your cursor).
    public var headSeq: Int64?
    /// The device that made the change.
    public var device: String?
    /// When the change was made.
    public var at: Date
}

/// The open event streams of this instance, by user.
final class ChangeHub: Sendable {
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

/// A change on its way between server instances.
public struct RelayMessage: Sendable, Codable, Hashable {
    /// The instance that made the change.
    public var instance: String
    /// Whose data changed.
    public var user: String
    /// The change to deliver to the user's streams, if it is one.
    public var change: Change?
    /// A device session that was ended (its token hash), or `*` when every session of the
    /// user was (the account was deleted): other instances stop trusting what they cached.
    public var revoked: String?

    /// Creates a message.
    public init(instance: String, user: String, change: Change? = nil, revoked: String? = nil) {
        self.instance = instance
        self.user = user
        self.change = change
        self.revoked = revoked
    }

    /// The message's JSON: the bytes `MomentumJSON.encodeBytes` writes (keys in byte
    /// order, absent values left out), written directly, since every change a request
    /// makes is relayed (through `Encodable` this was 1.5% of a PostgreSQL check-in).
    func json() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160)
        out.append(contentsOf: "{".utf8)
        if let change {
            out.append(contentsOf: #""change":{"at":"#.utf8)
            MomentumJSON.appendInstant(change.at, to: &out)
            if let device = change.device {
                out.append(contentsOf: #","device":"#.utf8)
                MomentumJSON.appendString(device, to: &out)
            }
            if let headSeq = change.headSeq {
                out.append(contentsOf: #","headSeq":"#.utf8)
                MomentumJSON.appendInteger(headSeq, to: &out)
            }
            out.append(contentsOf: #","kind":"#.utf8)
            MomentumJSON.appendString(change.kind, to: &out)
            out.append(contentsOf: "},".utf8)
        }
        out.append(contentsOf: #""instance":"#.utf8)
        MomentumJSON.appendString(instance, to: &out)
        if let revoked {
            out.append(contentsOf: #","revoked":"#.utf8)
            MomentumJSON.appendString(revoked, to: &out)
        }
        out.append(contentsOf: #","user":"#.utf8)
        MomentumJSON.appendString(user, to: &out)
        out.append(contentsOf: "}".utf8)
        return out
    }
}

/// Carries changes between server instances that share one database.
public protocol ChangeRelay: Sendable {
    /// Sends a change to every instance, and returns once it was sent.
    func publish(_ message: RelayMessage) async throws
    /// Sends a change to every instance without waiting for it to leave; changes posted
    /// one after another leave in that order. `onFailure` hears why one could not be sent.
    func post(_ message: RelayMessage, onFailure: @escaping @Sendable (any Error) -> Void)
    /// Returns once every change posted so far has been sent (or has failed).
    func flush() async
    /// Receives every instance's changes until the task is cancelled.
    ///
    /// - Parameters:
    ///   - instance: An instance whose own changes are not wanted (the listener's), or
    ///     `nil` for all of them.
    ///   - onListening: Called with `true` each time the relay starts receiving, and with
    ///     `false` when it loses its connection (and, until it is back, misses changes).
    ///   - receive: Called with every change, except those of `instance`.
    func listen(
        skipping instance: String?, onListening: @escaping @Sendable (Bool) -> Void,
        _ receive: @escaping @Sendable (RelayMessage) -> Void
    ) async throws
}

extension ChangeRelay {
    /// Publishes the change from a task of its own (so posts may overtake each other).
    public func post(_ message: RelayMessage, onFailure: @escaping @Sendable (any Error) -> Void) {
        Task {
            do {
                try await publish(message)
            } catch {
                onFailure(error)
            }
        }
    }

    /// Nothing to wait for.
    public func flush() async {}
}
