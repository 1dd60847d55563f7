import Foundation
import MomentumCore
import MomentumStore
import Synchronization

/// Changes between instances through PostgreSQL's LISTEN/NOTIFY on one channel.
///
/// The notification is sent after the write transaction commits, on its own pooled
/// connection, so it never lengthens the transaction that holds the user's lock (sending
/// `pg_notify` inside the write transaction serialises commits on PostgreSQL's
/// notification queue lock).
///
/// Changes published while a notification is on its way are sent together in the next
/// one, as a JSON array (at most ``maximumPayload`` bytes each): under load one
/// notification carries many changes, and alone a change leaves at once. `publish`
/// returns once its change was sent.
///
/// A payload starts with the sending instance's id and a space, so that an instance skips
/// its own notifications without decoding them. A listener also accepts a bare array or a
/// single change, as earlier versions sent them.
public struct PostgresRelay: ChangeRelay {
    /// The channel name.
    public static let channel = "momentum_changes"
    /// The most bytes of one notification's payload (PostgreSQL refuses 8,000 or more).
    public static let maximumPayload = 7_000
    let store: PostgresStore
    private let outbox: RelayOutbox

    /// A relay over the store's connection pool.
    public init(store: PostgresStore) {
        self.store = store
        outbox = RelayOutbox()
    }

    /// Sends a change to every instance, and returns once it was sent.
    public func publish(_ message: RelayMessage) async throws {
        try await outbox.send(Outgoing(instance: message.instance, message: message.json()), with: deliver)
    }

    /// Sends a change to every instance without waiting: it leaves with the next
    /// notification, after every change published or posted before it.
    public func post(_ message: RelayMessage, onFailure: @escaping @Sendable (any Error) -> Void) {
        outbox.post(Outgoing(instance: message.instance, message: message.json()), onFailure: onFailure, with: deliver)
    }

    /// Returns once every change posted so far has been sent (or has failed).
    public func flush() async {
        await outbox.flushed()
    }

    /// Sends a notification with the payload.
    private var deliver: @Sendable (String) async throws -> Void {
        { [store] payload in
            try await RelayOutbox.retrying(while: { !store.usage.withLock(\.closed) }) {
                try await store.notify(channel: Self.channel, payload: payload)
            }
        }
    }

    /// The payloads for a batch of encoded changes: each instance's changes as a JSON
    /// array of at most ``maximumPayload`` bytes, after the instance's id and a space (a
    /// change longer than that alone in its own).
    static func payloads(_ messages: [Outgoing]) -> [String] {
        var payloads: [String] = []
        var current: [UInt8] = []
        var instance = ""
        func finish() {
            guard !current.isEmpty else { return }
            current.append(UInt8(ascii: "]"))
            payloads.append(String(decoding: current, as: UTF8.self))
            current = []
        }
        for outgoing in messages {
            if outgoing.instance != instance
                || current.count + outgoing.message.count + 2 > maximumPayload
            {
                finish()
            }
            if current.isEmpty {
                instance = outgoing.instance
                current = Array(instance.utf8)
                current.append(UInt8(ascii: " "))
                current.append(UInt8(ascii: "["))
            } else {
                current.append(UInt8(ascii: ","))
            }
            current += outgoing.message
        }
        finish()
        return payloads
    }

    /// The changes in a payload, unless it came from `skipping` (then none, and nothing is
    /// decoded): an instance's id and an array of changes, or, as earlier versions sent
    /// them, a bare array or one change alone.
    static func messages(in payload: String, skipping: String? = nil) -> [RelayMessage] {
        var json = Substring(payload)
        if let first = json.first, first != "[", first != "{" {
            guard let space = json.firstIndex(of: " ") else { return [] }
            if let skipping, json[..<space] == skipping { return [] }
            json = json[json.index(after: space)...]
        }
        let decoder = MomentumJSON.decoder()
        let data = Data(json.utf8)
        if json.first == "[" { return (try? decoder.decode([RelayMessage].self, from: data)) ?? [] }
        return (try? decoder.decode(RelayMessage.self, from: data)).map { [$0] } ?? []
    }

