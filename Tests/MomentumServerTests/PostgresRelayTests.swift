import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Synchronization
import Testing

@testable import MomentumPostgres
@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The relay sends the changes that queue while a notification is on its way together,
/// in payloads PostgreSQL accepts, and every other instance gets each change once.
struct PostgresRelayTests {
    static func message(_ index: Int, note: String = "") -> RelayMessage {
        RelayMessage(
            instance: "i_one", user: "u_\(index)\(note)",
            change: Change(
                kind: "events", headSeq: Int64(index), device: "d_phone", at: Date(timeIntervalSince1970: 1_767_225_600)
            ))
    }

    @Test func batchesAreSplitIntoPayloadsPostgreSQLAcceptsAndKeepTheirOrder() throws {
        let messages = (0..<200).map { Self.message($0) }
        let encoded = try messages.map { Outgoing(instance: $0.instance, message: try MomentumJSON.encodeBytes($0)) }
        let payloads = PostgresRelay.payloads(encoded)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count <= PostgresRelay.maximumPayload })
        #expect(payloads.flatMap { PostgresRelay.messages(in: $0) } == messages)

        // One change longer than a payload may be still goes, alone.
        let long = Self.message(7, note: String(repeating: "x", count: PostgresRelay.maximumPayload))
        let mixed = PostgresRelay.payloads(
            try [messages[0], long, messages[1]].map {
                Outgoing(instance: $0.instance, message: try MomentumJSON.encodeBytes($0))
            })
        #expect(mixed.count == 3)
        #expect(mixed.flatMap { PostgresRelay.messages(in: $0) } == [messages[0], long, messages[1]])
    }

    /// A message writes its own JSON: the bytes of the Codable encoding, whatever is
    /// present, whatever its strings hold, at any instant.
    @Test func aMessageWritesTheJSONItsEncodingGives() throws {
        let strings = ["i_one", "", "u_\"quoted\"", "back\\slash", "line\nbreak\t\u{01}\u{1F}", "ünï 🏃", "a/b"]
        let instants = [
            Date(timeIntervalSince1970: 1_767_225_600), Date(timeIntervalSince1970: 1_795_300_000.123_456),
            Date(timeIntervalSince1970: 1_795_300_000.999_9), Date(timeIntervalSince1970: -86_400.5),
        ]
        var messages: [RelayMessage] = []
        for (index, text) in strings.enumerated() {
            let at = instants[index % instants.count]
            messages.append(RelayMessage(instance: text, user: "u_\(index)"))
            messages.append(RelayMessage(instance: "i_1", user: text, revoked: text))
            messages.append(
                RelayMessage(
                    instance: "i_1", user: text,
                    change: Change(kind: text, headSeq: Int64(index) * -7_919, device: text, at: at)))
            messages.append(
                RelayMessage(
                    instance: text, user: "u_1", change: Change(kind: "events", headSeq: nil, device: nil, at: at),
                    revoked: "*"))
            messages.append(
                RelayMessage(
                    instance: text, user: "u_1", change: Change(kind: "profile", headSeq: .max, device: nil, at: at)))
        }
        for message in messages {
            #expect(message.json() == (try MomentumJSON.encodeBytes(message)), "\(message)")
        }
    }

    @Test func eachPayloadNamesItsInstanceAndAListenerSkipsItsOwnUnread() throws {
        let mine = (0..<3).map { Self.message($0) }
        var theirs = Self.message(9)
        theirs.instance = "i_two"
        let batch = try (mine + [theirs] + mine).map {
            Outgoing(instance: $0.instance, message: try MomentumJSON.encodeBytes($0))
        }
        let payloads = PostgresRelay.payloads(batch)
        #expect(payloads.map { $0.prefix(6) } == ["i_one ", "i_two ", "i_one "])
        #expect(payloads.flatMap { PostgresRelay.messages(in: $0) } == mine + [theirs] + mine)
        #expect(payloads.flatMap { PostgresRelay.messages(in: $0, skipping: "i_one") } == [theirs])
        #expect(payloads.flatMap { PostgresRelay.messages(in: $0, skipping: "i_two") } == mine + mine)
        // Skipped without being read: a payload of ours that is not even JSON.
        #expect(PostgresRelay.messages(in: "i_one {not json", skipping: "i_one").isEmpty)
        #expect(PostgresRelay.messages(in: "i_one", skipping: "i_two").isEmpty)
    }

    @Test func aListenerAcceptsASingleChangeAsEarlierVersionsSentIt() throws {
        let single = String(decoding: try MomentumJSON.encodeBytes(Self.message(3)), as: UTF8.self)
        #expect(PostgresRelay.messages(in: single) == [Self.message(3)])
        #expect(PostgresRelay.messages(in: "[\(single)]", skipping: "i_one") == [Self.message(3)])
        #expect(PostgresRelay.messages(in: "not json").isEmpty)
        #expect(PostgresRelay.messages(in: "[1, 2]").isEmpty)
    }

    @Test func manyChangesAtOnceReachTheOtherInstanceOnceEachInFewerNotifications() async throws {
        let cluster = try PostgresTestCluster.shared
        // The relay needs no schema: the cluster's own database will do.
        let sender = try PostgresStore(url: cluster.url(database: "postgres"))
        let receiver = try PostgresStore(url: cluster.url(database: "postgres"))
        let received = Received()
        let payloads = Received()
        let relayReady = Received()
        let rawReady = Received()
        let listeners = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    try? await PostgresRelay(store: receiver).listen(
                        skipping: "i_two", onListening: { if $0 { relayReady.count() } }
                    ) { message in received.keep(message) }
                }
                group.addTask {
                    // Listening again after a failed connection, as the relay does (under
                    // the whole suite's load a connection can be refused for a moment).
                    while !Task.isCancelled {
                        do {
                            try await receiver.listen(
                                channel: PostgresRelay.channel, onListening: { rawReady.count() }
                            ) { _ in payloads.count() }
                        } catch {
                            try? await Task.sleep(for: .milliseconds(100))
                        }
                    }
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while relayReady.counted == 0 || rawReady.counted == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(relayReady.counted >= 1 && rawReady.counted >= 1)

        let relay = PostgresRelay(store: sender)
        let count = 300
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask { try await relay.publish(Self.message(index)) }
            }
            try await group.waitForAll()
        }
        while received.messages.count < count, ContinuousClock.now < deadline + .seconds(10) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let users = received.messages.map(\.user)
        #expect(users.count == count)
        #expect(Set(users) == Set((0..<count).map { "u_\($0)" }))
        #expect(payloads.counted < count, "one notification per change")

        // Posted without waiting (as a request does): they leave in the order posted, and
        // flush returns once they have.
        let posted = (count..<(2 * count)).map { Self.message($0) }
        let failures = Received()
        for message in posted { relay.post(message) { _ in failures.count() } }
        await relay.flush()
        while received.messages.count < 2 * count, ContinuousClock.now < deadline + .seconds(20) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(Array(received.messages.dropFirst(count)) == posted)
        #expect(failures.counted == 0)
        listeners.cancel()
        await listeners.value
        await sender.close()
        await receiver.close()
    }
}

/// What a listener received, from any thread.
private final class Received: Sendable {
    private let state = Mutex((count: 0, messages: [RelayMessage]()))

    func count() { state.withLock { $0.count += 1 } }
    func keep(_ message: RelayMessage) { state.withLock { $0.messages.append(message) } }
    var counted: Int { state.withLock { $0.count } }
    var messages: [RelayMessage] { state.withLock { $0.messages } }
}

/// A change that cannot leave is reported, and does not hold up a flush.
@Test func aPostedChangeThatCannotBeSentIsReported() async throws {
    let cluster = try PostgresTestCluster.shared
    let store = try PostgresStore(url: cluster.url(database: "postgres"))
    await store.close()
    let relay = PostgresRelay(store: store)
    let failures = Received()
    relay.post(PostgresRelayTests.message(1)) { _ in failures.count() }
    relay.post(PostgresRelayTests.message(2)) { _ in failures.count() }
    await relay.flush()
    #expect(failures.counted == 2)
    await #expect(throws: (any Error).self) { try await relay.publish(PostgresRelayTests.message(3)) }
}
