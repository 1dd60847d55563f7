import Foundation
import MomentumCore
import MomentumPostgres
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
/// returns once its change was sent. A listener also accepts a single change, as an
/// earlier version sent it.
public struct PostgresRelay: ChangeRelay {
    /// The channel name.
    public static let channel = "momentum_changes"
    /// The most bytes of one notification's payload (PostgreSQL refuses 8,000 or more).
    public static let maximumPayload = 7_000
    let store: PostgresStore
    private let outbox: Outbox

    /// A relay over the store's connection pool.
    public init(store: PostgresStore) {
        self.store = store
        outbox = Outbox()
    }

    /// Sends a change to every instance.
    public func publish(_ message: RelayMessage) async throws {
        let encoded = try MomentumJSON.encodeBytes(message)
        try await outbox.send(encoded) { payloads in
            for payload in payloads {
                try await store.notify(channel: Self.channel, payload: payload)
            }
        }
    }

    /// The payloads for a batch of encoded changes: JSON arrays of at most
    /// ``maximumPayload`` bytes (a change longer than that alone in its own).
    static func payloads(_ messages: [[UInt8]]) -> [String] {
        var payloads: [String] = []
        var current: [UInt8] = []
        for message in messages {
            if !current.isEmpty, current.count + message.count + 2 > maximumPayload {
                current.append(UInt8(ascii: "]"))
                payloads.append(String(decoding: current, as: UTF8.self))
                current = []
            }
            current.append(current.isEmpty ? UInt8(ascii: "[") : UInt8(ascii: ","))
            current += message
        }
        if !current.isEmpty {
            current.append(UInt8(ascii: "]"))
            payloads.append(String(decoding: current, as: UTF8.self))
        }
        return payloads
    }

    /// The changes in a payload: an array of them, or one alone.
    static func messages(in payload: String) -> [RelayMessage] {
        let decoder = MomentumJSON.decoder()
        let data = Data(payload.utf8)
        if payload.first == "[" { return (try? decoder.decode([RelayMessage].self, from: data)) ?? [] }
        return (try? decoder.decode(RelayMessage.self, from: data)).map { [$0] } ?? []
    }

    /// Receives every instance's changes until the task is cancelled, reconnecting after
    /// a lost connection.
    public func listen(
        onListening: @escaping @Sendable (Bool) -> Void, _ receive: @escaping @Sendable (RelayMessage) -> Void
    ) async throws {
        while !Task.isCancelled {
            do {
                try await store.listen(channel: Self.channel, onListening: { onListening(true) }) { payload in
                    for message in Self.messages(in: payload) { receive(message) }
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

/// Changes waiting to be sent, and whether a send is under way: the first publisher sends
/// everything that queued, then whatever queued meanwhile, until nothing is left.
private final class Outbox: Sendable {
    private struct Waiting {
        var message: [UInt8]
        var done: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var sending = false
    }

    private let state = Mutex(State())

    func send(_ message: [UInt8], with deliver: @escaping @Sendable ([String]) async throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let leads = state.withLock { state -> Bool in
                state.queue.append(Waiting(message: message, done: done))
                if state.sending { return false }
                state.sending = true
                return true
            }
            if leads { Task { await self.drain(deliver) } }
        }
    }

    private func drain(_ deliver: @Sendable ([String]) async throws -> Void) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let batch = state.queue
                state.queue = []
                if batch.isEmpty { state.sending = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                try await deliver(PostgresRelay.payloads(batch.map(\.message)))
                for waiting in batch { waiting.done.resume() }
            } catch {
                for waiting in batch { waiting.done.resume(throwing: error) }
            }
        }
    }
}