    /// Receives every instance's changes until the task is cancelled, reconnecting after
    /// a lost connection.
    public func listen(
        skipping instance: String?, onListening: @escaping @Sendable (Bool) -> Void,
        _ receive: @escaping @Sendable (RelayMessage) -> Void
    ) async throws {
        while !Task.isCancelled {
            do {
                try await store.listen(channel: Self.channel, onListening: { onListening(true) }) { payload in
                    for message in Self.messages(in: payload, skipping: instance) { receive(message) }
                }
                onListening(false)
            } catch {
                onListening(false)
                if Task.isCancelled { return }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}

/// A change on its way out: who sent it, and its JSON.
struct Outgoing: Sendable {
    var instance: String
    var message: [UInt8]
}

/// Changes waiting to be sent, and whether a send is under way: the first change queued
/// while nothing is being sent starts a task that sends everything queued, then whatever
/// queued meanwhile, until nothing is left.
///
/// A notification that fails is sent again after ``retryDelays`` (a pooler restarting, a
/// connection lost under it), from the payload that failed: another instance's streams
/// would otherwise miss the change until the user's next one. A change that arrives twice
/// (the first attempt reached PostgreSQL, its answer did not) is harmless: it tells a stream
/// to pull from its cursor, which finds nothing new the second time.
final class RelayOutbox: Sendable {
    /// How long to wait before each new attempt at a notification that failed.
    static let retryDelays: [Duration] = [.milliseconds(50), .milliseconds(250), .seconds(1)]

    private struct Waiting {
        var message: Outgoing
        /// Resumed when a published change was sent.
        var done: CheckedContinuation<Void, any Error>?
        /// Told when a posted change could not be sent.
        var onFailure: (@Sendable (any Error) -> Void)?
    }

    private struct State {
        var queue: [Waiting] = []
        var sending = false
        /// Waiting for the queue to empty.
        var flushing: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Queues a change and waits until it was sent.
    func send(_ message: Outgoing, with deliver: @escaping @Sendable (String) async throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            enqueue(Waiting(message: message, done: done), with: deliver)
        }
    }

    /// Queues a change without waiting for it.
    func post(
        _ message: Outgoing, onFailure: @escaping @Sendable (any Error) -> Void,
        with deliver: @escaping @Sendable (String) async throws -> Void
    ) {
        enqueue(Waiting(message: message, onFailure: onFailure), with: deliver)
    }

    /// Returns once the queue is empty and nothing is being sent.
    func flushed() async {
        await withCheckedContinuation { (idle: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if !state.sending { return true }
                state.flushing.append(idle)
                return false
            }
            if now { idle.resume() }
        }
    }

    private func enqueue(_ waiting: Waiting, with deliver: @escaping @Sendable (String) async throws -> Void) {
        let leads = state.withLock { state -> Bool in
            state.queue.append(waiting)
            if state.sending { return false }
            state.sending = true
            return true
        }
        if leads { Task { await self.drain(deliver) } }
    }

    private func drain(_ deliver: @Sendable (String) async throws -> Void) async {
        while true {
            let (batch, flushed) = state.withLock { state -> ([Waiting], [CheckedContinuation<Void, Never>]) in
                let batch = state.queue
                state.queue = []
                guard batch.isEmpty else { return (batch, []) }
                state.sending = false
                defer { state.flushing = [] }
                return ([], state.flushing)
            }
            if batch.isEmpty {
                for idle in flushed { idle.resume() }
                return
            }
            do {
                for payload in PostgresRelay.payloads(batch.map(\.message)) {
                    try await deliver(payload)
                }
                for waiting in batch { waiting.done?.resume() }
            } catch {
                for waiting in batch {
                    waiting.done?.resume(throwing: error)
                    waiting.onFailure?(error)
                }
            }
        }
    }

    /// `body`, tried again after each of ``retryDelays`` while it fails and `worthIt`
    /// holds (a closed store refuses every attempt).
    static func retrying(while worthIt: () -> Bool, _ body: () async throws -> Void) async throws {
        for delay in retryDelays {
            do {
                return try await body()
            } catch {
                guard worthIt() else { throw error }
                try await Task.sleep(for: delay)
            }
        }
        try await body()
    }
}
